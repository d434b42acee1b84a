package dp

import (
	"fmt"
	"math"
)

// Pair is a suitable pair (L, U) of the paper on p_one = Pr[M = 1] (docs/DESIGN.md §11):
// the privacy condition every engine, the audit, query, hitting-set and the Beam runner
// apply on each edge. It is one of four frameworks (Framework): (ε,δ)-DP, μ-Gaussian
// DP, a privacy profile {(ε_i, δ_i)} and an f-DP trade-off curve. Whatever the
// framework, Upper(a) is RD(U*(a)) and Lower(a) is RU(L*(a)) for the true real bounds
// (doc.go, invariants 1–3 and 8), so a mechanism is exactly private.
//
// The (ε,δ) pair is held by value and served without an indirect call (fw == nil):
// its bounds are the engines' hot path, and a predictable branch is all the other
// frameworks add to it. A Pair is immutable and safe for concurrent use; the zero value
// is not usable (build one with New, NewGDP, NewProfile or NewTradeoff).
type Pair struct {
	// Epsilon and Delta are the (ε,δ) parameters when Framework() is EpsilonDelta;
	// zero for the other frameworks.
	Epsilon, Delta float64

	ed EpsDelta
	fw bounds // nil: (ε,δ), served by ed
}

// Framework names a privacy framework.
type Framework string

// The frameworks, as written in output metadata (graphdp.framework) and summaries.
const (
	EpsilonDelta Framework = "epsilon-delta"
	GaussianDP   Framework = "gdp"
	Profile      Framework = "privacy-profile"
	Tradeoff     Framework = "tradeoff"
)

// bounds is what a framework other than (ε,δ) provides: its exact bounds (RD and RU of
// the real U* and L*), an audit shortcut, an excess for reports and its balanced value.
type bounds interface {
	upper(a float64) float64
	lower(a float64) float64
	// safe returns lo, up with every b in [lo, up] allowed next to a (certified, not
	// necessarily tight): the audit's shortcut.
	safe(a float64) (lo, up float64)
	// across is Pair.Across where 1 − a is not a float64 (across.go).
	across(a float64) (lo, up float64)
	framework() Framework
	describe() string
}

// New is the (ε,δ)-DP pair: NewEpsDelta wrapped as a Pair.
func New(epsilon, delta float64) (Pair, error) {
	ed, err := NewEpsDelta(epsilon, delta)
	if err != nil {
		return Pair{}, err
	}
	return Pair{Epsilon: epsilon, Delta: delta, ed: ed}, nil
}

// Framework is the pair's privacy framework.
func (p Pair) Framework() Framework {
	if p.fw == nil {
		return EpsilonDelta
	}
	return p.fw.framework()
}

// String describes the framework and its parameters in words, for summaries and logs.
func (p Pair) String() string {
	if p.fw == nil {
		return fmt.Sprintf("(ε,δ)-DP with ε = %v, δ = %v", p.Epsilon, p.Delta)
	}
	return p.fw.describe()
}

// EpsDelta is the (ε,δ) pair, ok = false for the other frameworks: what the
// (ε,δ)-only consumers (the closed form, optimize's LP in e^ε) need.
func (p Pair) EpsDelta() (EpsDelta, bool) { return p.ed, p.fw == nil }

// Upper is RD(U*(a)): the largest float64 b such that a neighbour of a vertex with
// p_one = a may have p_one = b. Non-decreasing, Upper(a) ≥ a.
func (p Pair) Upper(a float64) float64 {
	if p.fw == nil {
		return p.ed.Upper(a)
	}
	return p.fw.upper(a)
}

// Lower is RU(L*(a)): the smallest float64 b allowed next to a. Non-decreasing,
// Lower(a) ≤ a.
func (p Pair) Lower(a float64) float64 {
	if p.fw == nil {
		return p.ed.Lower(a)
	}
	return p.fw.lower(a)
}

// Allowed reports whether p_one values x, y of two neighbours satisfy the framework's
// condition exactly: L*(x) ≤ y ≤ U*(x), which is symmetric in x and y (invariant 3).
func (p Pair) Allowed(x, y float64) bool {
	return p.Lower(x) <= y && y <= p.Upper(x)
}

// SafeBounds returns lo ≤ hi such that every b in [lo, hi] is allowed next to a,
// cheaply: the audit passes a neighbour inside them without the exact bounds. For
// (ε,δ) they are ApproxBounds moved in by ApproxMargin.
func (p Pair) SafeBounds(a float64) (lo, up float64) {
	if p.fw == nil {
		l, u := p.ed.ApproxBounds(a)
		return l + ApproxMargin, u - ApproxMargin
	}
	return p.fw.safe(a)
}

// Iterate is U^d(a) by d applications of Upper (stopping at 1): the exact sequence
// every engine computes, each step rounded down from the real U.
func (p Pair) Iterate(d int, a float64) float64 {
	for i := 0; i < d && a < 1; i++ {
		a = p.Upper(a)
	}
	return a
}

