package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/words"
)

// A job states its privacy in exactly one framework (docs/DESIGN.md §11): (ε,δ)-DP
// (epsilon, delta), μ-GDP (gdp_mu), a privacy profile (privacy_profile: a table of
// epsilon, delta rows) or an f-DP trade-off curve (tradeoff: a table of alpha, beta
// points). Pair turns the job's framework into the dp.Pair every stage uses.

// SetGDPMu records μ of μ-GDP (it has no default).
func (j *Job) SetGDPMu(mu float64) { j.GDPMu, j.gdpSet = mu, true }

// UsePair makes p the job's pair, whatever its keys say: verify and report audit a
// mechanism under the framework its metadata states (Job.MechanismPrivacy).
func (j *Job) UsePair(p dp.Pair) { j.pair = &p }

// GDPMuSet reports whether μ was given.
func (j *Job) GDPMuSet() bool { return j.gdpSet }

// frameworkKeys are the config keys of the frameworks the job gives (epsilon also
// when only delta is given).
func (j *Job) frameworkKeys() []string {
	var keys []string
	if j.epsilonSet || (j.deltaSet && j.Delta != 0) {
		keys = append(keys, "epsilon")
	}
	if j.gdpSet {
		keys = append(keys, "gdp_mu")
	}
	if j.PrivacyProfile != "" {
		keys = append(keys, "privacy_profile")
	}
	if j.Tradeoff != "" {
		keys = append(keys, "tradeoff")
	}
	return keys
}

// Framework is the job's privacy framework (EpsilonDelta when none is given).
func (j *Job) Framework() dp.Framework {
	switch {
	case j.pair != nil:
		return j.pair.Framework()
	case j.gdpSet:
		return dp.GaussianDP
	case j.PrivacyProfile != "":
		return dp.Profile
	case j.Tradeoff != "":
		return dp.Tradeoff
	}
	return dp.EpsilonDelta
}

// frameworkProblems judges the privacy keys: exactly one framework (when need is
// set, at least one), and its parameters in range.
func (j *Job) frameworkProblems(need bool) []string {
	var probs []string
	add := func(f string, a ...any) { probs = append(probs, fmt.Sprintf(f, a...)) }
	keys := j.frameworkKeys()
	switch {
	case len(keys) > 1:
		add("%s: exactly one privacy framework per job (epsilon/delta, gdp_mu, privacy_profile or tradeoff); drop all but one", strings.Join(keys, ", "))
	case len(keys) == 0 && need:
		add("epsilon: required (a number ≥ 0), or another privacy framework: gdp_mu, privacy_profile or tradeoff")
	}
	if j.epsilonSet {
		if math.IsNaN(j.Epsilon) || math.IsInf(j.Epsilon, 0) || j.Epsilon < 0 {
			add("epsilon: must be a finite number ≥ 0, got %v", j.Epsilon)
		} else if j.Epsilon >= dp.MaxEpsilon {
			// Not math.Exp(ε) == +Inf: on amd64 math.Exp overflows from about 709.44,
			// below the true limit, which dp.New encloses exactly (issue 24, defect 9).
			add("epsilon: must be below %.10g (e^ε overflows float64; any ε that large allows every mechanism), got %v", float64(dp.MaxEpsilon), j.Epsilon)
		}
	}
	if math.IsNaN(j.Delta) || j.Delta < 0 || j.Delta >= 1 {
		add("delta: must be in [0, 1), got %v", j.Delta)
	}
	if j.gdpSet && (math.IsNaN(j.GDPMu) || j.GDPMu < 0 || j.GDPMu > dp.MaxMu) {
		add("gdp_mu: must be a number in [0, %v], got %v", dp.MaxMu, j.GDPMu)
	}
	return probs
}

