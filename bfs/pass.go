package bfs

import "github.com/graphdp/graphdp/dp"

// Pass is the view of the problem for one output j (docs/DESIGN.md §2.2): the engines
// run one pass per output. Values are kept so that smaller is more constraining and
// Step is a superior function (non-decreasing, Step(v) ≥ v; Knuth, docs/DESIGN.md
// §4.2). Pass 1 bounds Pr[M = 1] from above: v = p_one, Step = U, Top = 1. Pass 0
// bounds Pr[M = 0] from above, i.e. p_one from below: v = −p_one, Step(v) = −L(−v),
// Top = 0. A value at Top constrains nothing. A Pass is a value and may be shared
// between goroutines (the scratch for value histories lives in each Stepper).
type Pass struct {
	one  bool
	pair dp.Pair
}

// NewPass is the pass of output one (true: bounds on Pr[M = 1]) under pair.
func NewPass(pair dp.Pair, one bool) Pass { return Pass{one, pair} }

// Step is the bound one hop further (U, or −L(−v) for pass 0).
func (p Pass) Step(v float64) float64 {
	if p.one {
		return p.pair.Upper(v)
	}
	return -p.pair.Lower(-v)
}

// Top is the pass value that constrains nothing.
func (p Pass) Top() float64 {
	if p.one {
		return 1
	}
	return 0
}

// Value maps a p_one into the pass's values and back (the map is its own inverse).
func (p Pass) Value(pone float64) float64 {
	if p.one {
		return pone
	}
	return -pone
}

// Prob is the probability of the pass's output for a pass value: Pr[M = 1] or Pr[M = 0].
func (p Pass) Prob(v float64) float64 {
	if p.one {
		return v
	}
	return 1 + v
}

// The rules for one hitting-set vertex in one pass, given its value pone (p_one) and
// the pass's converged field g there: Violations and Solve apply them over a whole
// instance, a cluster runner's shards over theirs.

// Beyond is the feasibility rule (Violations): g lies more than tol below the vertex's
// own value (Violations: Tolerance; a failed repair: 0).
func (p Pass) Beyond(pone, g, tol float64) bool { return g < p.Value(pone)-tol }

// Violation describes hitting-set vertex h, with value pone, beyond its bound, from
// its candidate (its field value, binding vertex, distance and the binding vertex's
// value A).
func (p Pass) Violation(h int32, pone float64, cand Cand) Violation {
	return Violation{Output: p.one, H: h, By: cand.Bind, Dist: cand.Dist,
		Given: p.Prob(p.Value(pone)), ByValue: p.Prob(cand.A), Bound: p.Prob(cand.Value)}
}

// Repaired is Solve's repair of one hitting-set value pone whose field is g: the bound
// (as a p_one) when the value lies above it, with ok; else pone.
func (p Pass) Repaired(pone, g float64) (v float64, ok bool) {
	if g < p.Value(pone) {
		return p.Value(g), true
	}
	return pone, false
}
