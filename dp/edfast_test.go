package dp

import (
	"math"
	"math/big"
	"testing"
)

// affineConsts are the four constants of a pair as affine receives them, with their
// values from the oracle (internal/oracle, sharing no code with dp).
func affineConsts(p EpsDelta) ([]xf, []*big.Float) {
	e := oracleExp(p.Epsilon)
	ie := onew().Quo(ofl(1), e)
	em1 := onew().Sub(e, ofl(1))
	iem1 := onew().Sub(ofl(1), ie)
	neg := func(x *big.Float) *big.Float { return onew().Neg(x) }
	return []xf{p.eps, p.ieps, p.em1, p.iem1, p.eps.neg(), p.ieps.neg(), p.em1.neg(), p.iem1.neg()},
		[]*big.Float{e, ie, em1, iem1, neg(e), neg(ie), neg(em1), neg(iem1)}
}

// affine's xf encloses the real a1 + a2 + (b1 + b2 + b3)·K (|X − (hi + lo)| ≤ err,
// measured with the oracle's 2400-bit constants), with hi = RN(hi + lo), and its
// bound is tight enough to be of use (err below 2^−90 of the inputs' scale): over
// the argument shapes the bounds use (a, δ, 1 − a − δ, a − δ, 1 − a) and random
// a1, a2, b's, ε from 10^−12 to 250.
func TestAffineEncloses(t *testing.T) {
	x := uint64(11)
	rnd := func() float64 {
		x = x*6364136223846793005 + 1442695040888963407
		u := float64(x>>11) / (1 << 53)
		switch x >> 7 % 4 {
		case 0:
			return u
		case 1:
			return math.Ldexp(u, -int(x>>40%300))
		case 2:
			return 1 - math.Ldexp(u, -int(x>>40%52))
		}
		return -u
	}
	checked := 0
	for _, eps := range []float64{1e-12, 1e-6, 0.001, 0.1, 0.5, 1, 3, 20, 250} {
		for _, delta := range []float64{0, 1e-9, 1e-6, 0.3} {
			p, err := NewEpsDelta(eps, delta)
			if err != nil || !p.fast {
				t.Fatalf("ε=%v δ=%v: %v, fast %v", eps, delta, err, p.fast)
			}
			ks, kv := affineConsts(p)
			for range 400 {
				a := rnd()
				args := [][5]float64{{p.Delta, 0, math.Abs(a), 0, 0}, {a, p.Delta, 1, -a, -p.Delta}, {1, 0, 1, -a, -p.Delta},
					{a, -p.Delta, 1, -a, 0}, {1, -p.Delta, 1, -a, 0}, {a, -p.Delta, a, -p.Delta, 0}, {0, 0, a, -p.Delta, 0},
					{rnd(), rnd(), rnd(), rnd(), rnd()}}
				for _, g := range args {
					for i, k := range ks {
						r, ok := affine(g[0], g[1], g[2], g[3], g[4], k)
						if !ok {
							continue
						}
						checked++
						want := onew().Add(ofl(g[2]), ofl(g[3]))
						want.Add(want, ofl(g[4]))
						want.Mul(want, kv[i])
						want.Add(want, ofl(g[0]))
						want.Add(want, ofl(g[1]))
						got := onew().Add(ofl(r.hi), ofl(r.lo))
						diff := onew().Sub(want, got)
						diff.Abs(diff)
						if diff.Cmp(ofl(r.err)) > 0 {
							t.Fatalf("ε=%v δ=%v affine%v·K%d: |X − (hi+lo)| = %g > err %g", eps, delta, g, i, diff, r.err)
						}
						if r.hi != r.hi+r.lo {
							t.Fatalf("affine%v: hi %v is not RN(hi + lo), lo %v", g, r.hi, r.lo)
						}
						scale := math.Abs(g[0]) + math.Abs(g[1]) + (math.Abs(g[2])+math.Abs(g[3])+math.Abs(g[4]))*math.Abs(k.hi)
						if r.err > 0x1p-90*scale+0x1p-1000 {
							t.Fatalf("ε=%v δ=%v affine%v·K%d: err %g, too loose for the scale %g", eps, delta, g, i, r.err, scale)
						}
					}
				}
			}
		}
	}
	if checked < 100000 {
		t.Fatalf("only %d forms checked", checked)
	}
}

