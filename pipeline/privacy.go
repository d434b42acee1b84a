package pipeline

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/ledger"
)

// Privacy is a mechanism's privacy parameters and where they came from: what a
// release of it spends on each dataset it draws, and what verify and report audit.
type Privacy struct {
	Framework      string  // ledger.Framework ("epsilon-delta")
	Epsilon, Delta float64 // the mechanism's (ε, δ)
	// Source is ledger.SourceMetadata (read from the file, which graphdp run
	// wrote) or ledger.SourceStated (given by the operator: a CSV mechanism, or a
	// Parquet file without graphdp's metadata).
	Source string
}

// Stated is the (ε, δ) the operator gave, by flag or config file; a nil field was
// not given.
type Stated struct{ Epsilon, Delta *float64 }

// Stated is what the job states: its ε and δ where they were given.
func (job *Job) Stated() Stated {
	var s Stated
	if job.EpsilonSet() {
		e := job.Epsilon
		s.Epsilon = &e
	}
	if job.DeltaSet() {
		d := job.Delta
		s.Delta = &d
	}
	return s
}

// Metadata keys of a mechanism's privacy parameters (OutputMetadata writes the
// first two; graphdp.framework is read when present, "epsilon-delta" otherwise).
const (
	metaEpsilon   = "graphdp.epsilon"
	metaDelta     = "graphdp.delta"
	metaFramework = "graphdp.framework"
)

// ResolvePrivacy is the mechanism's (ε, δ): the file's own metadata when it has
// them (meta: ingest's, nil for CSV), else what the operator stated. A stated
// value that differs from the metadata's — compared exactly, as float64 parsed
// from the metadata's text — is a *ConfigError showing both (exit 2); metadata
// that is not a valid (ε, δ) is an *ingest.InputError (exit 3). Without metadata,
// ε must be stated; δ too when needDelta (release: what is charged must not be
// assumed), else it is 0 (verify and report: auditing at δ = 0 is the strictest).
func ResolvePrivacy(file string, meta map[string]string, st Stated, needDelta bool) (Privacy, error) {
	es, hasE := meta[metaEpsilon]
	ds, hasD := meta[metaDelta]
	if !hasE && !hasD {
		var probs []string
		if st.Epsilon == nil {
			probs = append(probs, fmt.Sprintf("epsilon: required: %s carries no privacy metadata (%s), so give the ε it was built with", file, kindOf(meta)))
		}
		if needDelta && st.Delta == nil {
			probs = append(probs, fmt.Sprintf("delta: required: %s carries no privacy metadata (%s), so give the δ it was built with (0 if none)", file, kindOf(meta)))
		}
		if len(probs) > 0 {
			return Privacy{}, &ConfigError{Problems: probs}
		}
		p := Privacy{Framework: ledger.Framework, Epsilon: *st.Epsilon, Source: ledger.SourceStated}
		if st.Delta != nil {
			p.Delta = *st.Delta
		}
		return p, nil
	}
	bad := func(key, msg string) error {
		return &ingest.InputError{File: file, Row: -1, Column: key, Err: ingest.ErrRange, Msg: "metadata " + key + ": " + msg}
	}
	if f, ok := meta[metaFramework]; ok && f != ledger.Framework {
		return Privacy{}, bad(metaFramework, fmt.Sprintf("privacy framework %q; this graphdp knows only %q", f, ledger.Framework))
	}
	if !hasE || !hasD {
		missing := metaDelta
		if !hasE {
			missing = metaEpsilon
		}
		return Privacy{}, bad(missing, "missing (the file has one of graphdp.epsilon and graphdp.delta, not both)")
	}
	eps, err := strconv.ParseFloat(es, 64)
	if err != nil || math.IsNaN(eps) || math.IsInf(eps, 0) || eps < 0 {
		return Privacy{}, bad(metaEpsilon, fmt.Sprintf("%q is not a finite number ≥ 0", es))
	}
	delta, err := strconv.ParseFloat(ds, 64)
	if err != nil || math.IsNaN(delta) || delta < 0 || delta >= 1 {
		return Privacy{}, bad(metaDelta, fmt.Sprintf("%q is not a number in [0, 1)", ds))
	}
	var probs []string
	if st.Epsilon != nil && *st.Epsilon != eps {
		probs = append(probs, fmt.Sprintf("epsilon: %s was given, but %s says it was built with ε = %s (%s); a mechanism's own metadata says what it spends: drop epsilon or correct it", words.Num(*st.Epsilon), file, es, metaEpsilon))
	}
	if st.Delta != nil && *st.Delta != delta {
		probs = append(probs, fmt.Sprintf("delta: %s was given, but %s says it was built with δ = %s (%s); a mechanism's own metadata says what it spends: drop delta or correct it", words.Num(*st.Delta), file, ds, metaDelta))
	}
	if len(probs) > 0 {
		return Privacy{}, &ConfigError{Problems: probs}
	}
	return Privacy{Framework: ledger.Framework, Epsilon: eps, Delta: delta, Source: ledger.SourceMetadata}, nil
}

func kindOf(meta map[string]string) string {
	if meta == nil {
		return "a CSV file has none"
	}
	return "no graphdp.epsilon and graphdp.delta in its Parquet metadata"
}

// MechanismPrivacy reads the mechanism file's metadata (a Parquet footer; nothing
// for CSV) and resolves its (ε, δ) against what job states (ResolvePrivacy), for
// verify and report; job.Epsilon and job.Delta are set to the result.
func MechanismPrivacy(ctx context.Context, job *Job) (Privacy, error) {
	meta, err := ingest.ReadMetadata(ctx, job.Mechanism)
	if err != nil {
		return Privacy{}, err
	}
	p, err := ResolvePrivacy(job.Mechanism, meta, job.Stated(), false)
	if err != nil {
		return Privacy{}, err
	}
	job.SetEpsilon(p.Epsilon)
	job.SetDelta(p.Delta)
	return p, nil
}
