package dp

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// oDelta is the oracle's δ(ε) of μ-GDP: Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2), in math/big
// from the oracle's own Φ and e^x (gdp_oracle_test.go), sharing no code with GDPDelta.
func oDelta(mu, eps float64) *big.Float {
	const prec = 300
	m, e := oNew(prec).SetFloat64(mu), oNew(prec).SetFloat64(eps)
	q := oNew(prec).Quo(e, m)
	h := oNew(prec).Quo(m, big.NewFloat(2))
	t1 := oNew(prec).Sub(h, q)
	t2 := oNew(prec).Neg(q)
	t2.Sub(t2, h)
	d := oNew(prec).Mul(oExp(e, prec), oPhi(t2))
	return d.Sub(oPhi(t1), d)
}

// TestGDPDeltaMatchesOracle: GDPDelta is at or above the oracle's δ(ε) and within a
// relative 1e-9 (or 1e-300 absolute) of it, over μ in [1e-3, 20] and ε in [0, 50];
// and the known values: μ = 0 gives 0, ε = 0 gives 2Φ(μ/2) − 1.
func TestGDPDeltaMatchesOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	for i := range 120 {
		mu := math.Pow(10, -3+math.Log10(20e3)*r.Float64())
		eps := 50 * r.Float64() * r.Float64()
		if i%10 == 0 {
			eps = 0
		}
		got, err := GDPDelta(mu, eps)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := oDelta(mu, eps).Float64()
		want = max(want, 0)
		if got < want || got > want*(1+1e-9)+1e-300 {
			t.Errorf("μ = %v, ε = %v: GDPDelta %v, oracle %v", mu, eps, got, want)
		}
	}
	if d, _ := GDPDelta(0, 1); d != 0 {
		t.Errorf("μ = 0: δ = %v", d)
	}
	for _, bad := range [][2]float64{{-1, 1}, {1, -1}, {math.NaN(), 1}, {1, math.Inf(1)}, {MaxMu * 2, 1}} {
		if _, err := GDPDelta(bad[0], bad[1]); err == nil {
			t.Errorf("GDPDelta%v: no error", bad)
		}
	}
}

// TestGDPTangentMatchesOracle: the tangent of slope c is above U* and touches it:
// at the oracle's tangent point z* = −(ln c + μ²/2)/μ (float64 estimate, then U* and
// the line compared with the oracle's Φ), c·Φ(z*) + d − Φ(z* + μ) is ≥ −1e-15 at
// many points around z* and ≤ 1e-12 at z* itself.
func TestGDPTangentMatchesOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 4))
	for range 60 {
		mu := math.Pow(10, -2+3*r.Float64())
		c := math.Pow(10, -6+12*r.Float64())
		d, err := GDPTangent(mu, c)
		if err != nil {
			t.Fatal(err)
		}
		z := -(math.Log(c) + mu*mu/2) / mu
		gap := func(z float64) float64 {
			v := oNew(300).Mul(big.NewFloat(c), oPhi(big.NewFloat(z)))
			v.Add(v, big.NewFloat(d))
			v.Sub(v, oPhi(big.NewFloat(z+mu)))
			f, _ := v.Float64()
			return f
		}
		if g := gap(z); g > 1e-12 || g < 0 {
			t.Errorf("μ = %v, c = %v: at the tangent point the line is %v above U*", mu, c, g)
		}
		for _, dz := range []float64{-1, -0.1, -1e-4, 1e-4, 0.1, 1} {
			if g := gap(z + dz); g < 0 {
				t.Errorf("μ = %v, c = %v: the tangent is below U* by %v at z* + %v", mu, c, -g, dz)
			}
		}
	}
	for _, bad := range [][2]float64{{0, 1}, {1, 0}, {1, -1}, {1, math.Inf(1)}, {math.NaN(), 1}} {
		if _, err := GDPTangent(bad[0], bad[1]); err == nil {
			t.Errorf("GDPTangent%v: no error", bad)
		}
	}
}

// TestGDPEpsilon: the ε returned is a true guarantee (the oracle's δ(ε) ≤ δ) and
// nearly the smallest (the oracle's δ just below it exceeds δ); μ = 1, δ = 1e-6 gives
// the README's 4.8866 when rounded up.
func TestGDPEpsilon(t *testing.T) {
	for _, c := range [][2]float64{{1, 1e-6}, {0.5, 1e-5}, {2, 1e-3}, {0.1, 1e-9}, {5, 1e-6}} {
		e, err := GDPEpsilon(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		at, _ := oDelta(c[0], e).Float64()
		below, _ := oDelta(c[0], e*(1-1e-9)).Float64()
		if at > c[1] || below <= c[1] {
			t.Errorf("μ = %v, δ = %v: ε = %v has oracle δ %v, and δ %v just below it", c[0], c[1], e, at, below)
		}
	}
	if e, _ := GDPEpsilon(1, 1e-6); math.Ceil(e*1e4)/1e4 != 4.8866 {
		t.Errorf("GDPEpsilon(1, 1e-6) = %v, README says 4.8866 rounded up", e)
	}
	if _, err := GDPEpsilon(1, 0); err == nil {
		t.Error("δ = 0: no error")
	}
}
