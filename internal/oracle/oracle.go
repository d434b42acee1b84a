package oracle

import (
	"math/big"
	"sync"
)

// Bits is the working precision: sums of float64 values in [0, 1] are exact at it.
const Bits = 2400

// F is x as a big.Float at Bits bits.
func F(x float64) *big.Float { return new(big.Float).SetPrec(Bits).SetFloat64(x) }

func z() *big.Float { return new(big.Float).SetPrec(Bits) }

var expCache sync.Map // float64 → *big.Float

// Exp is e^eps to about Bits·2/3 bits.
func Exp(eps float64) *big.Float {
	if e, ok := expCache.Load(eps); ok {
		return e.(*big.Float)
	}
	x := F(eps)
	sum, term := F(1), F(1)
	limit := new(big.Float).SetMantExp(F(1), -2*Bits/3)
	for n := int64(1); ; n++ {
		term.Mul(term, x)
		term.Quo(term, F(float64(n)))
		sum.Add(sum, term)
		if n > int64(eps)+2 && term.Cmp(z().Mul(limit, sum)) < 0 {
			break
		}
	}
	expCache.Store(eps, sum)
	return sum
}

// Pair is (ε,δ)-DP: the Bounds of docs/DESIGN.md §2.1.
type Pair struct{ Epsilon, Delta float64 }

// U is U*(a) = min(e^ε·a + δ, 1 − (1 − a − δ)/e^ε, 1) on a real a. The second
// term is 1 minus an exactly formed (1 − a) − δ divided by e^ε, and that subtraction
// from 1 is exact: a bound near 1 keeps its complement's relative precision.
func (p Pair) U(a *big.Float) *big.Float {
	e := Exp(p.Epsilon)
	b := z().Mul(e, a)
	b.Add(b, F(p.Delta))
	// When (1 − a) − δ ≤ 0 the second term is at least 1 and the cap decides.
	if c := Diff(OneMinus(a), F(p.Delta)); c.Sign() > 0 {
		if b2 := OneMinus(z().Quo(c, e)); b2.Cmp(b) < 0 {
			b = b2
		}
	}
	if b.Cmp(F(1)) > 0 {
		b = F(1)
	}
	return b
}

// L is L*(a) = max(1 − δ − e^ε·(1 − a), (a − δ)/e^ε, 0); the first term is 1 minus
// δ + e^ε·(1 − a), a sum without cancellation, so it keeps its complement's precision.
func (p Pair) L(a *big.Float) *big.Float {
	e := Exp(p.Epsilon)
	s := z().Mul(e, OneMinus(a))
	s.Add(s, F(p.Delta))
	l := OneMinus(s)
	if l2 := z().Quo(Diff(a, F(p.Delta)), e); l2.Cmp(l) > 0 {
		l = l2
	}
	if l.Sign() < 0 {
		l = F(0)
	}
	return l
}

// Allowed decides the four (ε,δ)-DP inequalities for neighbours with p_one x, y, with
// Pr[M = 0] = 1 − p_one exactly.
func (p Pair) Allowed(x, y float64) bool {
	e := Exp(p.Epsilon)
	holds := func(lhs, rhs *big.Float) bool {
		r := z().Mul(e, rhs)
		r.Add(r, F(p.Delta))
		return lhs.Cmp(r) <= 0
	}
	qx, qy := z().Sub(F(1), F(x)), z().Sub(F(1), F(y))
	return holds(F(y), F(x)) && holds(F(x), F(y)) && holds(qy, qx) && holds(qx, qy)
}

// Optimum is the paper's Algorithm 1 for hitting-set values given as p_one: for every
// vertex of the graph adj (lists of neighbours), the optimal extension's p_one given
// p_one values pone[i] on vertices hit[i]: g_1(w) = min over h of U^dist(w,h)(p_one(h))
// for answer-1 vertices, 1 − g_0(w) with g_0 the same on Pr[M = 0] = 1 − p_one (exact)
// for answer-0 ones (1 and 0 where no hitting-set vertex is reachable). The package's
// Optimum takes the values as p_true instead.
func (p Pair) Optimum(adj [][]int32, answer []bool, hit []int32, pone []float64) []*big.Float {
	real := make([]*big.Float, len(pone))
	for i, x := range pone {
		real[i] = F(x)
	}
	return p.OptimumReal(adj, answer, hit, real)
}

// OptimumReal is Optimum from real p_one values on the hitting set (an answer-0
// tail's 1 − p_true, which no float64 holds).
func (p Pair) OptimumReal(adj [][]int32, answer []bool, hit []int32, pone []*big.Float) []*big.Float {
	var a [2][]*big.Float
	for c := range 2 {
		a[c] = make([]*big.Float, len(hit))
		for i := range hit {
			a[c][i] = own(c == 1, true, pone[i])
		}
	}
	g := fields(p, adj, hit, a)
	out := make([]*big.Float, len(adj))
	for w := range out {
		if answer[w] {
			out[w] = g.at(1, int32(w))
		} else {
			out[w] = OneMinus(g.at(0, int32(w)))
		}
	}
	return out
}
