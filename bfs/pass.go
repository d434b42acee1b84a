package bfs

import (
	"math"

	"github.com/graphdp/graphdp/dp"
)

// Pass is the view of the problem for one output j (docs/DESIGN.md §2.2): the engines
// run one pass per output. Pass j's values are probabilities Pr[M = j], so that
// smaller is more constraining and Step = U is a superior function (non-decreasing,
// Step(v) ≥ v; Knuth, docs/DESIGN.md §4.2) for both passes alike: every framework's
// condition is the same under exchanging the outputs. Top = 1 constrains nothing.
// Pass 0 computes on Pr[M = 0] itself, never on 1 − p_one, so both answers keep the
// same relative precision in the tails (docs/DESIGN.md §8.3). A Pass is a value and
// may be shared between goroutines (the scratch for value histories lives in each
// Stepper).
type Pass struct {
	one  bool
	pair dp.Pair
}

// NewPass is the pass of output one (true: bounds on Pr[M = 1]) under pair.
func NewPass(pair dp.Pair, one bool) Pass { return Pass{one, pair} }

// Step is the bound one hop further: U, rounded down (dp, invariant 1).
func (p Pass) Step(v float64) float64 { return p.pair.Upper(v) }

// Top is the pass value that constrains nothing.
func (p Pass) Top() float64 { return 1 }

// A hitting-set value is a hitting-set vertex's p_true with the sign of its answer:
// +p_true for answer 1, −p_true (−0 included) for answer 0. One float64 carries both
// through the engines, the repair and a cluster runner's shards.

// HitValue is the hitting-set value of a vertex with this answer and p_true.
func HitValue(answer bool, ptrue float64) float64 {
	if answer {
		return ptrue
	}
	return math.Copysign(ptrue, -1)
}

// HitPTrue is a hitting-set value's answer and p_true.
func HitPTrue(hv float64) (answer bool, ptrue float64) {
	return !math.Signbit(hv), math.Abs(hv)
}

// Seed is hitting-set value hv as a value of this pass: p_true on the pass of its own
// answer, else the real 1 − p_true rounded down (exact unless p_true < ½ has bits
// below 2^−53; rounding down keeps every bound it imposes on the safe side).
func (p Pass) Seed(hv float64) float64 {
	answer, pt := HitPTrue(hv)
	if answer == p.one {
		return pt
	}
	s, _ := dp.OneMinus(pt, false)
	return s
}

// The rules for one hitting-set vertex in one pass, given its hitting-set value hv
// and the pass's converged field g there: Violations and Solve apply them over a
// whole instance, a cluster runner's shards over theirs.

// Beyond is the feasibility rule (Violations): g lies more than tol below the vertex's
// own value (Violations: Tolerance; a failed repair: 0).
func (p Pass) Beyond(hv, g, tol float64) bool { return g < p.Seed(hv)-tol }

// Violation describes hitting-set vertex h, with hitting-set value hv, beyond its
// bound, from its candidate (its field value, binding vertex, distance and the binding
// vertex's value A).
func (p Pass) Violation(h int32, hv float64, cand Cand) Violation {
	return Violation{Output: p.one, H: h, By: cand.Bind, Dist: cand.Dist,
		Given: p.Seed(hv), ByValue: cand.A, Bound: cand.Value}
}

// Repaired is Solve's repair of one hitting-set value hv whose field is g: when its
// value lies above the bound g, the hitting-set value that puts it on the bound
// (Pr[M = j] = g: p_true = g on its own answer's pass, else the smallest p_true with
// 1 − p_true ≤ g), with ok; else hv.
func (p Pass) Repaired(hv, g float64) (v float64, ok bool) {
	if g >= p.Seed(hv) {
		return hv, false
	}
	answer, _ := HitPTrue(hv)
	if answer == p.one {
		return HitValue(answer, g), true
	}
	pt, _ := dp.OneMinus(g, true)
	return HitValue(answer, pt), true
}
