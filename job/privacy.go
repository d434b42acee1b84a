package job

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/graphdp/graphdp/dp"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/ledger"
)

// Privacy is a mechanism's privacy parameters and where they came from: what a
// release of it spends on each dataset it draws, and what verify and report audit.
type Privacy struct {
	Framework      string  // ledger.Framework ("epsilon-delta") or another dp.Framework
	Epsilon, Delta float64 // the mechanism's (ε, δ), for epsilon-delta
	Pair           dp.Pair // the pair of another framework (zero for epsilon-delta)
	// Source is ledger.SourceMetadata (read from the file, which graphdp run
	// wrote) or ledger.SourceStated (given by the operator: a CSV mechanism, or a
	// Parquet file without graphdp's metadata).
	Source string
}

// Stated is the (ε, δ) the operator gave, by flag or config file; a nil field was
// not given.
type Stated struct{ Epsilon, Delta *float64 }

// Stated is what the job states: its ε and δ where they were given.
func (j *Job) Stated() Stated {
	var s Stated
	if j.EpsilonSet() {
		e := j.Epsilon
		s.Epsilon = &e
	}
	if j.DeltaSet() {
		d := j.Delta
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
// A mechanism whose metadata states another framework (graphdp.framework) resolves
// to that framework's pair (Privacy.Pair), and nothing may be stated beside it.
func ResolvePrivacy(file string, meta map[string]string, st Stated, needDelta bool) (Privacy, error) {
	if f, ok := meta[metaFramework]; ok && f != ledger.Framework {
		// Another framework (DESIGN.md §11): its pair, from the metadata that states it.
		p, ok, err := pairFromMetadata(meta)
		if err != nil || !ok {
			return Privacy{}, &ingest.InputError{File: file, Row: -1, Column: metaFramework, Err: ingest.ErrRange, Msg: "metadata " + metaFramework + ": " + fmt.Sprintf("privacy framework %q: %v", f, err)}
		}
		if st.Epsilon != nil || st.Delta != nil {
			return Privacy{}, &ConfigError{Problems: []string{fmt.Sprintf("epsilon/delta: given, but %s says it was built for %s (%s); a mechanism's own metadata says what it guarantees: drop epsilon and delta", file, p, metaFramework)}}
		}
		return Privacy{Framework: f, Pair: p, Source: ledger.SourceMetadata}, nil
	}
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
// for CSV) and resolves its privacy against what j states, for verify and report.
// A mechanism built under another framework than (ε,δ) (graphdp.framework) is
// audited under that framework: the job then uses its pair (UsePair), and a
// framework the job states must be the same one with the same parameters. Without
// such metadata, a framework the job states other than (ε,δ) is used as stated;
// else the (ε, δ) is resolved by ResolvePrivacy, and j.Epsilon and j.Delta are
// set to the result.
func (j *Job) MechanismPrivacy(ctx context.Context) (Privacy, error) {
	meta, err := ingest.ReadMetadata(ctx, j.Mechanism)
	if err != nil {
		return Privacy{}, err
	}
	mp, ok, err := pairFromMetadata(meta)
	if err != nil {
		return Privacy{}, &ingest.InputError{File: j.Mechanism, Row: -1, Column: metaFramework, Err: ingest.ErrRange, Msg: err.Error()}
	}
	if ok {
		if keys := j.frameworkKeys(); len(keys) > 0 {
			jp, err := j.Pair(ctx)
			if err != nil {
				return Privacy{}, err
			}
			if jp.String() != mp.String() || !jp.Same(mp) {
				return Privacy{}, &ConfigError{Problems: []string{fmt.Sprintf("%s: %s was given, but %s says it was built for %s (%s); a mechanism's own metadata says what it guarantees: drop %s or correct it",
					keys[0], jp, j.Mechanism, mp, metaFramework, keys[0])}}
			}
		}
		j.UsePair(mp)
		return Privacy{Framework: string(mp.Framework()), Source: ledger.SourceMetadata, Pair: mp}, nil
	}
	if fw := j.Framework(); fw != dp.EpsilonDelta {
		jp, err := j.Pair(ctx)
		if err != nil {
			return Privacy{}, err
		}
		j.UsePair(jp)
		return Privacy{Framework: string(fw), Source: ledger.SourceStated, Pair: jp}, nil
	}
	p, err := ResolvePrivacy(j.Mechanism, meta, j.Stated(), false)
	if err != nil {
		return Privacy{}, err
	}
	j.SetEpsilon(p.Epsilon)
	j.SetDelta(p.Delta)
	return p, nil
}
