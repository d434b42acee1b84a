package dp

import (
	"fmt"
	"math"
)

// The registry: each privacy framework is one Spec, registered by name in specs.
// What the layers above dp need to know of a framework is here — its parameters
// (the config keys and flags a job states it with), how its pair is made from
// them, its statement (statement.go encodes and parses every framework through
// its Spec), its LP lines for optimize and its charge to an (ε, δ) ledger — so the
// job, the command line, optimize and release iterate over Frameworks() instead
// of switching on Framework. Adding a framework is a type implementing bounds
// (suitable.go), its constructor and one Spec in specs (docs/ARCHITECTURE.md,
// "A new privacy framework").

// Param is one parameter of a framework as a job states it. Its config key is
// Key, its flag Flag, and its statement key "graphdp." + Key. A parameter is a
// number, or, when Columns is set, a table (CSV or Parquet) of two number columns.
type Param struct {
	Key, Flag string
	// Usage is the flag's help text (flag's `NAME` convention).
	Usage string
	// Columns are a table's two columns, in the order the pair takes them.
	Columns [2]string
	// Check judges a number before any pair is made: "" when it is usable, else
	// what is wrong, as "must be …, got …" (the job prefixes the key).
	Check func(x float64) string
}

// Table reports whether the parameter is a table (else a number).
func (p Param) Table() bool { return p.Columns[0] != "" }

// Values are a framework's parameters by key: a number's value, a table's columns.
type Values struct {
	Nums   map[string]float64
	Tables map[string][2][]float64
}

// Line is one line c·a + d above U* (or, for a chord, below it) of optimize's LP
// (optimize/lines.go): C is the slope rounded to nearest, D the intercept the solve
// uses; the certificate's slope lies in [CLo, CHi] and its intercept is at most DUp.
// Scale says whether the LP scales the row by 1/max(1, C).
type Line struct {
	C, D, CLo, CHi, DUp float64
	Scale               bool
}

// Spec is a privacy framework: everything the layers above dp know of it.
type Spec struct {
	Name Framework
	// Words is the framework as a phrase in messages ("a trade-off curve").
	Words string
	// Params are its parameters, in the order statements and messages list them.
	Params []Param
	// Make is the pair the parameters state, checked as the constructor checks it
	// (a table's bad row is a *RowError).
	Make func(v Values) (Pair, error)
	// Values are the parameters of a pair of this framework (Make's inverse).
	Values func(p Pair) Values
	// Lines are optimize's lines when U* is exactly their minimum (with x ≤ 1).
	// Nil, or none returned: optimize uses chords of U* with certificate tangents
	// when Tangent is set, else refuses the framework.
	Lines func(p Pair) ([]Line, error)
	// Tangent bounds above the intercept of the tangent to U* of slope c.
	Tangent func(p Pair, c float64) (float64, error)
	// Charge is the (ε, δ) a release under p is charged to an (ε, δ) ledger (docs/
	// LEDGER.md, "Other frameworks"): a true (ε, δ) guarantee of the mechanism,
	// chosen against what budget leaves. Nil: the ledger has no rule, and NoCharge
	// says so (after "the ledger has no rule to charge …").
	Charge   func(p Pair, b Budget) (epsilon, delta float64, err error)
	NoCharge string
}

// Budget is what an (ε, δ) ledger leaves the datasets a release draws: Fits
// reports whether one more (ε, δ) release keeps every one of them within the
// budget; Epsilon and Delta are the most-spent dataset's basic-composition
// remainders (both ≥ 0).
type Budget struct {
	Fits           func(epsilon, delta float64) bool
	Epsilon, Delta float64
}

// specs is the registry, in the order messages list the frameworks; (ε,δ) first.
var specs = []*Spec{epsDeltaSpec, gdpSpec, profileSpec, tradeoffSpec}

// Frameworks are the registered frameworks, (ε,δ) first.
func Frameworks() []*Spec { return specs }

