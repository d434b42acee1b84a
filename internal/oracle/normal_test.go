package oracle

import (
	"math"
	"math/big"
	"testing"
)

func parse(t *testing.T, s string) *big.Float {
	t.Helper()
	x, _, err := big.ParseFloat(s, 10, 400, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// relErr is |x − y|/|y| as a float64.
func relErr(x, y *big.Float) float64 {
	d := nf(max(x.Prec(), y.Prec())+64).Sub(x, y)
	d.Quo(d, y)
	f, _ := d.Float64()
	return math.Abs(f)
}

// π from the AGM against its digits (50 of them, from any table).
func TestPi(t *testing.T) {
	want := parse(t, "3.14159265358979323846264338327950288419716939937510")
	if e := relErr(Pi(400), want); e > 1e-49 {
		t.Fatalf("π = %s (rel. error %g)", Pi(400).Text('g', 55), e)
	}
}

// Φ against values published to 30 digits (mpmath.ncdf at 30 digits, as in
// dp/gdp_oracle_test.go): Φ(1), Φ(−5), Φ(−25).
func TestPhiTable(t *testing.T) {
	for _, c := range []struct {
		z    float64
		want string
	}{{0, "0.5"}, {1, "0.841344746068542948585232545632"}, {-5, "2.86651571879193911673752332875e-7"},
		{-25, "3.05669670638256091640274867126e-138"}} {
		got := Phi(big.NewFloat(c.z))
		if e := relErr(got, parse(t, c.want)); e > 1e-29 {
			t.Errorf("Φ(%v) = %s, table %s (rel. error %g)", c.z, got.Text('g', 32), c.want, e)
		}
	}
}

// The two methods for Φ(−t) agree where both are valid (t from 5 to 9.5; the series
// at the precision its cancellation needs), and the continued fraction agrees with
// the asymptotic series of Mills' ratio (error below its smallest term, e^(−t²/2))
// at t = 25 and 38.
func TestPhiMethodsAgree(t *testing.T) {
	for _, tf := range []float64{5, 7, 9, 9.5} {
		x := big.NewFloat(tf)
		s, f := tailSeries(x, tf, NormalBits), tailFraction(x, NormalBits)
		if e := relErr(s, f); e > math.Ldexp(1, -NormalBits+4) {
			t.Errorf("t = %v: series %s, fraction %s (rel. %g)", tf, s.Text('g', 30), f.Text('g', 30), e)
		}
	}
	for _, tf := range []float64{25, 38} {
		x := nf(NormalBits + 64).SetFloat64(tf)
		x2 := nf(NormalBits+64).Mul(x, x)
		sum, term := nf(NormalBits+64).SetInt64(1), nf(NormalBits+64).SetInt64(1)
		for n := int64(1); n < int64(tf*tf/2); n++ {
			term.Mul(term, nf(64).SetInt64(-(2*n - 1)))
			term.Quo(term, x2)
			sum.Add(sum, term)
		}
		want := density(x, NormalBits+64)
		want.Quo(want, x).Mul(want, sum)
		if e := relErr(tailFraction(x, NormalBits), want); e > max(math.Exp(-tf*tf/2)*10, math.Ldexp(1, -NormalBits+4)) {
			t.Errorf("t = %v: fraction and asymptotic series differ by %g", tf, e)
		}
	}
}

// Φ(Φ⁻¹(a)) = a to NormalBits, in both tails and the middle, and Φ⁻¹(1 − a) = −Φ⁻¹(a).
func TestQuantileRoundTrip(t *testing.T) {
	for _, a := range []float64{1e-300, 5e-324, 1e-100, 1e-17, 0x1p-53, 1e-6, 0.01, 0.3, 0.5, 0.7, 1 - 1e-9, 1 - 0x1p-53} {
		x := F(a)
		z := Quantile(x)
		if e := relErr(Phi(z), x); e > math.Ldexp(1, -NormalBits+24) {
			t.Errorf("Φ(Φ⁻¹(%v)) off by %g", a, e)
		}
		if c := OneMinus(x); a != 0.5 {
			if e := relErr(Phi(nf(z.Prec()).Neg(z)), c); e > math.Ldexp(1, -NormalBits+24) {
				t.Errorf("1 − Φ(Φ⁻¹(%v)) off by %g", a, e)
			}
		}
	}
}

// Φ⁻¹(Φ(z)) = z far into both tails (Φ(300) is 1 − 10^-19547, held exactly).
func TestQuantileOfPhi(t *testing.T) {
	for _, zf := range []float64{-300, -40, -8.5, -1e-3, 0.1, 9.5, 40, 300} {
		z := big.NewFloat(zf)
		if e := relErr(Quantile(Phi(z)), z); e > math.Ldexp(1, -NormalBits+24) {
			t.Errorf("Φ⁻¹(Φ(%v)) off by %g", zf, e)
		}
	}
}

func BenchmarkPhi(b *testing.B) {
	for _, z := range []float64{-0.5, -3, -6, -8, -9, -9.5, -12, -20, -37} {
		b.Run(big.NewFloat(z).String(), func(b *testing.B) {
			x := big.NewFloat(z)
			for range b.N {
				Phi(x)
			}
		})
	}
}

func BenchmarkQuantile(b *testing.B) {
	for _, a := range []float64{0.3, 1e-5, 1e-20, 1e-300} {
		b.Run(big.NewFloat(a).String(), func(b *testing.B) {
			x := F(a)
			for range b.N {
				Quantile(x)
			}
		})
	}
}