// ApproxExcess ranks an edge by how close it comes to the framework's bounds, for
// an audit that decides with Allowed: for (ε,δ), the inequalities' differences in
// plain float64; for the others, the largest of b − U(a) over both orders (output
// 1) and of L(a) − b (output 0), from the safe bounds, so within their looseness.
func (p Pair) ApproxExcess(x, y float64) (ex0, ex1 float64) {
	if p.fw == nil {
		return p.ed.ApproxExcess(x, y)
	}
	lx, ux := p.fw.safe(x)
	ly, uy := p.fw.safe(y)
	return max(lx-y, ly-x), max(y-ux, x-uy)
}

// Excess is the largest real difference of output one's inequalities between
// neighbours with p_one values x and y, rounded to the nearest float64, its sign exact
// (positive exactly when that output's side of the condition fails). For (ε,δ) it is
// EpsDelta.Excess; for the other frameworks it is measured in probability: output 1,
// max(y − U*(x), x − U*(y)); output 0, max(L*(x) − y, L*(y) − x), with the exact bounds'
// roundings standing for U* and L* and a failing side never reported below the
// smallest positive float64. For reports: the audit decides with Allowed.
func (p Pair) Excess(x, y float64, one bool) float64 {
	if p.fw == nil {
		return p.ed.Excess(x, y, one)
	}
	var ex float64
	var bad bool
	if one {
		ux, uy := p.fw.upper(x), p.fw.upper(y)
		ex, bad = max(y-ux, x-uy), y > ux || x > uy
	} else {
		lx, ly := p.fw.lower(x), p.fw.lower(y)
		ex, bad = max(lx-y, ly-x), y < lx || x < ly
	}
	switch {
	case bad && !(ex > 0):
		return math.SmallestNonzeroFloat64
	case !bad && ex > 0:
		return 0
	}
	return ex
}

// Balanced is the balanced value of the paper's corollary for this pair: the largest
// float64 α with α ≤ U*(1 − α), the rounded-down fixed point of α = U(1 − α). With
// p_true = α on every boundary dataset, neighbours across the boundary (p_one α and
// 1 − α, the latter exact) are allowed. For (ε,δ) it is (e^ε + δ)/(e^ε + 1) rounded
// down (EpsDelta.Balanced); for μ-GDP, RD(Φ(μ/2)).
func (p Pair) Balanced() float64 {
	switch fw := p.fw.(type) {
	case nil:
		return p.ed.Balanced()
	case *gdp:
		return fw.balanced()
	}
	return fixedPoint(p.Upper)
}

// fixedPoint is the largest float64 α in [1/2, 1] with α ≤ up(1 − α) (LargestFloat):
// the predicate holds at 1/2 (up(1/2) ≥ 1/2) and, up being non-decreasing, fails
// from its first failure on. 1 − α is exact for α in [1/2, 1] (Sterbenz).
func fixedPoint(up func(float64) float64) float64 {
	return LargestFloat(0.5, func(a float64) bool { return a <= up(1-a) })
}

// LargestFloat is the largest float64 t in [lo, 1] (0 ≤ lo ≤ 1) with ok(t), for ok
// true at lo and monotone (true, then false): a bisection on the bit patterns of
// non-negative float64 values, which are ordered like the values.
func LargestFloat(lo float64, ok func(float64) bool) float64 {
	if ok(1) {
		return 1
	}
	a, b := math.Float64bits(lo), math.Float64bits(1) // ok(a), !ok(b)
	for b-a > 1 {
		m := a + (b-a)/2
		if ok(math.Float64frombits(m)) {
			a = m
		} else {
			b = m
		}
	}
	return math.Float64frombits(a)
}

// E is e^ε rounded to nearest for (ε,δ) (EpsDelta.E); NaN for the other frameworks,
// which have no e^ε.
func (p Pair) E() float64 {
	if p.fw == nil {
		return p.ed.E()
	}
	return math.NaN()
}

// ApproxBounds is EpsDelta.ApproxBounds for (ε,δ); for the other frameworks it is
// the safe bounds, so that a caller moving them in by ApproxMargin stays safe (it
// only skips fewer edges). Prefer SafeBounds.
func (p Pair) ApproxBounds(a float64) (lo, up float64) {
	if p.fw == nil {
		return p.ed.ApproxBounds(a)
	}
	return p.fw.safe(a)
}

// EBounds is EpsDelta.EBounds; it panics for the other frameworks (optimize's
// (ε,δ) LP is its only caller, and it is given (ε,δ) pairs only).
func (p Pair) EBounds() (lo, hi float64) {
	if p.fw != nil {
		panic("dp: EBounds of a " + string(p.fw.framework()) + " pair")
	}
	return p.ed.EBounds()
}

// UpperPow is EpsDelta.UpperPow (the paper's closed form), for (ε,δ) only; it
// panics for the other frameworks.
func (p Pair) UpperPow(d int, a float64) float64 {
	if p.fw != nil {
		panic("dp: UpperPow of a " + string(p.fw.framework()) + " pair")
	}
	return p.ed.UpperPow(d, a)
}