// Pair is the job's suitable pair: (ε,δ) from epsilon and delta, μ-GDP from gdp_mu,
// or a profile or curve read from its table (CSV or Parquet), judged by package dp; a
// bad row is an *ingest.InputError naming the file, row and column.
func (j *Job) Pair(ctx context.Context) (dp.Pair, error) {
	if j.pair != nil {
		return *j.pair, nil
	}
	switch j.Framework() {
	case dp.GaussianDP:
		p, err := dp.NewGDP(j.GDPMu)
		if err != nil {
			return dp.Pair{}, &ConfigError{Source: "job", Problems: []string{err.Error()}}
		}
		return p, nil
	case dp.Profile:
		t, err := ingest.ReadNumberColumns(ctx, j.PrivacyProfile, "epsilon", "delta")
		if err != nil {
			return dp.Pair{}, err
		}
		p, err := dp.NewProfile(t.A, t.B)
		return p, tableError(j.PrivacyProfile, err)
	case dp.Tradeoff:
		t, err := ingest.ReadNumberColumns(ctx, j.Tradeoff, "alpha", "beta")
		if err != nil {
			return dp.Pair{}, err
		}
		p, err := dp.NewTradeoff(t.A, t.B)
		return p, tableError(j.Tradeoff, err)
	}
	p, err := dp.New(j.Epsilon, j.Delta)
	if err != nil {
		return dp.Pair{}, &ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	return p, nil
}

// tableError turns dp's verdict on a profile or curve into an input error of file.
func tableError(file string, err error) error {
	if err == nil {
		return nil
	}
	var re *dp.RowError
	if errors.As(err, &re) {
		v := ""
		if re.Column != "" {
			v = strconv.FormatFloat(re.Value, 'g', -1, 64)
		}
		return ingest.RowError(file, int64(re.Row-1), re.Column, v, re.Msg)
	}
	return ingest.RowError(file, -1, "", "", err.Error())
}

// frameworkMetadata is the output metadata that states a pair's framework and its
// parameters: graphdp.framework always; graphdp.epsilon and graphdp.delta for
// (ε,δ); graphdp.gdp_mu for μ-GDP; graphdp.privacy_profile ("ε:δ" pairs joined by
// ";") or graphdp.tradeoff ("α:β" points joined by ";") for the tables, so that the
// mechanism alone says what it guarantees.
func frameworkMetadata(p dp.Pair) map[string]string {
	m := map[string]string{"graphdp.framework": string(p.Framework())}
	switch p.Framework() {
	case dp.EpsilonDelta:
		m["graphdp.epsilon"], m["graphdp.delta"] = words.Num(p.Epsilon), words.Num(p.Delta)
	case dp.GaussianDP:
		m["graphdp.gdp_mu"] = words.Num(p.Mu())
	case dp.Profile:
		m["graphdp.privacy_profile"] = joinPairs(p.Profile())
	case dp.Tradeoff:
		m["graphdp.tradeoff"] = joinPairs(p.Tradeoff())
	}
	return m
}

func joinPairs(a, b []float64) string {
	parts := make([]string, len(a))
	for i := range a {
		parts[i] = words.Num(a[i]) + ":" + words.Num(b[i])
	}
	return strings.Join(parts, ";")
}

// pairFromMetadata is the pair a mechanism's metadata states (frameworkMetadata),
// ok = false when it states no framework other than (ε,δ) (whose keys the privacy
// statement reads, privacy.go).
func pairFromMetadata(meta map[string]string) (p dp.Pair, ok bool, err error) {
	fw := dp.Framework(meta["graphdp.framework"])
	parse := func(key string) ([]float64, []float64, error) {
		var a, b []float64
		for part := range strings.SplitSeq(meta[key], ";") {
			x, y, found := strings.Cut(part, ":")
			fx, err1 := strconv.ParseFloat(x, 64)
			fy, err2 := strconv.ParseFloat(y, 64)
			if !found || err1 != nil || err2 != nil {
				return nil, nil, fmt.Errorf("metadata %s: %q is not a list of a:b pairs", key, meta[key])
			}
			a, b = append(a, fx), append(b, fy)
		}
		return a, b, nil
	}
	switch fw {
	case "", dp.EpsilonDelta:
		return dp.Pair{}, false, nil
	case dp.GaussianDP:
		mu, err := strconv.ParseFloat(meta["graphdp.gdp_mu"], 64)
		if err != nil {
			return dp.Pair{}, false, fmt.Errorf("metadata graphdp.gdp_mu: %q is not a number", meta["graphdp.gdp_mu"])
		}
		p, err = dp.NewGDP(mu)
		return p, err == nil, err
	case dp.Profile:
		a, b, err := parse("graphdp.privacy_profile")
		if err != nil {
			return dp.Pair{}, false, err
		}
		p, err = dp.NewProfile(a, b)
		return p, err == nil, err
	case dp.Tradeoff:
		a, b, err := parse("graphdp.tradeoff")
		if err != nil {
			return dp.Pair{}, false, err
		}
		p, err = dp.NewTradeoff(a, b)
		return p, err == nil, err
	}
	return dp.Pair{}, false, fmt.Errorf("metadata graphdp.framework: %q is not a framework graphdp knows", fw)
}
