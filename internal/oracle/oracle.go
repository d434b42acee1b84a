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

// Pair is (ε,δ) for the oracle.
type Pair struct{ Epsilon, Delta float64 }

// U is U*(a) = min(e^ε·a + δ, 1 − (1 − a − δ)/e^ε, 1) on a real a.
func (p Pair) U(a *big.Float) *big.Float {
	e := Exp(p.Epsilon)
	b := z().Mul(e, a)
	b.Add(b, F(p.Delta))
	c := z().Sub(F(1), a)
	c.Sub(c, F(p.Delta))
	if b2 := z().Sub(F(1), z().Quo(c, e)); b2.Cmp(b) < 0 {
		b = b2
	}
	if b.Cmp(F(1)) > 0 {
		b = F(1)
	}
	return b
}

// L is L*(a) = max(1 − δ − e^ε·(1 − a), (a − δ)/e^ε, 0).
func (p Pair) L(a *big.Float) *big.Float {
	e := Exp(p.Epsilon)
	l := z().Sub(F(1), F(p.Delta))
	l.Sub(l, z().Mul(e, z().Sub(F(1), a)))
	if l2 := z().Quo(z().Sub(a, F(p.Delta)), e); l2.Cmp(l) > 0 {
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

// Optimum is the paper's Algorithm 1 in exact-ish arithmetic: for every vertex of the
// graph adj (lists of neighbours), the optimal extension's p_one given p_one values
// pone[i] on vertices hit[i]: g_1(w) = min over h of U^dist(w,h)(p_one(h)) for
// answer-1 vertices, 1 − g_0(w) with g_0 the same on Pr[M = 0] for answer-0 ones (1
// and 0 where no hitting-set vertex is reachable).
func (p Pair) Optimum(adj [][]int32, answer []bool, hit []int32, pone []float64) []*big.Float {
	real := make([]*big.Float, len(pone))
	for i, x := range pone {
		real[i] = F(x)
	}
	return p.OptimumReal(adj, answer, hit, real)
}

// OptimumReal is Optimum from real p_one values on the hitting set (a p_true of an
// answer-0 vertex gives 1 − p_true exactly, which no float64 may hold).
func (p Pair) OptimumReal(adj [][]int32, answer []bool, hit []int32, pone []*big.Float) []*big.Float {
	n := len(adj)
	g := [2][]*big.Float{make([]*big.Float, n), make([]*big.Float, n)}
	for w := range n {
		g[0][w], g[1][w] = F(1), F(1)
	}
	dist := make([]int32, n)
	for i, h := range hit {
		for v := range dist {
			dist[v] = -1
		}
		dist[h] = 0
		queue := []int32{h}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, y := range adj[x] {
				if dist[y] < 0 {
					dist[y] = dist[x] + 1
					queue = append(queue, y)
				}
			}
		}
		for c := range 2 {
			a := z().Set(pone[i])
			if c == 0 {
				a = z().Sub(F(1), a)
			}
			// U^d(a) for every d up to the largest distance, once.
			var iter []*big.Float
			for w := range n {
				d := dist[w]
				if d < 0 {
					continue
				}
				for int32(len(iter)) <= d {
					if len(iter) == 0 {
						iter = append(iter, a)
					} else {
						iter = append(iter, p.U(iter[len(iter)-1]))
					}
				}
				if iter[d].Cmp(g[c][w]) < 0 {
					g[c][w] = iter[d]
				}
			}
		}
	}
	out := make([]*big.Float, n)
	for w := range n {
		if answer[w] {
			out[w] = g[1][w]
		} else {
			out[w] = z().Sub(F(1), g[0][w])
		}
	}
	return out
}