// Where the fast path decides, it returns exactly RD(U*(a)) and RU(L*(a)) (the
// oracle's), the general double-double path's value; and it decides nearly always
// on values away from 0 (its reason to exist). Points: testPoints (ends, switch
// points, subnormals, random) and values as on a path of slowly rising p_true.
func TestFastPathIsCertified(t *testing.T) {
	for _, eps := range oracleEpsilons {
		for _, delta := range oracleDeltas {
			pp := mustPair(t, eps, delta)
			p := pp.ed
			pts := testPoints(pp, 60, math.Float64bits(eps)^math.Float64bits(delta)^3)
			for i := range 40 {
				pts = append(pts, 0.5+float64(i)*1.37e-7, p.Upper(0.5+float64(i)*1.37e-7))
			}
			decided, away := 0, 0
			for _, a := range pts {
				u, oku := p.upperFast(a)
				l, okl := p.lowerFast(a)
				if oku && u != rd(oracleU(eps, delta, a)) {
					t.Fatalf("ε=%v δ=%v: upperFast(%v) = %v, exact RD(U*) = %v", eps, delta, a, u, rd(oracleU(eps, delta, a)))
				}
				if okl && l != BigUp(oracleL(eps, delta, a)) {
					t.Fatalf("ε=%v δ=%v: lowerFast(%v) = %v, exact RU(L*) = %v", eps, delta, a, l, BigUp(oracleL(eps, delta, a)))
				}
				if oku {
					if d, ok := p.upperDD(a); ok && d != u {
						t.Fatalf("ε=%v δ=%v: upperFast(%v) = %v, upperDD %v", eps, delta, a, u, d)
					}
				}
				if okl {
					if d, ok := p.lowerDD(a); ok && d != l {
						t.Fatalf("ε=%v δ=%v: lowerFast(%v) = %v, lowerDD %v", eps, delta, a, l, d)
					}
				}
				if a > 0x1p-30 && a < 1-0x1p-30 {
					away += 2
					if oku {
						decided++
					}
					if okl {
						decided++
					}
				}
			}
			if p.fast && decided < away*9/10 {
				t.Errorf("ε=%v δ=%v: the fast path decided %d of %d bounds away from 0 and 1", eps, delta, decided, away)
			}
			if !p.fast && decided > 0 {
				t.Errorf("ε=%v δ=%v: out of the fast path's range, yet it decided %d", eps, delta, decided)
			}
		}
	}
}

// floorNear and ceilNear are floor and ceil (value and whether decided) on
// double-doubles around every kind of hi: powers of two of both signs, their
// neighbours, random values, 0, tiny and huge ones; lo within half a gap of hi,
// err from 0 to beyond the decidable.
func TestFloorNearIsFloor(t *testing.T) {
	x := uint64(5)
	next := func() uint64 { x = x*6364136223846793005 + 1442695040888963407; return x }
	his := []float64{0, 1, -1, 0.5, -0.5, 2, 0x1p-1000, 0x1p-1001, 0x1p1000, 0x1p1001, -0x1p-1000, 5e-324, 1e300}
	for range 300 {
		r := next()
		h := math.Ldexp(float64(r>>11)/(1<<53)+0.5, int(r>>5%64)-32)
		if r&1 == 1 {
			h = -h
		}
		his = append(his, h, math.Nextafter(h, 0), math.Nextafter(h, math.Inf(1)))
	}
	checked := 0
	for _, h := range his {
		gap := math.Min(math.Nextafter(h, math.Inf(1))-h, h-math.Nextafter(h, math.Inf(-1)))
		for range 40 {
			r := next()
			lo := (float64(r>>11)/(1<<53) - 0.5) * gap
			if r&3 == 0 {
				lo = 0
			}
			if h+lo != h {
				continue
			}
			err := 0.0
			switch r >> 2 & 3 {
			case 1:
				err = math.Abs(lo) * float64(r>>20%3) / 2 // below, at or above |lo|
			case 2:
				err = gap * float64(r>>20%5) / 16 // around gap/4
			case 3:
				err = 0x1p-1060
			}
			v := xf{h, lo, err}
			f1, ok1 := v.floor()
			f2, ok2 := v.floorNear()
			c1, okc1 := v.ceil()
			c2, okc2 := v.ceilNear()
			if ok1 != ok2 || ok1 && f1 != f2 || okc1 != okc2 || okc1 && c1 != c2 {
				t.Fatalf("%+v: floor %v %v, floorNear %v %v; ceil %v %v, ceilNear %v %v", v, f1, ok1, f2, ok2, c1, okc1, c2, okc2)
			}
			checked++
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d checked", checked)
	}
}
