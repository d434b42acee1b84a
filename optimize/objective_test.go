package optimize

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/graphgen"
	"github.com/graphdp/graphdp/internal/words"
)

// exactWeights is the objective's weights as exact rationals (objective.go's
// definitions; Worst's tie-break uses the balanced ones).
func exactWeights(in instance, obj Objective) []*big.Rat {
	if obj == Accuracy {
		return in.weights
	}
	total := [2]*big.Rat{new(big.Rat), new(big.Rat)}
	for v, w := range in.weights {
		total[words.Bit(in.p.Answer[v])].Add(total[words.Bit(in.p.Answer[v])], w)
	}
	out := make([]*big.Rat, len(in.weights))
	for v, w := range in.weights {
		c := words.Bit(in.p.Answer[v])
		out[v] = new(big.Rat)
		if total[c].Sign() == 0 {
			continue
		}
		d := new(big.Rat).Set(total[c])
		if total[1-c].Sign() != 0 {
			d.Mul(d, big.NewRat(2, 1))
		}
		out[v].Quo(w, d)
	}
	return out
}

// exactUpper is U*(a) = min(e·a + δ, 1 − (1 − a − δ)/e, 1) in rationals, as a float64.
func exactUpper(e, delta *big.Rat, a float64) float64 {
	A := new(big.Rat).SetFloat64(a)
	b1 := new(big.Rat).Add(new(big.Rat).Mul(e, A), delta)
	one := big.NewRat(1, 1)
	c := new(big.Rat).Sub(new(big.Rat).Sub(one, A), delta)
	b2 := new(big.Rat).Sub(one, new(big.Rat).Quo(c, e))
	u := ratFloat(b1)
	return min(u, ratFloat(b2), 1)
}

// exactAlpha is (e + δ)/(e + 1).
func exactAlpha(e, delta *big.Rat) float64 {
	one := big.NewRat(1, 1)
	return ratFloat(new(big.Rat).Quo(new(big.Rat).Add(e, delta), new(big.Rat).Add(e, one)))
}

var testFloors = []float64{0, 0, 0.2, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 1}

// TestObjectivesAndFloorsMatchExactLP: on hundreds of random small instances, for
// the accuracy and balanced objectives with random floors, Optimize agrees with the
// exact two-phase simplex (exactLP): floors it refuses are infeasible for the exact
// LP and the largest floors it names are the exact limits; floors it accepts are
// feasible, its utility is the exact optimum within 1e-9 of the total weight, the
// certificate encloses it, the mechanism meets the floors exactly, passes the exact
// DP audit and re-solves bit for bit.
func TestObjectivesAndFloorsMatchExactLP(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 1))
	count := 300
	if testing.Short() {
		count = 60
	}
	var refused, accepted, floored int
	for i := range count {
		n := 2 + r.IntN(10)
		in := randomInstance(t, r, n)
		obj := []Objective{Accuracy, Balanced}[r.IntN(2)]
		f := Floors{testFloors[r.IntN(len(testFloors))], testFloors[r.IntN(len(testFloors))]}
		if r.IntN(3) == 0 {
			f = Floors{}
		}
		boundary := hasBoundary(in.p.G, in.p.Answer)
		// The exact limit: with a boundary edge, f1 ≤ U*(1 − f0) (objective.go).
		limit := exactUpper(in.e, in.dlt, 1-f[0])
		if boundary && math.Abs(f[1]-limit) < 1e-9 {
			continue // too close to the limit for the rational e to decide like e^ε
		}
		lp := newExactLP(n, in.edges, in.p.Answer, exactWeights(in, obj), in.e, in.dlt)
		lp.floors(in.p.Answer, new(big.Rat).SetFloat64(f[0]), new(big.Rat).SetFloat64(f[1]))
		feasible, exact, _ := lp.solveFeasible()
		res, err := Optimize(context.Background(), in.p, Options{Gap: 1e-11, Objective: obj, Floors: f, Explicit: lowered})
		var fe *FloorError
		if errors.As(err, &fe) {
			refused++
			if feasible {
				t.Fatalf("instance %d: floors %v refused, but the exact LP is feasible: %v", i, f, err)
			}
			alpha := exactAlpha(in.e, in.dlt)
			one := big.NewRat(1, 1)
			// the largest answer-0 floor for f1: 1 − L*(f1), L*(a) = max(1 − δ − e(1 − a), (a − δ)/e, 0)
			F1 := new(big.Rat).SetFloat64(f[1])
			l1 := new(big.Rat).Sub(new(big.Rat).Sub(one, in.dlt), new(big.Rat).Mul(in.e, new(big.Rat).Sub(one, F1)))
			l2 := new(big.Rat).Quo(new(big.Rat).Sub(F1, in.dlt), in.e)
			max0 := 1 - max(ratFloat(l1), ratFloat(l2), 0)
			if math.Abs(fe.Common-alpha) > 1e-12 || math.Abs(fe.Max1-limit) > 1e-12 || math.Abs(fe.Max0-max0) > 1e-12 {
				t.Errorf("instance %d: limits %+v, exact common %v, max0 %v, max1 %v", i, fe, alpha, max0, limit)
			}
			continue
		}
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		if !feasible {
			t.Fatalf("instance %d: floors %v accepted, but the exact LP is infeasible", i, f)
		}
		accepted++
		if f.any() {
			floored++
		}
		opt := ratFloat(exact)
		scale := max(1, res.TotalWeight)
		if math.Abs(res.Utility-opt) > 1e-9*scale {
			t.Errorf("instance %d (n=%d, %s, floors %v, e=%v, δ=%v): utility %.15g, exact optimum %.15g (method %s, gap %g, iterations %d)",
				i, n, obj, f, in.e, in.dlt, res.Utility, opt, res.Method, res.Gap, res.Iterations)
		}
		if res.Upper < opt-1e-12*scale || res.Utility > opt+1e-12*scale || res.Gap > 1e-9*scale {
			t.Errorf("instance %d: certified [%.17g, %.17g] does not enclose the exact optimum %.17g closely", i, res.Utility, res.Upper, opt)
		}
		if !f.meets(in.p.Answer, res.Solution.POne) {
			t.Errorf("instance %d: the mechanism misses the floors %v", i, f)
		}
		checkMechanism(t, &Problem{G: in.p.G, Answer: in.p.Answer, Weight: effectiveWeights(in.p, obj), Pair: in.p.Pair}, res)
	}
	t.Logf("%d refused, %d accepted (%d with floors)", refused, accepted, floored)
	if !testing.Short() && (refused < 20 || floored < 50) {
		t.Errorf("too few cases of each kind: %d refused, %d accepted with floors", refused, floored)
	}
}

