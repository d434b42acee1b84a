package dp

import (
	"math"
	"math/big"
	"sync"
	"testing"
)

// The μ-GDP oracle: test code only, at ≥ 320 bits, sharing no code with normal.go.
// Its Φ is the alternating Taylor series Φ(t) = 1/2 + (2π)^(−1/2)·Σ (−1)^n
// t^(2n+1)/(2^n·n!·(2n+1)) for |t| ≤ 20 (at a precision that absorbs the
// cancellation), and the asymptotic series of Mills' ratio beyond, Q(t) =
// φ(t)/t·Σ (−1)^n (2n−1)!!/t^(2n), cut before its smallest term (below e^(−t²/2) < 2^−288
// relative); π comes from Machin's formula, e^x from its own Taylor series.
const oBits = 320

func oNew(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// oArctanInv is arctan(1/k) by its alternating series.
func oArctanInv(k int64, prec uint) *big.Float {
	sum, pow := oNew(prec), oNew(prec).SetInt64(1)
	pow.Quo(pow, oNew(prec).SetInt64(k))
	kk := oNew(prec).SetInt64(k * k)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(prec)-8)
	for n := int64(0); ; n++ {
		term := oNew(prec).Quo(pow, oNew(prec).SetInt64(2*n+1))
		if n%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		if term.Cmp(eps) < 0 {
			return sum
		}
		pow.Quo(pow, kk)
	}
}

var oPiOnce = sync.OnceValue(func() *big.Float {
	const prec = 1200
	a := oArctanInv(5, prec)
	a.Mul(a, oNew(prec).SetInt64(16))
	b := oArctanInv(239, prec)
	b.Mul(b, oNew(prec).SetInt64(4))
	return a.Sub(a, b)
})

// oExp is e^x for any finite big x: e^(x/2^k) by Taylor, squared k times.
func oExp(x *big.Float, prec uint) *big.Float {
	if x.Sign() < 0 {
		e := oExp(oNew(prec).Neg(x), prec)
		return e.Quo(oNew(prec).SetInt64(1), e)
	}
	k := 0
	y := oNew(prec + 64).Set(x)
	for y.Cmp(big.NewFloat(0.25)) > 0 {
		y.Quo(y, big.NewFloat(2))
		k++
	}
	w := prec + 64 + uint(k)
	sum, term := oNew(w).SetInt64(1), oNew(w).SetInt64(1)
	for n := int64(1); n < 10000; n++ {
		term.Mul(term, y)
		term.Quo(term, oNew(w).SetInt64(n))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -int(w)-4 {
			break
		}
	}
	for range k {
		sum.Mul(sum, sum)
	}
	return sum
}

// oPhi is Φ(t).
func oPhi(t *big.Float) *big.Float {
	tf, _ := t.Float64()
	at := math.Abs(tf)
	if at <= 20 {
		prec := uint(oBits + at*at*0.75 + 64)
		sq := oNew(prec).Mul(oPiOnce(), big.NewFloat(2))
		sq.Sqrt(sq)
		t2 := oNew(prec).Mul(t, t)
		pow := oNew(prec).Set(t) // t^(2n+1)/(2^n n!)
		sum := oNew(prec)
		for n := int64(0); n < 100000; n++ {
			term := oNew(prec).Quo(pow, oNew(prec).SetInt64(2*n+1))
			if n%2 == 0 {
				sum.Add(sum, term)
			} else {
				sum.Sub(sum, term)
			}
			pow.Mul(pow, t2)
			pow.Quo(pow, oNew(prec).SetInt64(2*(n+1)))
			if n > int64(at*at) && (term.Sign() == 0 || term.MantExp(nil) < -int(prec)) {
				break
			}
		}
		sum.Quo(sum, sq)
		return sum.Add(sum, big.NewFloat(0.5))
	}
	prec := uint(oBits + 64)
	x := oNew(prec).Abs(t)
	x2 := oNew(prec).Mul(x, x)
	sum, term := oNew(prec).SetInt64(1), oNew(prec).SetInt64(1)
	for n := int64(1); ; n++ {
		next := oNew(prec).Mul(term, oNew(prec).SetInt64(2*n-1))
		next.Quo(next, x2)
		if next.Cmp(term) >= 0 || next.MantExp(nil) < -int(prec) {
			break
		}
		term = next
		if n%2 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
	}
	half := oNew(prec).Mul(x2, big.NewFloat(-0.5))
	dens := oExp(half, prec)
	sq := oNew(prec).Mul(oPiOnce(), big.NewFloat(2))
	sq.Sqrt(sq)
	dens.Quo(dens, sq)
	q := oNew(prec).Mul(dens, sum)
	q.Quo(q, x)
	if t.Sign() > 0 {
		// 1 − Q at a precision that keeps all of Q's digits.
		return oNew(prec+uint(-q.MantExp(nil))+8).Sub(big.NewFloat(1), q)
	}
	return q
}

