package bfs

import (
	"math"

	"github.com/graphdp/graphdp/dp"
)

// Pass is the view of the problem for one output j (docs/DESIGN.md §2.2): the engines
// run one pass per output. A pass value stands for an upper bound on Pr[M = j]; values
// are ordered so that smaller is more constraining, and Step, the bound one hop
// further, is a superior function (non-decreasing, Step(v) ≥ v; Knuth,
// docs/DESIGN.md §4.2). Every framework's condition is the same under exchanging the
// outputs, so both passes step by U* (docs/DESIGN.md §8.3):
//
//   - Pass 1's values are p_one itself, stepped by U (rounded down); Top = 1. Answer-1
//     datasets take their p_one from it, exact where it is small.
//   - Pass 0's values hold Pr[M = 0] = q exactly on both sides of ½: q itself for
//     q ≤ ½, and for q > ½ its complement z = 1 − q (a p_one below ½), encoded as a
//     float64 above 2 that grows as z falls (key). Below ½ a step is U rounded down;
//     a step that crosses ½ gives z = RU(1 − U*(q)) (dp.Pair.AcrossLower); above it,
//     z steps by L rounded up, since 1 − U*(1 − z) = L*(z). Answer-0 datasets take
//     their value from it, exact in both tails; Top is z = 0.
//
// A Pass is a value and may be shared between goroutines (the scratch for value
// histories lives in each Stepper).
type Pass struct {
	one  bool
	pair dp.Pair
}

// NewPass is the pass of output one (true: bounds on Pr[M = 1]) under pair.
func NewPass(pair dp.Pair, one bool) Pass { return Pass{one, pair} }

// keyBase is the bit pattern from which pass 0's complement keys count down: key(z)
// = float64frombits(keyBase − bits(z)) lies in (2, 2^1023] for z in [0, ½), ordered
// against z's inverse, and above every q ≤ ½.
const keyBase = 0x7FE0000000000000

// key is pass 0's value for a complement z = 1 − q < ½, and complement its inverse.
func key(z float64) float64        { return math.Float64frombits(keyBase - math.Float64bits(max(z, 0))) } // +0, never −0
func complement(k float64) float64 { return math.Float64frombits(keyBase - math.Float64bits(k)) }

// Step is the bound one hop further.
func (p Pass) Step(v float64) float64 {
	switch {
	case p.one:
		return p.pair.Upper(v)
	case v > 0.5:
		return key(p.pair.Lower(complement(v)))
	}
	if u := p.pair.Upper(v); u <= 0.5 {
		return u
	}
	return key(p.pair.AcrossLower(v))
}

// Top is the pass value that constrains nothing.
func (p Pass) Top() float64 {
	if p.one {
		return 1
	}
	return key(0)
}

// Prob is the probability Pr[M = j] that pass value v stands for, rounded to nearest
// where it is not exact: for reports and Tolerance, never for a bound.
func (p Pass) Prob(v float64) float64 {
	if p.one || v <= 0.5 {
		return v
	}
	return 1 - complement(v)
}

// Seed is the pass value of a hitting-set vertex whose exact value (dp.ExactOfPTrue:
// p_one, or −p_true for a tail) is hv: exact in pass 0 whatever hv is; in pass 1 a
// tail's real 1 − p_true rounded down, which keeps the bounds it imposes on the safe
// side (the audit decides the tail's own edges exactly, docs/DESIGN.md §8.3).
func (p Pass) Seed(hv float64) float64 {
	if p.one {
		if dp.Tail(hv) {
			s, _ := dp.OneMinus(-hv, false)
			return s
		}
		return hv
	}
	switch {
	case dp.Tail(hv):
		return -hv // q < ½
	case hv >= 0.5:
		return 1 - hv // exact (Sterbenz), ≤ ½
	}
	return key(hv)
}

