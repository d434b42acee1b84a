package optimize

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The directed roundings are the exact result rounded up (down): checked against
// math/big on random operands of every sign and scale, including exact cases.
func TestDirectedRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	val := func() float64 {
		switch r.IntN(4) {
		case 0:
			return float64(r.IntN(9) - 4) // small integers: exact results
		case 1:
			return r.Float64()
		default:
			return (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(80)-40)
		}
	}
	exact := func(op string, a, b float64) *big.Float {
		x, y := new(big.Float).SetPrec(2200).SetFloat64(a), new(big.Float).SetPrec(2200).SetFloat64(b)
		if op == "+" {
			return x.Add(x, y)
		}
		return x.Mul(x, y)
	}
	check := func(name string, got float64, want *big.Float, up bool) {
		g := new(big.Float).SetFloat64(got)
		c := g.Cmp(want)
		var next float64
		if up {
			next = math.Nextafter(got, math.Inf(-1))
		} else {
			next = math.Nextafter(got, math.Inf(1))
		}
		n := new(big.Float).SetFloat64(next).Cmp(want)
		if up && (c < 0 || n >= 0) || !up && (c > 0 || n <= 0) {
			t.Fatalf("%s = %v is not the exact %v rounded %s", name, got, want.Text('g', 30), map[bool]string{true: "up", false: "down"}[up])
		}
	}
	for range 200000 {
		a, b := val(), val()
		check("addUp", addUp(a, b), exact("+", a, b), true)
		check("addDown", addDown(a, b), exact("+", a, b), false)
		if p := exact("*", a, b); p.Sign() == 0 || math.Abs(a*b) > 0x1p-900 {
			check("mulUp", mulUp(a, b), p, true)
			check("mulDown", mulDown(a, b), p, false)
		}
	}
}

// certifiedUpper is a bound for every y, not only for good ones: on random
// instances, with and without floors, and random multipliers it is at least the
// exact LP optimum.
func TestUpperBoundAnyMultipliers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	tight := 0
	for i := range 200 {
		in := randomInstance(t, r, 2+r.IntN(8))
		lp := newExactLP(in.p.G.N(), in.edges, in.p.Answer, in.weights, in.e, in.dlt)
		var f Floors
		if i%2 == 1 { // floors: the box of the certificate (bound.go)
			f = Floors{testFloors[r.IntN(len(testFloors))], testFloors[r.IntN(len(testFloors))]}
			lp.floors(in.p.Answer, new(big.Rat).SetFloat64(f[0]), new(big.Rat).SetFloat64(f[1]))
		}
		ok, exact, _ := lp.solveFeasible()
		if !ok {
			continue
		}
		opt := ratFloat(exact)
		lines, _ := frameworkLines(in.p.Pair, 0, nil)
		m, err := newLP(t.Context(), in.p, lines, f, 1)
		if err != nil {
			t.Fatal(err)
		}
		y := make([]float64, len(in.p.G.Adj))
		for k := range y {
			y[k] = (r.Float64() - 0.5) * math.Ldexp(1, r.IntN(6))
		}
		ub, err := certifiedUpper(t.Context(), m, y)
		if err != nil {
			t.Fatal(err)
		}
		if ub < opt-1e-12*max(1, opt) {
			t.Fatalf("instance %d: bound %v below the exact optimum %v", i, ub, opt)
		}
		// And for nearly optimal multipliers (PDHG's), where every term of the
		// bound is close to tight and a wrong one shows.
		x0 := make([]float64, in.p.G.N())
		for v := range x0 {
			x0[v] = 0.5
		}
		s := newPDHG(m, x0)
		for s.iters < 4096 {
			if err := s.step(t.Context()); err != nil {
				t.Fatal(err)
			}
			if s.iters%checkEvery == 0 {
				if err := s.check(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
		}
		if ub, err = certifiedUpper(t.Context(), m, s.bestY); err != nil {
			t.Fatal(err)
		}
		if ub < opt-1e-12*max(1, opt) || ub > opt+1e-6*max(1, opt) {
			t.Fatalf("instance %d (floors %v): bound %v from PDHG's multipliers, exact optimum %v", i, f, ub, opt)
		}
		tight++
	}
	if tight < 150 {
		t.Errorf("only %d instances checked at nearly optimal multipliers", tight)
	}
}