// oQuantile is Φ⁻¹(a) by Newton's method on oPhi.
func oQuantile(a float64) *big.Float {
	const prec = oBits + 64
	// Start: the tail equation x² = −2 ln q − 2 ln x − ln 2π, iterated in float64.
	q := math.Min(a, 1-a)
	x := 1.0
	for range 50 {
		x = math.Sqrt(math.Max(-2*math.Log(q)-2*math.Log(math.Max(x, 1))-math.Log(2*math.Pi), 0))
	}
	if a < 0.5 {
		x = -x
	}
	z := oNew(prec).SetFloat64(x)
	fa := oNew(prec).SetFloat64(a)
	sq := oNew(prec).Mul(oPiOnce(), big.NewFloat(2))
	sq.Sqrt(sq)
	for range 12 {
		d := oNew(prec).Sub(fa, oPhi(z))
		e := oNew(prec).Mul(z, z)
		e.Quo(e, big.NewFloat(2))
		d.Mul(d, oExp(e, prec)) // (a − Φ(z))/φ(z)
		d.Mul(d, sq)
		z.Add(z, d)
		if d.Sign() == 0 || d.MantExp(nil) < -oBits-16 {
			break
		}
	}
	return z
}

// oShift is Φ(Φ⁻¹(a) + s).
func oShift(a, s float64) *big.Float {
	z := oQuantile(a)
	return oPhi(z.Add(z, oNew(oBits+64).SetFloat64(s)))
}

// oRound rounds x down (or up) to a float64, ok = false when x lies within 2^−250
// (relative) of a float64, where the oracle's accuracy could not decide.
func oRound(x *big.Float, down bool) (float64, bool) {
	eps := oNew(oBits).Abs(x)
	if x.Cmp(big.NewFloat(0.5)) > 0 { // the oracle knows 1 − x to that relative accuracy
		eps = oNew(x.Prec()).Sub(big.NewFloat(1), x)
	}
	eps.SetMantExp(eps, -250)
	w := x.Prec() + 64
	lo := oNew(w).Sub(x, eps)
	hi := oNew(w).Add(x, eps)
	r := func(v *big.Float) float64 {
		if down {
			return rd(v)
		}
		return BigUp(v)
	}
	return r(lo), r(lo) == r(hi)
}

// The oracle's own Φ agrees with known values: Φ(0) = 1/2, Φ(1), Φ(−5) and Φ(−25) to 20 digits
// (mpmath.ncdf at 30 digits), and π with the digits normal.go encloses.
func TestOracleSelfCheck(t *testing.T) {
	pi, _, _ := big.ParseFloat(piDigits, 10, 700, big.ToNearestEven)
	if d := oNew(700).Sub(pi, oPiOnce()); d.Sign() != 0 && d.MantExp(nil) > -640 {
		t.Fatalf("Machin's π and piDigits differ by %v", d)
	}
	for _, c := range []struct {
		t    float64
		want string
	}{{0, "0.5"}, {1, "0.841344746068542948585232545632"}, {-5, "2.86651571879193911673752332875e-7"}, {-25, "3.05669670638256091640274867126e-138"}} {
		got := oPhi(big.NewFloat(c.t))
		want, _, _ := big.ParseFloat(c.want, 10, 200, big.ToNearestEven)
		rel := oNew(200).Sub(got, want)
		rel.Quo(rel, want)
		if r, _ := rel.Float64(); math.Abs(r) > 1e-19 {
			t.Errorf("oracle Φ(%v) = %v, table %v", c.t, got.Text('g', 25), c.want)
		}
	}
}

