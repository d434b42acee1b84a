package oracle

import (
	"math"
	"math/big"
	"testing"
)

// Frameworks under test: (ε,δ) pairs, μ-GDP, a profile and two curves.
func testFrameworks() map[string]Bounds {
	return map[string]Bounds{
		"ε=1e-6 δ=0":    Pair{1e-6, 0},
		"ε=1 δ=1e-3":    Pair{1, 1e-3},
		"ε=20 δ=0.3":    Pair{20, 0.3},
		"ε=700 δ=0":     Pair{700, 0},
		"gdp μ=0.05":    GDP{0.05},
		"gdp μ=1":       GDP{1},
		"gdp μ=6":       GDP{6},
		"profile":       Profile{{0.3, 0.1}, {1, 1e-3}, {2, 1e-6}},
		"curve":         Curve{[]float64{0, 0.05, 0.5, 1}, []float64{0.9, 0.3, 0.05, 0}},
		"curve from 1":  Curve{[]float64{0, 0.1, 1}, []float64{1, 0.5, 0}},
		"curve to zero": Curve{[]float64{0, 0.02, 0.2, 0.6, 1}, []float64{0.95, 0.5, 0.1, 0, 0}},
	}
}

var testArgs = []float64{0, 5e-324, 1e-300, 1e-100, 1e-16, 1e-9, 0.01, 0.05, 0.1, 0.3, 0.5, 0.6, 0.9, 1 - 1e-9, 1 - 0x1p-52, 1 - 0x1p-53, 1}

// close reports x = y to about bits, in value and in complement (a value near 1 must
// keep its complement's precision).
func close(x, y *big.Float, bits int) bool {
	agree := func(x, y *big.Float) bool {
		if x.Sign() == 0 || y.Sign() == 0 {
			return x.Sign() == y.Sign()
		}
		d := Diff(x, y)
		return d.Sign() == 0 || d.MantExp(nil) < max(x.MantExp(nil), y.MantExp(nil))-bits
	}
	return agree(x, y) && agree(OneMinus(x), OneMinus(y))
}

// Every framework's pair is suitable and symmetric: L(a) = 1 − U(1 − a) (computed from
// its own formula for (ε,δ)), L(a) ≤ a ≤ U(a), and both are non-decreasing over the
// arguments, tails included.
func TestBoundsSymmetricAndMonotone(t *testing.T) {
	for name, b := range testFrameworks() {
		var prevU, prevL *big.Float
		for _, a := range testArgs {
			x := F(a)
			u, l := b.U(x), b.L(x)
			if mirror := OneMinus(b.U(OneMinus(x))); !close(l, mirror, 200) {
				t.Errorf("%s: L(%v) = %s, 1 − U(1 − a) = %s", name, a, l.Text('g', 30), mirror.Text('g', 30))
			}
			if u.Cmp(x) < 0 || l.Cmp(x) > 0 {
				t.Errorf("%s: L(%v) = %s, U = %s: not around a", name, a, l.Text('g', 20), u.Text('g', 20))
			}
			if prevU != nil && (u.Cmp(prevU) < 0 || l.Cmp(prevL) < 0) {
				t.Errorf("%s: a bound decreases at %v", name, a)
			}
			prevU, prevL = u, l
		}
	}
}

// μ-GDP's coordinate gives U^d exactly: d applications of U agree with
// Φ(Φ⁻¹(a) + d·μ), in value and complement, in both tails.
func TestGDPShiftMatchesIteration(t *testing.T) {
	for _, mu := range []float64{0.05, 1, 2.5, 6} {
		g := GDP{mu}
		for _, a := range []float64{1e-300, 1e-20, 0.3, 1 - 1e-12, 1 - 0x1p-53} {
			x := F(a)
			it := x
			for d := 1; d <= 6; d++ {
				it = g.U(it)
				z := Sum(g.At(x), Prod(F(float64(d)), F(mu)))
				if want := g.Of(z); !close(it, want, NormalBits-16) {
					t.Errorf("μ = %v, a = %v: U^%d = %s, Φ(Φ⁻¹(a) + dμ) = %s", mu, a, d, it.Text('g', 30), want.Text('g', 30))
				}
			}
		}
	}
}