// TestWorstMatchesExactLP: the worst objective's floor is the exact max-min p_true
// (newWorstLP) within 1e-12, its bound is above it, and wherever a boundary edge
// exists (and no floor is above it) the floor is the balanced α of the paper's
// corollary bit for bit (dp.Pair.Balanced). Its mechanism attains the floor and is
// the best for the balanced utility among those that do (exactLP with the floor).
func TestWorstMatchesExactLP(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 2))
	count := 200
	if testing.Short() {
		count = 40
	}
	edges := 0
	for i := range count {
		n := 2 + r.IntN(10)
		in := randomInstance(t, r, n)
		var f Floors
		if r.IntN(3) == 0 {
			f[r.IntN(2)] = testFloors[r.IntN(len(testFloors))]
		}
		wlp := newWorstLP(n, in.edges, in.p.Answer, in.e, in.dlt)
		wlp.floors(in.p.Answer, new(big.Rat).SetFloat64(f[0]), new(big.Rat).SetFloat64(f[1]))
		feasible, tstar, _ := wlp.solveFeasible()
		res, err := Optimize(context.Background(), in.p, Options{Gap: 1e-11, Objective: Worst, Floors: f, Explicit: lowered})
		var fe *FloorError
		if errors.As(err, &fe) {
			if feasible {
				limit := exactUpper(in.e, in.dlt, 1-f[0])
				if math.Abs(f[1]-limit) > 1e-9 {
					t.Fatalf("instance %d: floors %v refused, the exact LP is feasible", i, f)
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		w := res.Worst
		exact := ratFloat(tstar)
		if math.Abs(w.Floor-exact) > 1e-12 || w.Upper < exact-1e-12 || w.Lower < w.Floor {
			t.Errorf("instance %d: worst %+v, exact max-min %v", i, w, exact)
		}
		if hasBoundary(in.p.G, in.p.Answer) && f[0] <= w.Alpha && f[1] <= w.Alpha {
			edges++
			if w.Floor != in.p.Pair.Balanced() || math.Abs(exact-exactAlpha(in.e, in.dlt)) > 1e-12 {
				t.Errorf("instance %d: boundary edge, worst floor %v, balanced α %v, exact %v", i, w.Floor, in.p.Pair.Balanced(), exact)
			}
		}
		lp := newExactLP(n, in.edges, in.p.Answer, exactWeights(in, Balanced), in.e, in.dlt)
		// The floors less 1e-12: the float64 floor is exact for e^ε, which differs from
		// the rational e by an ulp, enough to make the exact LP at the floor infeasible.
		lp.floors(in.p.Answer, new(big.Rat).SetFloat64(max(0, res.Floors[0]-1e-12)), new(big.Rat).SetFloat64(max(0, res.Floors[1]-1e-12)))
		_, opt, _ := lp.solveFeasible()
		if math.Abs(res.Utility-ratFloat(opt)) > 1e-9 {
			t.Errorf("instance %d: balanced utility at the floor %v, exact %v", i, res.Utility, ratFloat(opt))
		}
		checkMechanism(t, &Problem{G: in.p.G, Answer: in.p.Answer, Weight: effectiveWeights(in.p, Balanced), Pair: in.p.Pair}, res)
	}
	if !testing.Short() && edges < 50 {
		t.Errorf("only %d instances with a boundary edge", edges)
	}
}

// A constant answer as the accuracy optimum, scaled down from 1M/10M: a uniform random
// graph where 10% of the datasets answer 1, uniform weights. The accuracy objective's
// optimum is (within 1e-6) a constant answer — every answer-0 dataset right, every
// answer-1 one wrong — which is why it is not the default; the balanced objective's is
// not constant, serves both answers at least as well as the balanced α, and its
// balanced utility is certified at least the balanced α's.
func TestIssue31Reproducer(t *testing.T) {
	p := genProblem(t, graphgen.Spec{Kind: "uniform", N: 2000, M: 20000, Seed: 1, Frac: 0.1, Epsilon: 0.5, Delta: 1e-6}, 0)
	span := func(res *Result) (lo, hi float64, mean [2]float64) {
		lo, hi = 1, 0
		var cnt [2]float64
		for v, x := range res.Solution.POne {
			lo, hi = min(lo, x), max(hi, x)
			mean[words.Bit(p.Answer[v])] += res.Solution.PTrue[v]
			cnt[words.Bit(p.Answer[v])]++
		}
		return lo, hi, [2]float64{mean[0] / cnt[0], mean[1] / cnt[1]}
	}
	acc, err := Optimize(context.Background(), p, Options{Objective: Accuracy, Explicit: lowered})
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi, mean := span(acc); hi-lo > 1.01e-6 || mean[1] > 1e-5 || !acc.Converged {
		t.Errorf("accuracy: p_one in [%v, %v], per-answer means %v: the constant answer the issue reports was expected", lo, hi, mean)
	}
	bal, err := Optimize(context.Background(), p, Options{Objective: Balanced, Explicit: lowered})
	if err != nil {
		t.Fatal(err)
	}
	alpha := p.Pair.Balanced()
	lo, hi, mean := span(bal)
	if hi-lo < 0.3 || mean[0] < alpha || mean[1] < alpha {
		t.Errorf("balanced: p_one in [%v, %v], per-answer means %v (α = %v)", lo, hi, mean, alpha)
	}
	if !bal.Converged || bal.Utility < bal.Balanced || bal.Upper < bal.Utility || bal.TotalWeight < 1-1e-12 || bal.TotalWeight > 1+1e-12 {
		t.Errorf("balanced: utility %v, upper %v, balanced α's %v, total weight %v, converged %v", bal.Utility, bal.Upper, bal.Balanced, bal.TotalWeight, bal.Converged)
	}
	// The balanced utility is the balanced accuracy: the mean of the two means.
	if b := (mean[0] + mean[1]) / 2; math.Abs(bal.Utility-b) > 1e-9 {
		t.Errorf("balanced utility %v, balanced accuracy %v", bal.Utility, b)
	}
}

// The trade-off curve: every point is the exact optimum at its floor (exactLP with
// the floor, less 1e-12 for the rational e), certified (Utility ≤ exact ≤ Upper up to
// rounding), the curve falls as the floor rises, ends at the largest floor (the
// balanced α with a boundary edge), and warm-started or reused points are no worse
// than solving alone.
func TestTradeOffMatchesExactLP(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 3))
	count := 24
	if testing.Short() {
		count = 8
	}
	for i := range count {
		n := 3 + r.IntN(9)
		in := randomInstance(t, r, n)
		obj := []Objective{Accuracy, Balanced, Worst}[r.IntN(3)]
		opt := Options{Gap: 1e-11, Objective: obj, Explicit: lowered}
		res, err := Optimize(context.Background(), in.p, opt)
		if err != nil {
			t.Fatal(err)
		}
		pts, err := TradeOff(context.Background(), in.p, opt, res, 5, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		// With no time for a solve (an hour's budget, two expected), every point not
		// reused is Bounded, by the homogeneous pair found for its floor.
		bounded, err := TradeOff(context.Background(), in.p, opt, res, 5, time.Hour, 2*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		wobj := obj
		if obj == Worst {
			wobj = Balanced
		}
		lo := 0.5
		if obj != Worst {
			lo = min(lo, minPTrue(in.p.Answer, res.Solution.POne))
		}
		if want, _ := worstFloor(in.p.Pair, hasBoundary(in.p.G, in.p.Answer), Floors{}); len(pts) != 5 || pts[4].Floor != want || pts[0].Floor != lo {
			t.Fatalf("instance %d: floors %+v, want %v … %v", i, pts, lo, want)
		}
		if obj != Worst && (!pts[0].Reused || pts[0].Utility != res.Utility) {
			t.Errorf("instance %d: the first point is not the result itself: %+v", i, pts[0])
		}
		for k, pt := range pts {
			lp := newExactLP(n, in.edges, in.p.Answer, exactWeights(in, wobj), in.e, in.dlt)
			f := new(big.Rat).SetFloat64(max(0, pt.Floor-1e-12))
			lp.floors(in.p.Answer, f, f)
			_, exact, _ := lp.solveFeasible()
			scale := max(1, res.TotalWeight)
			if e := ratFloat(exact); math.Abs(pt.Utility-e) > 1e-9*scale || pt.Upper < e-1e-9*scale || pt.MinPTrue < pt.Floor {
				t.Errorf("instance %d (%s), floor %v: %+v, exact %v", i, obj, pt.Floor, pt, e)
			}
			if k > 0 && pt.Utility > pts[k-1].Utility+1e-12*scale {
				t.Errorf("instance %d: utility rises with the floor: %+v", i, pts)
			}
			for _, b := range bounded {
				if b.Floor == pt.Floor && (b.Utility > ratFloat(exact)+1e-9*scale || b.Upper < ratFloat(exact)-1e-9*scale || b.MinPTrue < b.Floor || b.Bounded == b.Reused) {
					t.Errorf("instance %d (%s), floor %v: bounded %+v, exact %v", i, obj, pt.Floor, b, ratFloat(exact))
				}
			}
		}
		if obj == Worst && math.Abs(pts[4].Utility-res.Utility) > 1e-9 {
			t.Errorf("instance %d: worst's curve ends at %v, its result is %v", i, pts[4].Utility, res.Utility)
		}
	}
}

// The objectives' weights (objective.go): balanced divides by twice each answer's
// total, or by the total alone when the other answer weighs nothing; all zero stays
// zero; accuracy (and the zero Objective) keeps the weights as given.
func TestEffectiveWeights(t *testing.T) {
	ans := []bool{true, false, false, true}
	for _, c := range []struct {
		obj  Objective
		w    []float64
		want []float64
	}{
		{Balanced, []float64{1, 1, 1, 1}, []float64{0.25, 0.25, 0.25, 0.25}},
		{Balanced, []float64{3, 1, 3, 1}, []float64{3.0 / 8, 1.0 / 8, 3.0 / 8, 1.0 / 8}},
		{Worst, []float64{2, 0, 0, 6}, []float64{0.25, 0, 0, 0.75}},
		{Balanced, []float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}},
		{Accuracy, []float64{3, 1, 3, 1}, []float64{3, 1, 3, 1}},
		{"", []float64{3, 1, 3, 1}, []float64{3, 1, 3, 1}},
	} {
		got := effectiveWeights(&Problem{Answer: ans, Weight: c.w}, c.obj)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q %v: %v, want %v", c.obj, c.w, got, c.want)
		}
	}
}

