package job

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
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
			// below the true limit, which dp.New encloses exactly (dp.MaxEpsilon).
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

// pairFromMetadata is the pair a mechanism's metadata states (dp.Pair's
// statement), ok = false when it states no framework other than (ε,δ) (whose keys
// ResolvePrivacy reads, with its own messages).
func pairFromMetadata(meta map[string]string) (p dp.Pair, ok bool, err error) {
	switch dp.Framework(meta["graphdp.framework"]) {
	case "", dp.EpsilonDelta:
		return dp.Pair{}, false, nil
	}
	p, err = dp.ParseStatement(meta)
	return p, err == nil, err
}