var (
	gdpMus    = []float64{1e-4, 0.01, 0.5, 1, 2.5, 7, 20, 40}
	gdpPoints = []float64{1e-300, 1e-200, 1e-50, 1e-10, 0.001, 0.1, 0.3, 0.5, 0.7, 0.95, 1 - 1e-6, 1 - 1e-12, 1 - 1e-16}
)

// Upper and Lower of μ-GDP are exactly RD(Φ(Φ⁻¹(a) + μ)) and RU(Φ(Φ⁻¹(a) − μ)) for μ
// over [1e-4, 40] and a over [1e-300, 1 − 1e-16], by the oracle.
func TestGDPBoundsMatchOracle(t *testing.T) {
	mus, pts := gdpMus, gdpPoints
	if testing.Short() {
		mus, pts = []float64{1e-4, 1, 40}, []float64{1e-300, 0.1, 0.5, 1 - 1e-16}
	}
	undecided := 0
	for _, mu := range mus {
		p, err := NewGDP(mu)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range pts {
			if want, ok := oRound(oShift(a, mu), true); !ok {
				undecided++
			} else if got := max(want, a); p.Upper(a) != got {
				t.Errorf("μ = %v: Upper(%v) = %v, oracle RD(U*) = %v", mu, a, p.Upper(a), got)
			}
			if want, ok := oRound(oShift(a, -mu), false); !ok {
				undecided++
			} else if got := min(want, a); p.Lower(a) != got {
				t.Errorf("μ = %v: Lower(%v) = %v, oracle RU(L*) = %v", mu, a, p.Lower(a), got)
			}
		}
	}
	if undecided > 2 {
		t.Errorf("the oracle could not decide %d roundings", undecided)
	}
}

// U^d(a) = Φ(Φ⁻¹(a) + d·μ) in z space: the engines' iterated, rounded-down steps stay
// at or below it (each step is below the real one, and U* is increasing) and within
// a relative 1e-12 of it (the roundings lose an ulp or so per hop).
func TestGDPIterateMatchesZSpace(t *testing.T) {
	for _, mu := range []float64{1e-4, 0.3, 1, 4} {
		p, _ := NewGDP(mu)
		for _, a := range []float64{1e-300, 1e-20, 0.01, 0.4} {
			for _, d := range []int{1, 2, 5} {
				got := p.Iterate(d, a)
				real := oShift(a, float64(d)*mu)
				if new(big.Float).SetFloat64(got).Cmp(real) > 0 {
					t.Errorf("μ = %v, a = %v, d = %d: iterated %v above U^d = %v", mu, a, d, got, real.Text('g', 20))
				}
				r, _ := real.Float64()
				if r < 1 && (r-got)/r > 1e-12 {
					t.Errorf("μ = %v, a = %v, d = %d: iterated %v far below U^d = %v", mu, a, d, got, r)
				}
			}
		}
	}
}

// The balanced value of μ-GDP is RD(Φ(μ/2)), and the generic bisection (fixedPoint)
// over the exact Upper finds the same float64.
func TestGDPBalanced(t *testing.T) {
	for _, mu := range []float64{1e-4, 0.5, 1, 3, 12} {
		p, _ := NewGDP(mu)
		want, ok := oRound(oPhi(big.NewFloat(mu/2)), true)
		if !ok {
			continue
		}
		if got := p.Balanced(); got != want {
			t.Errorf("μ = %v: Balanced = %v, oracle RD(Φ(μ/2)) = %v", mu, got, want)
		}
		if got := fixedPoint(p.Upper); got != want {
			t.Errorf("μ = %v: fixedPoint = %v, oracle %v", mu, got, want)
		}
	}
}
