package oracle

import "math/big"

// Curve is f-DP for a trade-off curve through the points (Alpha[j], Beta[j]), joined
// linearly (docs/DESIGN.md §11.1, §11.4; the points are assumed valid: from α = 0 to
// α = 1, α increasing, β non-increasing, convex, β ≤ 1 − α).
//
// On one edge of a binary mechanism with a = Pr[M(u) = 1], b = Pr[M(v) = 1], the tests
// "reject on 1" and "reject on 0" have errors (a, 1 − b) and (1 − a, b); f is below
// the pair's trade-off curve exactly when f(a) ≤ 1 − b and f(1 − a) ≤ b, and the same
// for the swapped pair is the condition with f⁻¹(y) = inf{x : f(x) ≤ y}. So with
// f_s = max(f, f⁻¹), U(a) = 1 − f_s(a) and L(a) = f_s(1 − a).
//
// Both f and f⁻¹ are written as weighted means of the segment's ends, with
// non-negative weights, and so are their complements 1 − f and 1 − f⁻¹: each is one
// exact sum of exact products and one division, with no cancellation, so a value and
// its complement both keep Bits of relative precision.
type Curve struct{ Alpha, Beta []float64 }

// mean is (p·u + q·v)/w and (p′·u + q′·v)/w with p′ = 1 − p, q′ = 1 − q.
func mean(p, q, u, v, w *big.Float) (val, comp *big.Float) {
	val = z().Quo(Sum(Prod(p, u), Prod(q, v)), w)
	comp = z().Quo(Sum(Prod(OneMinus(p), u), Prod(OneMinus(q), v)), w)
	return val, comp
}

// f is the curve at x in [0, 1], with 1 − f(x).
func (c Curve) f(x *big.Float) (val, comp *big.Float) {
	j := 0
	for j+2 < len(c.Alpha) && F(c.Alpha[j+1]).Cmp(x) <= 0 {
		j++
	}
	a0, a1 := F(c.Alpha[j]), F(c.Alpha[j+1])
	// f(x) = (β_j·(α_{j+1} − x) + β_{j+1}·(x − α_j))/(α_{j+1} − α_j)
	return mean(F(c.Beta[j]), F(c.Beta[j+1]), Diff(a1, x), Diff(x, a0), Diff(a1, a0))
}

// finv is f⁻¹(y) for y in [0, 1], with 1 − f⁻¹(y): 0 when y ≥ f(0), else on the
// first segment whose right end is at or below y.
func (c Curve) finv(y *big.Float) (val, comp *big.Float) {
	if y.Cmp(F(c.Beta[0])) >= 0 {
		return F(0), F(1)
	}
	j := 0
	for F(c.Beta[j+1]).Cmp(y) > 0 {
		j++
	}
	b0, b1 := F(c.Beta[j]), F(c.Beta[j+1])
	// f⁻¹(y) = (α_j·(y − β_{j+1}) + α_{j+1}·(β_j − y))/(β_j − β_{j+1})
	return mean(F(c.Alpha[j]), F(c.Alpha[j+1]), Diff(y, b1), Diff(b0, y), Diff(b0, b1))
}

// fs is max(f, f⁻¹) at x, with its complement.
func (c Curve) fs(x *big.Float) (val, comp *big.Float) {
	v1, c1 := c.f(x)
	v2, c2 := c.finv(x)
	if v2.Cmp(v1) > 0 {
		return v2, c2
	}
	return v1, c1
}

// U is 1 − f_s(a).
func (c Curve) U(a *big.Float) *big.Float {
	_, comp := c.fs(a)
	return comp
}

// L is f_s(1 − a).
func (c Curve) L(a *big.Float) *big.Float {
	val, _ := c.fs(OneMinus(a))
	return val
}
