package optimize

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The pointwise certificate (pointwise.go) is an upper bound on the exact LP's
// optimum (the exact rational simplex of simplex_test.go) for random floors, and at
// the default floors (α, α) it equals the balanced α's utility within 1e-12: the
// cheap exact certificate that the balanced α is optimal.
func TestPointwiseUpperBound(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 2))
	count := 200
	if testing.Short() {
		count = 50
	}
	tight := 0
	for i := range count {
		n := 2 + r.IntN(10)
		in := randomInstance(t, r, n)
		obj := []Objective{Accuracy, Balanced}[r.IntN(2)]
		alpha := RandomizedFloor(in.p.Pair)
		f := Floors{testFloors[r.IntN(len(testFloors))], testFloors[r.IntN(len(testFloors))]}
		if r.IntN(2) == 0 {
			f = Floors{alpha, alpha}
		}
		boundary := hasBoundary(in.p.G, in.p.Answer)
		if !floorsFeasible(in.p.Pair, boundary, f) {
			continue
		}
		if boundary && math.Abs(f[1]-exactUpper(in.e, in.dlt, 1-f[0])) < 1e-9 && f[0] != alpha {
			continue // too close to the limit for the rational e to decide like e^ε
		}
		w := effectiveWeights(in.p, obj)
		p := &Problem{G: in.p.G, Answer: in.p.Answer, Weight: w, Pair: in.p.Pair}
		lines, err := frameworkLines(p.Pair, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		ub, err := pointwiseUpper(context.Background(), p, lines, f)
		if err != nil {
			t.Fatal(err)
		}
		lp := newExactLP(n, in.edges, in.p.Answer, exactWeights(in, obj), in.e, in.dlt)
		lp.floors(in.p.Answer, new(big.Rat).SetFloat64(f[0]), new(big.Rat).SetFloat64(f[1]))
		feasible, exact, _ := lp.solveFeasible()
		if !feasible {
			continue // the rational e decides a floor at α differently from e^ε
		}
		if opt := ratFloat(exact); ub < opt-1e-12*math.Max(1, opt) {
			t.Errorf("instance %d (%s, floors %v): pointwise bound %v below the exact optimum %v", i, obj, f, ub, opt)
		}
		if f == (Floors{alpha, alpha}) {
			res, err := Optimize(context.Background(), in.p, Options{Objective: obj})
			if err != nil {
				t.Fatal(err)
			}
			if ub-res.Balanced > 1e-12*math.Max(1, res.Balanced) || res.Method != "balanced" || !res.Converged {
				t.Errorf("instance %d (%s): at floors α the bound %v is not the balanced α's utility %v (method %s)", i, obj, ub, res.Balanced, res.Method)
			}
			tight++
		}
	}
	if tight < count/4 {
		t.Errorf("only %d instances at the default floors", tight)
	}
}