// Floors exactly at their limit (the largest float64 floors floorsFeasible accepts:
// t1 = Upper(RD(1 − t0)), and the largest common floor) are met exactly: the
// boundary datasets are forced there, and the seeds (floorSeeds) must survive float64
// rounding through bfs.Solve. One float64 above the limit is refused.
func TestFloorsAtTheirLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 4))
	count := 150
	if testing.Short() {
		count = 30
	}
	for i := range count {
		in := randomInstance(t, r, 2+r.IntN(10))
		if !hasBoundary(in.p.G, in.p.Answer) {
			continue
		}
		var f Floors
		switch i % 3 {
		case 0:
			f[0] = testFloors[r.IntN(len(testFloors))]
			f[1] = in.p.Pair.Upper(f.hi0())
		case 1:
			f[1] = testFloors[r.IntN(len(testFloors))]
			f[0] = floorError(in.p.Pair, f).Max0
		default:
			c := floorError(in.p.Pair, Floors{}).Common
			f = Floors{c, c}
		}
		obj := []Objective{Accuracy, Balanced}[r.IntN(2)]
		res, err := Optimize(context.Background(), in.p, Options{Gap: 1e-9, Objective: obj, Floors: f, Explicit: lowered})
		if err != nil {
			t.Fatalf("instance %d: floors %v at their limit: %v", i, f, err)
		}
		if !f.meets(in.p.Answer, res.Solution.POne) {
			t.Fatalf("instance %d: floors %v missed", i, f)
		}
		checkMechanism(t, &Problem{G: in.p.G, Answer: in.p.Answer, Weight: effectiveWeights(in.p, obj), Pair: in.p.Pair}, res)
		above := f // one float64 above on the side at its limit (both for the common floor)
		switch i % 3 {
		case 0:
			above[1] = math.Nextafter(f[1], 2)
		case 1:
			above[0] = math.Nextafter(f[0], 2)
		default:
			above = Floors{math.Nextafter(f[0], 2), math.Nextafter(f[1], 2)}
		}
		if above[0] <= 1 && above[1] <= 1 {
			var fe *FloorError
			if _, err := Optimize(context.Background(), in.p, Options{Objective: obj, Floors: above, Explicit: lowered}); !errors.As(err, &fe) {
				t.Fatalf("instance %d: floors %v one float64 above the limit: %v", i, above, err)
			}
		}
	}
}

