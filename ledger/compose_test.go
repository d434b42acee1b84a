package ledger

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

const oraclePrec = 1100

// oracleExp is e^x at oraclePrec bits by the plain Taylor series (no halving, no
// directed rounding: a different method from dp.ExpBounds), for 0 ≤ x ≤ 30.
func oracleExp(x float64) *big.Float {
	nf := func() *big.Float { return new(big.Float).SetPrec(oraclePrec + 64) }
	y := nf().SetFloat64(x)
	sum, term := nf().SetInt64(1), nf().SetInt64(1)
	for n := int64(1); n < 5000; n++ {
		term.Mul(term, y)
		term.Quo(term, nf().SetInt64(n))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-oraclePrec-40 {
			break
		}
	}
	return sum
}

// oracleDelta is δ_i of the KOV theorem by its formula as printed — the double sum
// Σ_{l<i} C(k,l)(e^{(k−l)ε} − e^{(k−2i+l)ε}) / (1+e^ε)^k, each power of e computed
// on its own — in round-to-nearest at oraclePrec bits.
func oracleDelta(k, i int, eps, delta float64) *big.Float {
	nf := func() *big.Float { return new(big.Float).SetPrec(oraclePrec) }
	x := oracleExp(eps)
	pow := func(b *big.Float, n int) *big.Float {
		r, sq := nf().SetInt64(1), nf().Set(b)
		for ; n > 0; n >>= 1 {
			if n&1 == 1 {
				r.Mul(r, sq)
			}
			sq.Mul(sq, sq)
		}
		return r
	}
	g := nf()
	for l := 0; l < i; l++ {
		c := nf().SetInt(new(big.Int).Binomial(int64(k), int64(l)))
		d := nf().Sub(pow(x, k-l), pow(x, k-2*i+l))
		g.Add(g, nf().Mul(c, d))
	}
	g.Quo(g, pow(nf().Add(nf().SetInt64(1), x), k))
	keep := pow(nf().Sub(nf().SetInt64(1), nf().SetFloat64(delta)), k)
	one := nf().SetInt64(1)
	return nf().Sub(one, nf().Mul(keep, nf().Sub(one, g)))
}

// KOV's δ_i is an upper bound of the oracle's and within a few float64 ulps of it,
// over many (k, ε, δ): small k exhaustively, larger ones at random.
func TestKOVAgainstOracle(t *testing.T) {
	type tc struct {
		k          int
		eps, delta float64
	}
	var cases []tc
	for _, k := range []int{1, 2, 3, 4, 5, 7, 10, 16} {
		for _, eps := range []float64{0, 1e-6, 0.01, 0.1, math.Ln2, 0.5, 1, 2.5} {
			for _, delta := range []float64{0, 1e-9, 1e-5, 0.01} {
				cases = append(cases, tc{k, eps, delta})
			}
		}
	}
	r := rand.New(rand.NewPCG(23, 24))
	for range 40 {
		cases = append(cases, tc{2 + r.IntN(60), math.Ldexp(r.Float64(), -r.IntN(12)), []float64{0, 1e-7, 1e-3}[r.IntN(3)]})
	}
	cases = append(cases, tc{200, 0.05, 1e-6}, tc{MaxKOV, 0.01, 0}, tc{9, 20, 0})
	for _, c := range cases {
		got := kovDeltas(c.k, c.eps, c.delta, kovPrec)
		if len(got) != c.k/2+1 {
			t.Fatalf("k=%d: %d points", c.k, len(got))
		}
		step := 1
		if c.k > 64 {
			step = c.k / 16 // the oracle is O(k²) per point
		}
		for i := 0; i <= c.k/2; i += step {
			want := oracleDelta(c.k, i, c.eps, c.delta)
			lo, _ := want.Float64()
			if got[i] < lo && new(big.Float).SetFloat64(got[i]).Cmp(want) < 0 {
				t.Fatalf("k=%d ε=%v δ=%v i=%d: %v is below the oracle's %v", c.k, c.eps, c.delta, i, got[i], want.Text('g', 30))
			}
			// Tight: at most 2 ulps above, or less than 2^−230 (compose.go's kovPrec).
			hi := lo
			for range 2 {
				hi = math.Nextafter(hi, math.Inf(1))
			}
			if got[i] > hi && got[i]-lo > 0x1p-230 {
				t.Errorf("k=%d ε=%v δ=%v i=%d: %v, oracle %v: not tight", c.k, c.eps, c.delta, i, got[i], want.Text('g', 30))
			}
		}
	}
}

// Values derived by hand. k = 2, i = 1: g_1 = (e^{2ε} − 1)/(1 + e^ε)² = (e^ε − 1)/(e^ε + 1),
// which at ε = ln 3 is 1/2 (δ = 0); i = 0 is (2ε, 1 − (1 − δ)²).
func TestKOVHandDerived(t *testing.T) {
	pts := KOV(2, math.Log(3), 0)
	if len(pts) != 2 || pts[1].Epsilon != 0 || math.Abs(pts[1].Delta-0.5) > 1e-15 || pts[0].Delta != 0 {
		t.Errorf("k=2, ε=ln 3: %v", pts)
	}
	pts = KOV(2, 0.5, 0.1)
	if pts[0].Epsilon != 1 || math.Abs(pts[0].Delta-0.19) > 1e-15 || pts[0].Delta < 0.19 {
		t.Errorf("k=2, ε=0.5, δ=0.1, i=0: %v (want (1, 0.19))", pts[0])
	}
	// ε = 0: every point is (0, 1 − (1 − δ)^k).
	for _, p := range KOV(6, 0, 1e-3) {
		want := 1 - math.Pow(1-1e-3, 6)
		if p.Epsilon != 0 || math.Abs(p.Delta-want) > 1e-15 {
			t.Errorf("ε = 0: %v, want (0, %v)", p, want)
		}
	}
}

