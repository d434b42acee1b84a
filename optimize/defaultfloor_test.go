package optimize

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// cohorts is the cohort graph of a dataset sacrificed for nothing, scaled down: k cohorts, each an answer-0 gate
// dataset joined to a clique of size answer-1 datasets, and a path of many answer-0
// datasets elsewhere (no boundary, p_true 1), so that a gate's own share of the
// balanced utility is small and its answer-1 neighbours' large: raising a gate's
// p_one lifts all of them (U of it), and the unfloored optimum sacrifices the gates.
func cohorts(tb testing.TB, k, size, path int, eps, delta float64) *Problem {
	tb.Helper()
	var src, dst []int32
	var answer []bool
	add := func(a bool) int32 { answer = append(answer, a); return int32(len(answer) - 1) }
	for range k {
		gate := add(false)
		var members []int32
		for range size {
			v := add(true)
			src, dst = append(src, gate), append(dst, v)
			for _, u := range members {
				src, dst = append(src, u), append(dst, v)
			}
			members = append(members, v)
		}
	}
	prev := int32(-1)
	for range path {
		v := add(false)
		if prev >= 0 {
			src, dst = append(src, prev), append(dst, v)
		}
		prev = v
	}
	g, _ := graph.Build(len(answer), src, dst)
	pair, err := dp.New(eps, delta)
	if err != nil {
		tb.Fatal(err)
	}
	w := make([]float64, len(answer))
	for v := range w {
		w[v] = 1
	}
	return &Problem{G: g, Answer: answer, Weight: w, Pair: pair}
}

// On the cohort graph (ε = 1, δ = 1e-7, as reported) the LP over every DP
// mechanism sacrifices the gates: p_one(gate) = 1, p_true 0 (hand derivation: each
// gate weighs 1/(2·n0) = 1/408 of the balanced utility, its clique's members
// 5/(2·n1) = 1/8, and they can only rise as the gate's p_one does, up to 1), where
// randomized response gives every dataset α ≈ 0.731. By default (no Explicit
// floor) no dataset is below α, for every objective, and the result is certified
// within the default gap and meets the floor exactly; lowering the floor (Explicit)
// gives back the LP's optimum, which beats the default's certified bound.
func TestDefaultFloorSacrificesNoDataset(t *testing.T) {
	p := cohorts(t, 4, 5, 200, 1, 1e-7)
	alpha := RandomizedFloor(p.Pair)
	for _, obj := range Objectives {
		free, err := Optimize(context.Background(), p, Options{Objective: obj, Explicit: lowered})
		if err != nil {
			t.Fatal(err)
		}
		def, err := Optimize(context.Background(), p, Options{Objective: obj})
		if err != nil {
			t.Fatal(err)
		}
		lo := minPTrue(p.Answer, free.Solution.POne)
		t.Logf("%s: floor lowered: min p_true %.4f, utility %.6g; default: min p_true %.4f, utility %.6g (α %.4f), method %s", obj, lo, free.Utility, minPTrue(p.Answer, def.Solution.POne), def.Utility, alpha, def.Method)
		if obj != Worst && lo > alpha-0.05 {
			t.Errorf("%s, floor lowered: min p_true %v; the issue's sacrificed dataset (below α = %v) was expected", obj, lo, alpha)
		}
		if m := minPTrue(p.Answer, def.Solution.POne); m < alpha {
			t.Errorf("%s, default floor: min p_true %v < α = %v", obj, m, alpha)
		}
		if def.Floors != (Floors{alpha, alpha}) || !def.Floors.meets(p.Answer, def.Solution.POne) {
			t.Errorf("%s, default floor: floors %v (α %v) not met", obj, def.Floors, alpha)
		}
		if !def.Converged || def.Upper < def.Utility || def.Upper-def.Utility > DefaultGap*def.Utility {
			t.Errorf("%s, default floor: utility %v, upper %v, converged %v", obj, def.Utility, def.Upper, def.Converged)
		}
		if obj != Worst && !(free.Utility > def.Upper) {
			t.Errorf("%s: the lowered floor's optimum %v does not beat the default's bound %v", obj, free.Utility, def.Upper)
		}
	}
	// An Explicit floor on one answer lowers that answer only.
	one, err := Optimize(context.Background(), p, Options{Objective: Balanced, Explicit: [2]bool{true, false}})
	if err != nil {
		t.Fatal(err)
	}
	if one.Floors != (Floors{0, alpha}) {
		t.Errorf("answer-0 floor lowered: floors %v, want [0 %v]", one.Floors, alpha)
	}
}

// The default floor is feasible in every framework: floors α on both answers are
// met by some DP mechanism (floorsFeasible), which Optimize relies on.
func TestRandomizedFloorFeasible(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 1))
	var pairs []dp.Pair
	for _, mu := range []float64{0, 0.01, 0.5, 1, 3, 20} {
		pair, err := dp.NewGDP(mu)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pair)
	}
	for range 20 {
		pr, _ := randomProfile(t, r)
		pc, _ := randomCurve(t, r)
		e, err := dp.New(r.Float64()*5, r.Float64()*0.1)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pr, pc, e)
	}
	for _, pair := range pairs {
		a := RandomizedFloor(pair)
		if !floorsFeasible(pair, true, Floors{a, a}) || a < 0.5 {
			t.Errorf("%v: randomized response's α %v is not a feasible floor", pair, a)
		}
	}
}
