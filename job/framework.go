package job

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/words"
)

// A job states its privacy in exactly one framework (docs/DESIGN.md §11): (ε,δ)-DP
// (epsilon, delta), the default, or one of dp.Others — μ-GDP (gdp_mu), a privacy
// profile (privacy_profile: a table of epsilon, delta rows), an f-DP trade-off curve
// (tradeoff: a table of alpha, beta points), … — each stated by its parameters'
// keys (dp.Spec.Params), which the job holds by key: a number's value, a table's
// spec. Pair turns the job's framework into the dp.Pair every stage uses.

// SetParam records the number parameter key of another framework than (ε,δ)
// (dp.Param; gdp_mu's μ), which has no default.
func (j *Job) SetParam(key string, x float64) {
	j.nums = maps.Clone(j.nums) // a Job is copied by value: never write a shared map
	if j.nums == nil {
		j.nums = map[string]float64{}
	}
	j.nums[key] = x
}

// Param is the number parameter key, ok = false when it was not given.
func (j *Job) Param(key string) (x float64, ok bool) {
	x, ok = j.nums[key]
	return x, ok
}

// SetTable records the table parameter key of another framework than (ε,δ)
// (privacy_profile, tradeoff): its spec, a file; "" unsets it.
func (j *Job) SetTable(key, spec string) {
	j.tables = maps.Clone(j.tables)
	if j.tables == nil {
		j.tables = map[string]string{}
	}
	j.tables[key] = spec
}

// Table is the table parameter key's spec, "" when none was given.
func (j *Job) Table(key string) string { return j.tables[key] }

// gave reports whether the job gives the parameter pa.
func (j *Job) gave(pa dp.Param) bool {
	if pa.Table() {
		return j.Table(pa.Key) != ""
	}
	_, ok := j.Param(pa.Key)
	return ok
}

// UsePair makes p the job's pair, whatever its keys say: verify and report audit a
// mechanism under the framework its metadata states (Job.MechanismPrivacy).
func (j *Job) UsePair(p dp.Pair) { j.pair = &p }

// frameworkKeys are the config keys of the frameworks the job gives (epsilon also
// when only delta is given).
func (j *Job) frameworkKeys() []string {
	var keys []string
	if j.epsilonSet || (j.deltaSet && j.Delta != 0) {
		keys = append(keys, "epsilon")
	}
	for _, s := range dp.Others() {
		for _, pa := range s.Params {
			if j.gave(pa) {
				keys = append(keys, pa.Key)
			}
		}
	}
	return keys
}

// stated is the framework other than (ε,δ) the job gives a parameter of, nil if
// none (the first in dp.Others' order).
func (j *Job) stated() *dp.Spec {
	for _, s := range dp.Others() {
		for _, pa := range s.Params {
			if j.gave(pa) {
				return s
			}
		}
	}
	return nil
}

// Framework is the job's privacy framework (EpsilonDelta when none is given).
func (j *Job) Framework() dp.Framework {
	if j.pair != nil {
		return j.pair.Framework()
	}
	if s := j.stated(); s != nil {
		return s.Name
	}
	return dp.EpsilonDelta
}

// frameworkProblems judges the privacy keys: exactly one framework (when need is
// set, at least one), and its parameters in range.
func (j *Job) frameworkProblems(need bool) []string {
	var probs []string
	add := func(f string, a ...any) { probs = append(probs, fmt.Sprintf(f, a...)) }
	var all, others []string // the frameworks by their keys: epsilon/delta, gdp_mu, …
	for i, s := range dp.Frameworks() {
		all = append(all, strings.Join(s.Keys(), "/"))
		if i > 0 {
			others = append(others, all[i])
		}
	}
	keys := j.frameworkKeys()
	switch {
	case len(keys) > 1:
		add("%s: exactly one privacy framework per job (%s); drop all but one", strings.Join(keys, ", "), words.Or(all))
	case len(keys) == 0 && need:
		add("epsilon: required (a number ≥ 0), or another privacy framework: %s", words.Or(others))
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
	for _, s := range dp.Others() {
		for _, pa := range s.Params {
			if x, ok := j.Param(pa.Key); ok && !pa.Table() && pa.Check != nil {
				if msg := pa.Check(x); msg != "" {
					add("%s: %s", pa.Key, msg)
				}
			}
		}
	}
	return probs
}

// Pair is the job's suitable pair: (ε,δ) from epsilon and delta, or its other
// framework's (dp.Spec.Make) from its numbers and its tables (CSV or Parquet, read
// here), judged by package dp; a table's bad row is an *ingest.InputError naming
// the file, row and column (the framework's first table's, if it has several).
func (j *Job) Pair(ctx context.Context) (dp.Pair, error) {
	if j.pair != nil {
		return *j.pair, nil
	}
	s := j.stated()
	if s == nil {
		p, err := dp.New(j.Epsilon, j.Delta)
		if err != nil {
			return dp.Pair{}, &ConfigError{Source: "job", Problems: []string{err.Error()}}
		}
		return p, nil
	}
	v := dp.Values{Nums: map[string]float64{}, Tables: map[string][2][]float64{}}
	table := ""
	for _, pa := range s.Params {
		if !pa.Table() {
			v.Nums[pa.Key], _ = j.Param(pa.Key)
			continue
		}
		file := j.Table(pa.Key)
		t, err := ingest.ReadNumberColumns(ctx, file, pa.Columns[0], pa.Columns[1])
		if err != nil {
			return dp.Pair{}, err
		}
		v.Tables[pa.Key] = [2][]float64{t.A, t.B}
		if table == "" {
			table = file
		}
	}
	p, err := s.Make(v)
	if err != nil && table == "" {
		return dp.Pair{}, &ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	return p, tableError(table, err)
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
