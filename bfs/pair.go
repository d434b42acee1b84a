package bfs

import (
	"fmt"
	"math"
)

// Pair is a suitable pair (L, U) of the paper (docs/DESIGN.md §2.1–2.2) on
// p_one = Pr[M = 1]: if a vertex has p_one = a, a neighbour's p_one must lie in
// [Lower(a), Upper(a)]. Upper must be non-decreasing with Upper(a) ≥ a, Lower
// non-decreasing with Lower(a) ≤ a (in exact arithmetic U(a) = 1 − L(1 − a)); Excess
// is the audit of one edge.
type Pair interface {
	Upper(a float64) float64
	Lower(a float64) float64
	// Excess is how far the probabilities pu, pv that two neighbours give the same
	// output are from being allowed: ≤ 0 when allowed, the largest violation otherwise.
	Excess(pu, pv float64) float64
}

// DP is the (ε,δ)-differential-privacy pair, the one the CLI exposes.
type DP struct {
	Epsilon, Delta float64
	e              float64 // e^ε
	k              float64 // e^ε + δ − 1, the numerator constant of U's second branch
}

// NewDP validates ε ≥ 0 and 0 ≤ δ < 1.
func NewDP(epsilon, delta float64) (DP, error) {
	if math.IsNaN(epsilon) || epsilon < 0 || math.IsInf(epsilon, 0) {
		return DP{}, fmt.Errorf("epsilon must be a finite number ≥ 0, got %v", epsilon)
	}
	if math.IsNaN(delta) || delta < 0 || delta >= 1 {
		return DP{}, fmt.Errorf("delta must be in [0, 1), got %v", delta)
	}
	e := math.Exp(epsilon)
	return DP{Epsilon: epsilon, Delta: delta, e: e, k: e + delta - 1}, nil
}

// E is e^ε as the engines and the audit use it.
func (p DP) E() float64 { return p.e }

// upperFormula is U(a) = min(e^ε·a + δ, (e^ε + δ − 1 + a)/e^ε, 1) in plain float64.
func (p DP) upperFormula(a float64) float64 {
	return min(float64(p.e*a)+p.Delta, (p.k+a)/p.e, 1)
}

// lowerFormula is L(a) = max(e^ε·a − δ − e^ε + 1, (a − δ)/e^ε, 0) in plain float64.
func (p DP) lowerFormula(a float64) float64 {
	return max(float64(p.e*a)-p.Delta-p.e+1, (a-p.Delta)/p.e, 0)
}

// Allowed is the audit of one edge in the form every mechanism is judged by: p_one
// values pu, pv pass both DP inequalities for output 1 (pu, pv) and for output 0
// (1 − pu, 1 − pv, each rounded once).
func (p DP) Allowed(pu, pv float64) bool {
	return p.Excess(pu, pv) <= 0 && p.Excess(1-pu, 1-pv) <= 0
}

// Upper is U(a) on p_one: the largest float64 b ≤ the formula's value with (a, b)
// Allowed, and at least a (a is always Allowed next to itself). For b ≥ a, Allowed(a, b)
// holds on an interval [a, b*] (each inequality is monotone in b), so b* is found by
// binary search over the float64 bits: at most 64 steps, exact. It is non-decreasing in
// a and Upper(a) ≥ a (a suitable pair, docs/DESIGN.md §2.2), and every value it returns
// passes the audit (doc.go, invariant 4).
func (p DP) Upper(a float64) float64 {
	b := max(p.upperFormula(a), a) // the formula may round below a
	if p.Allowed(a, b) {
		return b
	}
	lo, hi := math.Float64bits(a), math.Float64bits(b) // Allowed at lo, not at hi
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if p.Allowed(a, math.Float64frombits(mid)) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Float64frombits(lo)
}

// Lower is L(a) on p_one: the smallest float64 b ≥ the formula's value with (a, b)
// Allowed, and at most a; found like Upper's.
func (p DP) Lower(a float64) float64 {
	b := min(p.lowerFormula(a), a) // the formula may round above a
	if p.Allowed(a, b) {
		return b
	}
	lo, hi := math.Float64bits(b), math.Float64bits(a) // not Allowed at lo, Allowed at hi
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if p.Allowed(a, math.Float64frombits(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return math.Float64frombits(hi)
}

// Excess evaluates pv ≤ e^ε·pu + δ and pu ≤ e^ε·pv + δ in float64, one rounding per
// operation (the float64 conversions forbid fused multiply-add), and returns the
// larger overshoot (≤ 0 when both hold).
func (p DP) Excess(pu, pv float64) float64 {
	return max(pv-(float64(p.e*pu)+p.Delta), pu-(float64(p.e*pv)+p.Delta))
}

// Iterate is U^d(a), the bound a vertex at distance d imposes, by d applications of U
// (stopping early once it reaches 1). It is the reference the closed form is tested
// against, and the exact sequence every engine uses (docs/DESIGN.md §2.3).
func Iterate(p Pair, d int, a float64) float64 {
	for i := 0; i < d && a < 1; i++ {
		a = p.Upper(a)
	}
	return a
}