// value is the exact value that puts a hitting-set vertex with this answer and exact
// value hv on its bound, pass value g (a repair), on the safe side of it and such that
// the vertex's p_true is a float64, so that the repaired values can be given back as
// a hitting set (optimize does): pass 1 bounds p_one by g, pass 0 bounds Pr[M = 0] by
// q = g (≤ ½) or 1 − z (g encodes z).
func (p Pass) value(answer bool, hv, g float64) float64 {
	switch {
	case answer && (p.one || g > 0.5): // p_true = p_one
		if p.one {
			return g
		}
		return complement(g)
	case p.one: // p_one ≤ g: p_true ≥ 1 − g
		pt, _ := dp.OneMinus(g, true)
		return dp.ExactOfPTrue(false, pt)
	case g > 0.5: // p_one ≥ z: p_true ≤ 1 − z
		pt, _ := dp.OneMinus(complement(g), false)
		return dp.ExactOfPTrue(false, pt)
	case !answer: // p_true = q itself
		return dp.ExactOfPTrue(false, g)
	}
	pone, _ := dp.OneMinus(g, true) // answer 1, Pr[M = 0] ≤ q: p_one ≥ 1 − q
	return pone
}

// The rules for one hitting-set vertex in one pass, given its exact value hv and the
// pass's converged field g there: Violations and Solve apply them over a whole
// instance, a cluster runner's shards over theirs.

// Beyond is the feasibility rule (Violations): g lies more than tol below the vertex's
// own value (Violations: Tolerance; a failed repair: 0, decided on the values exactly).
func (p Pass) Beyond(hv, g, tol float64) bool {
	s := p.Seed(hv)
	if tol == 0 {
		return g < s
	}
	return p.Prob(g) < p.Prob(s)-tol
}

// Violation describes hitting-set vertex h, with exact value hv, beyond its bound,
// from its candidate (its field value, binding vertex, distance and the binding
// vertex's value A), in probabilities.
func (p Pass) Violation(h int32, hv float64, cand Cand) Violation {
	return Violation{Output: p.one, H: h, By: cand.Bind, Dist: cand.Dist,
		Given: p.Prob(p.Seed(hv)), ByValue: p.Prob(cand.A), Bound: p.Prob(cand.Value)}
}

// TailViolation is the rule for a hitting-set tail (dp.Tail: an answer-0 vertex h
// with exact value hv = −p_true whose 1 − p_true is no float64) on each of its edges,
// in pass 1, which can seed it only rounded down: next to neighbour u with exact value
// av the edge must hold exactly (dp.Pair.AllowedExact), which the pass's float64
// fixed point cannot promise within an ulp. A neighbour that does not allow it is a
// violation of output 1 (ok false: none). It names h alone (By = H, Dist 0): u need
// not be in the hitting set, and its value, which depends on the answers, is private
// (docs/FORMATS.md, "Private and shareable outputs").
func (p Pass) TailViolation(h int32, hv float64, u int32, av float64) (Violation, bool) {
	if !p.one || !dp.Tail(hv) || p.pair.AllowedExact(hv, av) {
		return Violation{}, false
	}
	given := dp.ExactProb(hv, true)
	return Violation{Output: true, H: h, By: h, Dist: 0, Given: given, ByValue: given, Bound: given}, true
}

// Repaired is Solve's repair of one hitting-set vertex with this answer and exact value
// hv whose field is g: when its value lies above the bound g, the exact value that
// puts it on the bound (value), with ok; else hv.
func (p Pass) Repaired(answer bool, hv, g float64) (v float64, ok bool) {
	if g >= p.Seed(hv) {
		return hv, false
	}
	return p.value(answer, hv, g), true
}

// Output is the mechanism at a vertex with this answer whose passes' values are g0
// and g1 (doc.go, invariant 7): the exact value of its own answer's pass (on the
// hitting set, its exact value as solved), written as p_one and p_true
// (dp.ExactColumns). Solve, Query and a cluster runner's shards all assemble with it,
// so a query returns what Solve writes (doc.go, invariant 6).
func Output(answer bool, g0, g1 float64) (pone, ptrue float64) {
	return dp.ExactColumns(answer, OutputExact(answer, g0, g1))
}

// OutputExact is Output's exact value (dp.ExactOfPTrue), for the audit.
func OutputExact(answer bool, g0, g1 float64) float64 {
	switch {
	case answer:
		return g1
	case g0 > 0.5:
		return complement(g0) // z: p_one
	}
	return dp.ExactOfPTrue(false, g0)
}

// Move is how far a repair moved a hitting-set vertex with this answer and given
// p_true, whose exact value as solved is hv: in p_true.
func Move(answer bool, given, hv float64) float64 {
	_, pt := dp.ExactColumns(answer, hv)
	return math.Abs(pt - given)
}