// The (ε,δ) trade-off curve written as points gives (ε,δ)'s bounds, here with
// e^ε = 3 and δ = 1/4 (a float, so the bounds are exact rationals):
// f = max(0, 3/4 − 3x, (3/4 − x)/3), points (0, 3/4), (3/16, 3/16), (3/4, 0), (1, 0),
// U(a) = min(3a + 1/4, 1 − (3/4 − a)/3, 1). An asymmetric curve, (0, 1), (1/10, 1/2),
// (1, 0), has f⁻¹(y) = (1 − y)/5 above 1/2 and 1/10 + 9/5·(1/2 − y) below, so
// U(a) = min(1 − f(a), 1 − f⁻¹(a)): the symmetrisation decides (derived by hand).
func TestCurveByHand(t *testing.T) {
	ed := Curve{[]float64{0, 0.1875, 0.75, 1}, []float64{0.75, 0.1875, 0, 0}}
	for _, a := range []float64{0, 1e-300, 0.01, 0.1875, 0.3, 0.5, 0.8, 1 - 1e-12, 1} {
		x := F(a)
		b1 := z().Add(z().Mul(F(3), x), F(0.25))
		b2 := z().Sub(F(1), z().Quo(z().Sub(F(0.75), x), F(3)))
		want := b1
		if b2.Cmp(want) < 0 {
			want = b2
		}
		if want.Cmp(one) > 0 {
			want = F(1)
		}
		if got := ed.U(x); !close(got, want, Bits-8) {
			t.Errorf("(ε,δ) curve: U(%v) = %s, by hand %s", a, got.Text('g', 30), want.Text('g', 30))
		}
	}
	as := Curve{[]float64{0, 0.1, 1}, []float64{1, 0.5, 0}}
	tenth := F(0.1)
	for _, a := range []float64{1e-300, 0.01, 0.05, 0.1, 0.3, 0.36, 0.5, 0.7, 0.95, 1 - 1e-12} {
		x := F(a)
		var f, finv *big.Float // 1 − f(a) and 1 − f⁻¹(a)
		if x.Cmp(tenth) <= 0 {
			f = z().Mul(F(5), x)
		} else {
			f = z().Add(F(0.5), z().Quo(z().Mul(F(0.5), z().Sub(x, tenth)), z().Sub(F(1), tenth)))
		}
		if x.Cmp(F(0.5)) >= 0 {
			finv = z().Sub(F(1), z().Quo(z().Sub(F(1), x), F(5)))
		} else {
			// 1 − (1/10 + (1 − 1/10)·(1/2 − y)/(1/2))
			finv = z().Sub(F(1), z().Add(tenth, z().Quo(z().Mul(z().Sub(F(1), tenth), z().Sub(F(0.5), x)), F(0.5))))
		}
		want := f
		if finv.Cmp(want) < 0 {
			want = finv
		}
		if got := as.U(x); !close(got, want, Bits-16) {
			t.Errorf("asymmetric curve: U(%v) = %s, by hand %s", a, got.Text('g', 30), want.Text('g', 30))
		}
	}
}

// Algorithm 1 on the paper's path (docs/DESIGN.md §10.1; ε = ln 2 as a float64, so
// the values hold to 1e-15): Pr[M(v2) = 1] = 0.4, Pr[M(v3) = 1] = 0.2. Feasible holds;
// PrivateReal accepts the exact optimum and Private the rounded one, within 1e-15
// of it and below; both refuse v2 raised by 1e-3. Rounding the optimum itself down
// at every dataset is not private here: the edge v2–v3 is tight for output 0, and
// the two roundings need not agree with U's slope.
func TestOptimumPaperPath(t *testing.T) {
	adj := [][]int32{{1}, {0, 2}, {1, 3}, {2}}
	answer := []bool{false, true, true, false}
	hit := []int32{0, 3}
	ptrue := []float64{0.7, 0.9} // p_one 0.3 and 0.1
	for _, b := range []Bounds{Pair{math.Ln2, 0}} {
		e := Optimum(b, adj, answer, hit, ptrue)
		if ok, why := e.Feasible(); !ok {
			t.Fatal(why)
		}
		for w, want := range []float64{0.7, 0.4, 0.2, 0.9} {
			if got, _ := e.PTrue[w].Float64(); math.Abs(got-want) > 1e-15 {
				t.Errorf("v%d: p_true %v, want %v", w+1, got, want)
			}
		}
		if err := PrivateReal(b, adj, answer, e.PTrue); err != nil {
			t.Errorf("exact optimum not private: %v", err)
		}
		m := Rounded(b, adj, answer, hit, ptrue)
		if err := Private(b, adj, answer, m); err != nil {
			t.Errorf("rounded optimum %v not private: %v", m, err)
		}
		for w := range m {
			if d, _ := Diff(e.PTrue[w], F(m[w])).Float64(); d < 0 || d > 1e-15 {
				t.Errorf("v%d: rounded %v, optimum %s", w+1, m[w], e.PTrue[w].Text('g', 20))
			}
		}
		m[1] += 1e-3
		if err := Private(b, adj, answer, m); err == nil {
			t.Errorf("v2 raised by 1e-3 is still private")
		}
		e.PTrue[1] = Sum(e.PTrue[1], F(1e-3))
		if err := PrivateReal(b, adj, answer, e.PTrue); err == nil {
			t.Errorf("exact v2 raised by 1e-3 is still private")
		}
	}
}

// Optimum's answer-0 values are exact in the tails: p_true = 1e-300 on an answer-0
// hitting-set vertex is Pr[M = 1] = 1 − 1e-300, and its same-answer neighbour's
// optimum is U(1e-300) (on Pr[M = 0]), not a value lost to 1 − p_one.
func TestOptimumTails(t *testing.T) {
	adj := [][]int32{{1}, {0, 2}, {1}}
	answer := []bool{false, false, true}
	for name, b := range testFrameworks() {
		e := Optimum(b, adj, answer, []int32{0}, []float64{1e-300})
		if want := b.U(F(1e-300)); !close(e.PTrue[1], want, 200) {
			t.Errorf("%s: p_true %s next to 1e-300, want U(1e-300) = %s", name, e.PTrue[1].Text('g', 20), want.Text('g', 20))
		}
		if want := b.U(b.U(OneMinus(F(1e-300)))); !close(e.PTrue[2], want, 200) {
			t.Errorf("%s: p_true %s two hops from 1 − 1e-300", name, e.PTrue[2].Text('g', 20))
		}
	}
}
