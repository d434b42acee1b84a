package oracle

import (
	"math/big"
	"sync"
)

// GDP is μ-Gaussian DP (docs/DESIGN.md §11.2): U(a) = Φ(Φ⁻¹(a) + μ) and
// L(a) = Φ(Φ⁻¹(a) − μ), a Shift by μ in z = Φ⁻¹(a), so U^d(a) = Φ(Φ⁻¹(a) + d·μ).
type GDP struct{ Mu float64 }

// At is Φ⁻¹(a), memoised by exact argument (the tests ask for the same values many
// times: a hitting-set value in the optimum and the audit, both outputs of a dataset).
func (g GDP) At(a *big.Float) *big.Float { return quantileMemo(a) }

// Of is Φ(z).
func (g GDP) Of(z *big.Float) *big.Float { return Phi(z) }

// Step is μ.
func (g GDP) Step() *big.Float { return F(g.Mu) }

func (g GDP) shift(a *big.Float, s float64) *big.Float {
	z := g.At(a)
	if z.IsInf() {
		return g.Of(z)
	}
	return g.Of(Sum(z, F(s)))
}

// U is Φ(Φ⁻¹(a) + μ).
func (g GDP) U(a *big.Float) *big.Float { return g.shift(a, g.Mu) }

// L is Φ(Φ⁻¹(a) − μ).
func (g GDP) L(a *big.Float) *big.Float { return g.shift(a, -g.Mu) }

var quantiles sync.Map // exact text of min(a, 1 − a) → t ≥ 0 with Φ(−t) = it

func quantileMemo(a *big.Float) *big.Float {
	if a.Sign() == 0 || a.Cmp(one) == 0 {
		return Quantile(a)
	}
	q, neg := a, true
	if a.Cmp(big.NewFloat(0.5)) > 0 {
		q, neg = OneMinus(a), false
	}
	key := q.Text('p', 0)
	t, ok := quantiles.Load(key)
	if !ok {
		t, _ = quantiles.LoadOrStore(key, tailQuantile(q))
	}
	z := new(big.Float).Set(t.(*big.Float))
	if neg {
		z.Neg(z)
	}
	return z
}
