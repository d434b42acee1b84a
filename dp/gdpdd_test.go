package dp

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// inBall reports whether the real v lies in x's ball, exactly (big.Float).
func inBall(x xf, v *big.Float) bool {
	c := exactSum(x.hi, x.lo)
	d := new(big.Float).SetPrec(exactBits).Sub(v, c)
	return d.Abs(d).Cmp(new(big.Float).SetFloat64(x.err)) <= 0
}

// The fast path's Φ and e^(−v) hold the oracle's values (oPhi, oExp: ≥ 320 bits,
// no code shared) in their balls, on points across the whole range, and the balls
// are narrow (relative 2^−80 of Φ where Φ is not deep in the subnormal range).
func TestPhiDDEnclosesOracle(t *testing.T) {
	xs := []float64{0, 1e-60, 1e-20, 0.3, -0.3, 1, -2, 2.2499, 3.7, -4.4999, -4.5001, 4.6, 6.9, 7.1, -8, 9, -12.5, -20, 25, -30, -37.5}
	rng := rand.New(rand.NewPCG(26, 11))
	for range 20 {
		xs = append(xs, (rng.Float64()*2-1)*37)
	}
	for _, x := range xs {
		for _, lo := range []float64{0, x * 0x1p-60} { // a point, and a double-double one
			arg := xf{x, lo, 0}
			if lo != 0 {
				arg.hi, arg.lo = twoSum(x, lo)
			}
			v, d, ok := phiDD(arg)
			if !ok {
				t.Errorf("phiDD(%v + %v) undecided", x, lo)
				continue
			}
			at := exactSum(arg.hi, arg.lo)
			if want := oPhi(at); !inBall(v, want) {
				t.Errorf("Φ(%v + %v) = %v not in the ball %+v", x, lo, want.Text('g', 30), v)
			}
			if r := v.err / math.Abs(v.hi); x > -30 && !(r < 0x1p-80) {
				t.Errorf("Φ(%v): ball of relative width %g", x, r)
			}
			e := oNew(oBits).Mul(at, at)
			e.Quo(e, big.NewFloat(-2))
			dens := oExp(e, oBits)
			sq := oNew(oBits).Mul(oPiOnce(), big.NewFloat(2))
			dens.Quo(dens, sq.Sqrt(sq))
			if !inBall(d, dens) {
				t.Errorf("φ(%v + %v) = %v not in the ball %+v", x, lo, dens.Text('g', 30), d)
			}
		}
	}
}

// The balls of a wide argument hold Φ at its ends too (ball semantics, not point).
func TestPhiDDWideBall(t *testing.T) {
	for _, x := range []float64{-30, -5, -1, 0.5, 3, 8} {
		arg := xf{x, 0, 1e-20}
		v, _, ok := phiDD(arg)
		if !ok {
			t.Fatalf("phiDD(%v ± 1e-20) undecided", x)
		}
		for _, end := range []float64{-1e-20, 1e-20} {
			if p := oPhi(exactSum(x, end)); !inBall(v, p) {
				t.Errorf("Φ(%v %+g) = %v outside the ball %+v", x, end, p.Text('g', 25), v)
			}
		}
	}
}

// quo, hull and scaled keep their balls: checked against math/big on random balls.
func TestBallOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	for range 2000 {
		x := xf{rng.NormFloat64(), rng.NormFloat64() * 0x1p-60, math.Abs(rng.NormFloat64()) * 0x1p-100}
		x.hi, x.lo = twoSum(x.hi, x.lo)
		y := xf{rng.NormFloat64() + 3, rng.NormFloat64() * 0x1p-60, math.Abs(rng.NormFloat64()) * 0x1p-100}
		y.hi, y.lo = twoSum(y.hi, y.lo)
		q, ok := quo(x, y)
		if !ok {
			t.Fatalf("quo(%+v, %+v) refused", x, y)
		}
		for _, sx := range []float64{-1, 1} {
			for _, sy := range []float64{-1, 1} {
				// the ends of both balls: X/Y is monotone in each on them
				X := exactSum(x.hi, x.lo, sx*x.err)
				Y := exactSum(y.hi, y.lo, sy*y.err)
				if v := new(big.Float).SetPrec(400).Quo(X, Y); !inBall(q, v) {
					t.Fatalf("quo: %v/%v = %v outside %+v", X, Y, v, q)
				}
			}
		}
		h := hull(x, y)
		for _, s := range []float64{-1, 1} {
			if !inBall(h, exactSum(x.hi, x.lo, s*x.err)) || !inBall(h, exactSum(y.hi, y.lo, s*y.err)) {
				t.Fatalf("hull(%+v, %+v) = %+v misses an end", x, y, h)
			}
		}
		k := -1000 - rng.IntN(100) // into the subnormals: parts are lost, err must grow
		s := x.scaled(k)
		for _, e := range []float64{-1, 1} {
			v := exactSum(x.hi, x.lo, e*x.err)
			v.SetMantExp(v, k)
			if !inBall(s, v) {
				t.Fatalf("scaled(%+v, %d) = %+v misses %v", x, k, s, v)
			}
		}
	}
	if _, ok := quo(exact(1), xf{1e-30, 0, 1e-29}); ok {
		t.Errorf("quo by a ball holding 0 was not refused")
	}
}

