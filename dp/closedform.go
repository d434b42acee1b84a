package dp

import "math"

// UpperPow is the paper's closed form p(d, a) for U^d(a) under (ε,δ)-DP (its
// definition of p and τ), derived from U's two linear branches: below the switch
// point s = (1−δ)/(e^ε+1), U(a) = e^ε·a + δ, so a + c grows by e^ε per step with
// c = δ/(e^ε−1); at or above it, U(a) = (e^ε+δ−1+a)/e^ε, whose distance to the fixed
// point 1 + c shrinks by e^ε per step. τ counts the steps on the first branch.
// It is computed in plain float64 from the nearest e^ε: engines never use it (they
// iterate the certified Upper); it is the paper's claim, property-tested against that
// iteration (docs/DESIGN.md §2.3).
func (p EpsDelta) UpperPow(d int, a float64) float64 {
	if d <= 0 || a >= 1 {
		return min(a, 1)
	}
	e, delta := p.e, p.Delta
	if e == 1 { // ε = 0 (or below float resolution): U(a) = min(a + δ, 1)
		return min(a+float64(float64(d)*delta), 1)
	}
	c := delta / (e - 1)
	s := (1 - delta) / (e + 1)
	branch1 := func(k int) float64 { return float64(math.Pow(e, float64(k))*(a+c)) - c }
	tau := p.tau(a, s, c)
	if d <= tau {
		return min(branch1(d), 1)
	}
	y := branch1(tau)
	fix := 1 + c
	return min(fix-(fix-y)/math.Pow(e, float64(d-tau)), 1)
}

// tau is the number of steps U takes on its first branch from a: the smallest k with
// e^k·(a+c) − c ≥ s (MaxInt when a + c = 0, where U stays at 0).
func (p EpsDelta) tau(a, s, c float64) int {
	if a >= s {
		return 0
	}
	if a+c <= 0 {
		return math.MaxInt
	}
	k := int(math.Ceil(math.Log((s+c)/(a+c)) / p.Epsilon))
	at := func(k int) float64 { return float64(math.Pow(p.e, float64(k))*(a+c)) - c }
	for k > 0 && at(k-1) >= s { // the logarithm may round up by one step
		k--
	}
	for at(k) < s { // or down
		k++
	}
	return k
}

// Iterate is U^d(a), the bound a vertex at distance d imposes, by d applications of
// Upper (stopping early once it reaches 1): the exact sequence every engine computes,
// each step rounded down from the real U.
func (p EpsDelta) Iterate(d int, a float64) float64 {
	for i := 0; i < d && a < 1; i++ {
		a = p.Upper(a)
	}
	return a
}