// Lookup is the framework named name, nil if none is.
func Lookup(name Framework) *Spec {
	for _, s := range specs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Spec is p's framework.
func (p Pair) Spec() *Spec { return Lookup(p.Framework()) }

// Keys are the spec's config keys, in order.
func (s *Spec) Keys() []string {
	keys := make([]string, len(s.Params))
	for i, pa := range s.Params {
		keys[i] = pa.Key
	}
	return keys
}

// Others are the frameworks beside (ε,δ), the default one, whose keys the job
// holds itself.
func Others() []*Spec { return specs[1:] }

// OtherKeys are the config keys of Others, in order.
func OtherKeys() []string {
	var keys []string
	for _, s := range Others() {
		keys = append(keys, s.Keys()...)
	}
	return keys
}

var epsDeltaSpec = &Spec{
	Name:  EpsilonDelta,
	Words: "(ε,δ)-DP",
	Params: []Param{
		{Key: "epsilon", Flag: "epsilon"},
		{Key: "delta", Flag: "delta"},
	},
	Make: func(v Values) (Pair, error) { return New(v.Nums["epsilon"], v.Nums["delta"]) },
	Values: func(p Pair) Values {
		return Values{Nums: map[string]float64{"epsilon": p.Epsilon, "delta": p.Delta}}
	},
	Lines: func(p Pair) ([]Line, error) {
		lo, hi := p.EBounds()
		return []Line{{C: p.E(), D: p.Delta, CLo: lo, CHi: hi, DUp: p.Delta}}, nil
	},
	Charge: func(p Pair, _ Budget) (float64, float64, error) { return p.Epsilon, p.Delta, nil },
}

var gdpSpec = &Spec{
	Name:  GaussianDP,
	Words: "μ-GDP",
	Params: []Param{{Key: "gdp_mu", Flag: "gdp-mu", Usage: "μ-Gaussian DP instead of (ε,δ): `μ` in [0, 100]",
		Check: func(mu float64) string {
			if math.IsNaN(mu) || mu < 0 || mu > MaxMu {
				return fmt.Sprintf("must be a number in [0, %v], got %v", MaxMu, mu)
			}
			return ""
		}}},
	Make:   func(v Values) (Pair, error) { return NewGDP(v.Nums["gdp_mu"]) },
	Values: func(p Pair) Values { return Values{Nums: map[string]float64{"gdp_mu": p.Mu()}} },
	Lines: func(p Pair) ([]Line, error) {
		if p.Mu() == 0 { // U*(a) = a
			return []Line{{C: 1, CLo: 1, CHi: 1, Scale: true}}, nil
		}
		return nil, nil // chords
	},
	Tangent: func(p Pair, c float64) (float64, error) { return GDPTangent(p.Mu(), c) },
	Charge:  gdpCharge,
}

var profileSpec = &Spec{
	Name:  Profile,
	Words: "a privacy profile",
	Params: []Param{{Key: "privacy_profile", Flag: "privacy-profile", Columns: [2]string{"epsilon", "delta"},
		Usage: "a privacy profile instead of (ε,δ): `FILE` (.csv or .parquet) with columns epsilon, delta, one (ε,δ) pair per row, all of which must hold"}},
	Make: func(v Values) (Pair, error) {
		t := v.Tables["privacy_profile"]
		return NewProfile(t[0], t[1])
	},
	Values: func(p Pair) Values {
		e, d := p.Profile()
		return Values{Tables: map[string][2][]float64{"privacy_profile": {e, d}}}
	},
	Lines:  profileLines,
	Charge: profileCharge,
}

var tradeoffSpec = &Spec{
	Name:  Tradeoff,
	Words: "a trade-off curve",
	Params: []Param{{Key: "tradeoff", Flag: "tradeoff", Columns: [2]string{"alpha", "beta"},
		Usage: "f-DP for a trade-off curve instead of (ε,δ): `FILE` (.csv or .parquet) with columns alpha, beta, the points of a convex piecewise-linear curve from alpha 0 to 1"}},
	Make: func(v Values) (Pair, error) {
		t := v.Tables["tradeoff"]
		return NewTradeoff(t[0], t[1])
	},
	Values: func(p Pair) Values {
		a, b := p.Tradeoff()
		return Values{Tables: map[string][2][]float64{"tradeoff": {a, b}}}
	},
	Lines: func(p Pair) ([]Line, error) { return tradeoffLines(p.Tradeoff()) },
	NoCharge: "a trade-off curve to an (ε, δ) budget yet; release it without --ledger (its metadata states the curve), " +
		"or build it under --privacy-profile with the (ε, δ) pairs the curve guarantees",
}