// The trade-off curve keeps its budget: a solve that would not fit is not
// started, and its floor is Bounded by the mechanisms already known, which the
// solved curve's point lies between; the point that needs no solve is the solved
// curve's.
func TestTradeOffBudget(t *testing.T) {
	p := genProblem(t, graphgen.Spec{Kind: "uniform", N: 3_000, M: 30_000, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, 0)
	opt := Options{Objective: Accuracy, Explicit: lowered}
	res, err := Optimize(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	all, err := TradeOff(context.Background(), p, opt, res, 6, 0, 0)
	if err != nil || len(all) != 6 {
		t.Fatalf("no budget: %d points, %v", len(all), err)
	}
	// Every floor but the first needs a solve, expected to take two hours: with a
	// budget of one, none is solved, but the homogeneous searches fit; with one
	// of a nanosecond, nothing does, and the points are the mixtures of the first
	// (the result) and the balanced α's mechanism, on the chord between them.
	var chord []TradePoint
	for _, budget := range []time.Duration{time.Nanosecond, time.Hour} {
		some, err := TradeOff(context.Background(), p, opt, res, 6, budget, 2*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		// The first point is the chosen result itself (reused, free).
		if len(some) != 6 || !some[0].Reused || some[0] != all[0] {
			t.Fatalf("budget %v: %+v; without a budget the first point is %+v", budget, some, all[0])
		}
		for i, b := range some[1:] {
			a := all[i+1]
			if !b.Bounded || a.Bounded || b.Floor != a.Floor || b.Utility > a.Upper || a.Utility > b.Upper || b.MinPTrue < b.Floor {
				t.Errorf("budget %v, floor %v: bounded %+v, solved %+v", budget, a.Floor, b, a)
			}
			if budget == time.Hour {
				if b.Utility < chord[i+1].Utility {
					t.Errorf("floor %v: the search lowers the bracket, %v < %v", b.Floor, b.Utility, chord[i+1].Utility)
				}
				continue
			}
			alpha := p.Pair.Balanced()
			lam := (alpha - b.Floor) / (alpha - all[0].MinPTrue)
			want := lam*all[0].Utility + (1-lam)*res.Balanced
			if math.Abs(b.Utility-want) > 1e-9*want {
				t.Errorf("floor %v: bounded at %v, the chord is at %v", b.Floor, b.Utility, want)
			}
		}
		chord = some
	}
}