// gdpGrid is the fast path's test domain: μ over [1e-4, 40], a over
// [1e-300, 1 − 1e-16] (fixed points, and seeded random ones, log-spaced in both
// tails).
func gdpGrid(short bool) (mus, as []float64) {
	mus = []float64{1e-4, 0.003, 0.1, 0.5, 1, 2.5, 7, 20, 40}
	as = []float64{1e-300, 1e-250, 1e-100, 1e-20, 1e-5, 0.001, 0.1, 0.3, 0.5, 0.5 + 0x1p-50, 0.7, 0.95, 1 - 1e-6, 1 - 1e-12, 1 - 1e-16}
	rng := rand.New(rand.NewPCG(26, 1))
	for range 6 {
		as = append(as, math.Pow(10, -300*rng.Float64()), 1-math.Pow(10, -16*rng.Float64()), rng.Float64())
	}
	if short {
		return []float64{1e-4, 1, 40}, as[:15]
	}
	return mus, as
}

// The fast path is exact: wherever it decides, its result is the oracle's RD(U*)
// (RU(L*)), so on the safe side of the real bound and equal to the math/big path's;
// where the oracle cannot decide, it is at least on the safe side. It leaves few
// bounds to math/big: none away from the extreme tails.
func TestShiftedDDMatchesOracle(t *testing.T) {
	mus, as := gdpGrid(testing.Short())
	n, fallbacks := 0, 0
	for _, mu := range mus {
		for _, a := range as {
			for _, s := range []float64{mu, -mu} {
				down := s > 0
				n++
				got, ok := shiftedDD(a, s, down)
				real := oShift(a, s)
				if !ok {
					fallbacks++
					// Only the extreme tails may fall back: a result below 1e-280, or a
					// beyond 1e-280 from 0.
					if f, _ := real.Float64(); f > 1e-280 && a > 1e-280 {
						t.Errorf("μ = %v, a = %v, s = %v: fell back (bound %v)", mu, a, s, f)
					}
					continue
				}
				if c := new(big.Float).SetFloat64(got).Cmp(real); down && c > 0 || !down && c < 0 {
					t.Errorf("μ = %v, a = %v, s = %v: %v on the unsafe side of %v", mu, a, s, got, real.Text('g', 25))
				}
				if want, decided := oRound(real, down); decided && got != want {
					t.Errorf("μ = %v, a = %v, s = %v: %v, oracle %v", mu, a, s, got, want)
				}
			}
		}
	}
	t.Logf("%d bounds, %d left to math/big", n, fallbacks)
	if fallbacks*10 > n {
		t.Errorf("%d of %d bounds fell back", fallbacks, n)
	}
}

// The grid's slots: every point gridAround can return has its own slot in range, so
// the lock-free table serves each grid point's own bound; and a gdp pair's safe
// bounds are the exact bounds at the grid points around a.
func TestGridSlots(t *testing.T) {
	seen, values := map[int]float64{}, map[float64]bool{}
	check := func(v float64) {
		values[v] = true
		s := gridSlot(v)
		if s < 0 || s >= gridSlots {
			t.Fatalf("gridSlot(%v) = %d out of range", v, s)
		}
		if w, ok := seen[s]; ok && w != v {
			t.Fatalf("gridSlot(%v) = gridSlot(%v) = %d", v, w, s)
		}
		seen[s] = v
	}
	for _, a := range append(randomPoints(5000, 7), math.NaN(), 2, -1) {
		gl, gh := gridAround(a)
		check(gl)
		check(gh)
	}
	for i := range 1025 {
		check(float64(i) / 1024)
	}
	for k := 11; k <= 60; k++ {
		check(math.Ldexp(1, -k))
		check(1 - math.Ldexp(1, -k))
	}
	if len(seen) != len(values) { // 1 − 2^−k is 1 for k > 53: a few slots stay unused
		t.Errorf("%d slots for %d grid points", len(seen), len(values))
	}
	p, _ := NewGDP(0.7)
	g := p.fw.(*gdp)
	for _, a := range []float64{1e-30, 0.0004, 0.3, 0.9995, 1 - 1e-17} {
		gl, gh := gridAround(a)
		for range 2 { // computed, then from the table
			lo, up := p.SafeBounds(a)
			if lo != g.lower(gh) || up != g.upper(gl) {
				t.Errorf("SafeBounds(%v) = %v, %v; bounds at the grid %v, %v", a, lo, up, g.lower(gh), g.upper(gl))
			}
		}
	}
}

// On random points (μ log-uniform in [1e-4, 40], a log-uniform in both tails and
// uniform in the middle) the fast path gives bit for bit the math/big path's bound
// wherever it decides, and decides all but the extreme tails.
func TestShiftedDDAgreesWithBig(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	rng := rand.New(rand.NewPCG(26, 29))
	g := &gdp{}
	fallbacks := 0
	for i := range n {
		mu := math.Pow(10, -4+rng.Float64()*math.Log10(4e5))
		var a float64
		switch i % 3 {
		case 0:
			a = math.Pow(10, -300*rng.Float64())
		case 1:
			a = 1 - math.Pow(10, -16*rng.Float64())
		default:
			a = rng.Float64()
		}
		if !(a > 0 && a < 1) {
			continue
		}
		for _, s := range []float64{mu, -mu} {
			got, ok := shiftedDD(a, s, s > 0)
			if !ok {
				fallbacks++
				continue
			}
			if want := g.shiftedBig(a, s, s > 0, false); got != want {
				t.Errorf("μ = %v, a = %v, s = %v: fast %v, math/big %v", mu, a, s, got, want)
			}
		}
	}
	t.Logf("%d bounds, %d left to math/big", 2*n, fallbacks)
	if fallbacks*10 > 2*n {
		t.Errorf("%d of %d bounds fell back", fallbacks, 2*n)
	}
}