// The family's shape, which charge relies on: ε_i falls and δ_i rises with i, and
// point 0 is never above basic composition (kε, kδ).
func TestKOVMonotoneAndBelowBasic(t *testing.T) {
	for _, k := range []int{2, 3, 10, 50} {
		for _, eps := range []float64{0.01, 0.3, 1.5} {
			for _, delta := range []float64{0, 1e-6, 0.02} {
				pts := KOV(k, eps, delta)
				if pts[0].Epsilon > mulUp(k, eps) || pts[0].Delta > mulUp(k, delta) {
					t.Errorf("k=%d ε=%v δ=%v: point 0 %v above basic", k, eps, delta, pts[0])
				}
				for i := 1; i < len(pts); i++ {
					if pts[i].Epsilon >= pts[i-1].Epsilon || pts[i].Delta < pts[i-1].Delta {
						t.Errorf("k=%d ε=%v δ=%v: point %d %v after %v", k, eps, delta, i, pts[i], pts[i-1])
					}
				}
			}
		}
	}
}

// charge: basic composition when it is the tighter (or the only) accounting; the
// optimal composition when all releases are equal and it gives a smaller ε within
// the budget's δ; never above basic.
func TestCharge(t *testing.T) {
	var s spend
	for range 10 {
		s = s.with(Point{0.1, 0})
	}
	// Budget δ = 0: only i = 0 fits, which is basic's ε.
	if c := s.charge(Budget{1, 0, 0}); c.Method != MethodBasic || c.Epsilon != mulUp(10, 0.1) || c.Delta != 0 {
		t.Errorf("δ budget 0: %+v", c)
	}
	// Budget δ = 1e-3: the theorem trades some δ for a smaller ε. The charge is the
	// family's point of smallest ε with δ ≤ 1e-3, checked against the family itself.
	c := s.charge(Budget{1, 1e-3, 0})
	var want Point
	for _, p := range KOV(10, 0.1, 0) {
		if p.Delta <= 1e-3 {
			want = p
		}
	}
	if c.Method != MethodOptimal || c.Epsilon != want.Epsilon || c.Delta != want.Delta || c.Epsilon >= mulUp(10, 0.1) {
		t.Errorf("δ budget 1e-3: %+v, want %v", c, want)
	}
	// Mixed releases: basic.
	m := s.with(Point{0.2, 0})
	if c := m.charge(Budget{1, 1e-3, 0}); c.Method != MethodBasic || c.Epsilon != m.sum.Epsilon {
		t.Errorf("mixed: %+v", c)
	}
	// 3 × 0.1 fits 0.3 (Slack), 4 × 0.1 does not.
	var t3 spend
	for range 3 {
		t3 = t3.with(Point{0.1, 0})
	}
	if !t3.charge(Budget{0.3, 0, 0}).Fits(Budget{0.3, 0, 0}) || t3.with(Point{0.1, 0}).charge(Budget{0.3, 0, 0}).Fits(Budget{0.3, 0, 0}) {
		t.Errorf("3 × 0.1 against 0.3")
	}
}

// addUp and mulUp round up: never below the exact value, at most one ulp above.
func TestDirectedRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		a, b := math.Ldexp(r.Float64(), -r.IntN(40)), math.Ldexp(r.Float64(), -r.IntN(40))
		exact := new(big.Float).SetPrec(2000).Add(big.NewFloat(a), big.NewFloat(b))
		s := addUp(a, b)
		if new(big.Float).SetFloat64(s).Cmp(exact) < 0 || new(big.Float).SetFloat64(math.Nextafter(s, 0)).Cmp(exact) >= 0 {
			t.Fatalf("addUp(%v, %v) = %v, exact %v", a, b, s, exact)
		}
		n := 1 + r.IntN(5000)
		exact = new(big.Float).SetPrec(2000).Mul(big.NewFloat(float64(n)), big.NewFloat(a))
		p := mulUp(n, a)
		if new(big.Float).SetFloat64(p).Cmp(exact) < 0 || new(big.Float).SetFloat64(math.Nextafter(p, 0)).Cmp(exact) >= 0 {
			t.Fatalf("mulUp(%d, %v) = %v, exact %v", n, a, p, exact)
		}
		d := subDown(a, b)
		exact = new(big.Float).SetPrec(2000).Sub(big.NewFloat(a), big.NewFloat(b))
		if exact.Sign() <= 0 {
			if d != 0 {
				t.Fatalf("subDown(%v, %v) = %v, want 0", a, b, d)
			}
		} else if new(big.Float).SetFloat64(d).Cmp(exact) > 0 || new(big.Float).SetFloat64(math.Nextafter(d, math.Inf(1))).Cmp(exact) <= 0 {
			t.Fatalf("subDown(%v, %v) = %v, exact %v", a, b, d, exact)
		}
	}
}
