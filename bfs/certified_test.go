package bfs

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	bigoracle "github.com/graphdp/graphdp/internal/oracle"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// Regression tests for the certified arithmetic (doc.go, invariant 4), one per
// defect found when the guarantees held only in float64.

var allEngines = []Engine{Propagate{}, PerSource{Workers: 2}, Rounds{Workers: 2}}

func solveAll(t *testing.T, in *Instance) []*Solution {
	t.Helper()
	var out []*Solution
	for _, eng := range allEngines {
		sol, err := Solve(context.Background(), in, eng, 5)
		if err != nil {
			t.Fatalf("%s: %v", eng.Name(), err)
		}
		out = append(out, sol)
	}
	return out
}

// randomInstance is testgraph.RandomProblem as an Instance.
func randomInstance(r *rand.Rand, f testgraph.Family, n int, pair dp.Pair) *Instance {
	p := testgraph.RandomProblem(r, f, n, pair)
	in, err := NewInstance(p.G, p.Answer, p.Hit, p.PTrue, pair)
	if err != nil {
		panic(err)
	}
	return in
}

func mustInstance(t *testing.T, g *graph.Graph, answer []bool, hit []int32, ptrue []float64, pair dp.Pair) *Instance {
	t.Helper()
	in, err := NewInstance(g, answer, hit, ptrue, pair)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// Large ε must not lose δ: next to a dataset answered truthfully with certainty, the
// other answer's best p_true is U(0) = δ exactly (e^ε·0 + δ), whatever ε. The
// cancelling form (e^ε + δ − 1 + a)/e^ε gave 0.8999999761581421 at ε = 20 and 0 from
// ε = 50 on.
func TestLargeEpsilonKeepsDelta(t *testing.T) {
	g := testgraph.FromEdges(2, [][2]int32{{0, 1}})
	delta := 0.9
	for _, eps := range []float64{9.5, 20, 50, 300, 700} {
		in := mustInstance(t, g, []bool{true, false}, []int32{0}, []float64{1}, testgraph.MustDP(eps, delta))
		for i, sol := range solveAll(t, in) {
			if sol.Infeasible > 0 || sol.PTrue[1] != delta || sol.POne[1] != 1-delta {
				t.Errorf("ε=%v %s: p_true(1) = %v (p_one %v), want δ = 0.9", eps, allEngines[i].Name(), sol.PTrue[1], sol.POne[1])
			}
		}
	}
}

// At ε = 700 a feasible input was rejected ("allows at most U^2(0) = 0"): on the path
// 0–1–2, all answers 1, Pr[M(0)=0] = 0 allows Pr[M(2)=0] ≤ U²(0) = U(δ) = 1.
func TestLargeEpsilonFeasibleAccepted(t *testing.T) {
	g := testgraph.FromEdges(3, [][2]int32{{0, 1}, {1, 2}})
	in := mustInstance(t, g, []bool{true, true, true}, []int32{0, 2}, []float64{1, 0.5}, testgraph.MustDP(700, 0.3))
	for i, sol := range solveAll(t, in) {
		if sol.Infeasible > 0 {
			t.Fatalf("%s: rejected: %+v", allEngines[i].Name(), sol.Violations)
		}
		if a, _ := check.Verify(context.Background(), g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), in.Pair, 0, 3); a.Violations != 0 {
			t.Fatalf("%s: audit %+v", allEngines[i].Name(), a)
		}
	}
}

// A feasible input made every engine exit 1 ("internal error: the computed mechanism
// fails the DP audit … 74–75 (excess 1.28e-16)"): a 16-vertex path with hitting-set
// values almost on their bounds, ε = 1e-4, δ = 1e-6. Every engine now writes a
// mechanism that passes the exact audit, and Algorithm 2 agrees with it.
func TestNearEdgePathIsCertified(t *testing.T) {
	const n = 16 // ids 71..86 at positions 0..15
	var e [][2]int32
	for i := int32(1); i < n; i++ {
		e = append(e, [2]int32{i - 1, i})
	}
	g := testgraph.FromEdges(n, e)
	answer := make([]bool, n)
	for _, id := range []int{72, 73, 74, 78, 86} {
		answer[id-71] = true
	}
	hit := []int32{71 - 71, 75 - 71, 77 - 71, 79 - 71, 86 - 71}
	ptrue := []float64{2.9040638597654933e-05, 2.503002451559322e-05, 2.3025318986236165e-05, 2.102101435819126e-05, 0.9999859908959021}
	pair := testgraph.MustDP(1e-4, 1e-6)
	in := mustInstance(t, g, answer, hit, ptrue, pair)
	op := bigoracle.Pair{Epsilon: 1e-4, Delta: 1e-6}
	for i, sol := range solveAll(t, in) {
		if sol.Infeasible > 0 {
			t.Fatalf("%s: rejected: %+v", allEngines[i].Name(), sol.Violations)
		}
		if a, _ := check.Verify(context.Background(), g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), pair, 0, 3); a.Violations != 0 {
			t.Fatalf("%s: audit %+v", allEngines[i].Name(), a)
		}
		av := exactValues(in, sol)
		for v := int32(0); v+1 < n; v++ {
			if !oracleAllowed(op, av[v], av[v+1]) {
				t.Fatalf("%s: edge %d–%d not exactly dp.Pair", allEngines[i].Name(), v+71, v+72)
			}
		}
		q := NewQuery(sol.Instance)
		for w := range int32(n) {
			r, err := q.Vertex(context.Background(), w)
			if err != nil || r.POne != sol.POne[w] {
				t.Fatalf("%s: query %d = %v, solve %v", allEngines[i].Name(), w+71, r.POne, sol.POne[w])
			}
		}
	}
}

// Exact DP, not float64 DP: with ε = 0.01, δ = 0 and p_one(0) = 0.325257850108188, the
// float audit let p_one(1) = 0.3285267458472126 pass (math.Exp(0.01) is 0.51 ulp above
// e^0.01), although it exceeds e^0.01·p_one(0) by 3.45e-17.
func TestExactDPAgainstTrueExponential(t *testing.T) {
	g := testgraph.FromEdges(2, [][2]int32{{0, 1}})
	pair := testgraph.MustDP(0.01, 0)
	in := mustInstance(t, g, []bool{true, true}, []int32{0}, []float64{0.325257850108188}, pair)
	op := bigoracle.Pair{Epsilon: 0.01}
	for i, sol := range solveAll(t, in) {
		if !op.Allowed(sol.POne[0], sol.POne[1]) || sol.POne[1] >= 0.3285267458472126 {
			t.Errorf("%s: p_one(1) = %v is not exactly dp.Pair next to %v", allEngines[i].Name(), sol.POne[1], sol.POne[0])
		}
		if !op.Allowed(sol.POne[0], math.Nextafter(sol.POne[1], 0)) || op.Allowed(sol.POne[0], math.Nextafter(sol.POne[1], 1)) {
			t.Errorf("%s: p_one(1) = %v is not the largest exactly-dp.Pair float64", allEngines[i].Name(), sol.POne[1])
		}
	}
	a, _ := check.Verify(context.Background(), g, []float64{0.325257850108188, 0.3285267458472126}, pair, 0, 3)
	if a.Violations != 1 || !(a.Worst.Excess > 3.4e-17 && a.Worst.Excess < 3.5e-17) {
		t.Errorf("audit of the float-lenient mechanism: %+v, want 1 violation of 3.45e-17", a)
	}
}

// Values within Tolerance above their bounds are moved onto them (docs/DESIGN.md
// §8.2): the written hitting-set values are within Tolerance of the given ones, the
// mechanism is exactly DP, and it is the optimal extension of the written values (run
// on them, it comes out the same). At ε = 20 a move of 5e-10 moves a neighbour by up
// to e^20 times as much: that is the optimum of the written values, as documented.
func TestToleranceRepairPromise(t *testing.T) {
	g := testgraph.FromEdges(3, [][2]int32{{0, 1}, {1, 2}})
	pair := testgraph.MustDP(20, 1e-3)
	x := 1e-12
	given := pair.Upper(x) + 5e-10 // 5e-10 above the bound its neighbour imposes
	in := mustInstance(t, g, []bool{true, true, true}, []int32{0, 1}, []float64{x, given}, pair)
	for i, sol := range solveAll(t, in) {
		name := allEngines[i].Name()
		if sol.Infeasible > 0 || sol.Moved() != 1 || sol.MaxMove() > Tolerance {
			t.Fatalf("%s: infeasible %d, moved %d by %g", name, sol.Infeasible, sol.Moved(), sol.MaxMove())
		}
		if a, _ := check.Verify(context.Background(), g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), pair, 0, 3); a.Violations != 0 {
			t.Fatalf("%s: audit %+v", name, a)
		}
		again := mustInstance(t, g, in.Answer, in.Hit, []float64{sol.PTrue[0], sol.PTrue[1]}, pair)
		sol2, err := Solve(context.Background(), again, allEngines[i], 3)
		if err != nil || sol2.Repairs != 0 {
			t.Fatalf("%s: re-solving the written values: %v, %d repairs", name, err, sol2.Repairs)
		}
		for v := range sol.POne {
			if sol2.POne[v] != sol.POne[v] {
				t.Fatalf("%s: vertex %d: %v, re-solved %v", name, v, sol.POne[v], sol2.POne[v])
			}
		}
	}
}

// p_one is never −0: a dataset with nothing constraining its answer 0 gets p_one +0
// (a mechanism CSV once read "-0" there).
func TestPOneNeverNegativeZero(t *testing.T) {
	g := testgraph.FromEdges(3, [][2]int32{{0, 1}})
	in := mustInstance(t, g, []bool{false, false, false}, []int32{0}, []float64{1}, testgraph.MustDP(0.5, 0))
	for i, sol := range solveAll(t, in) {
		q := NewQuery(sol.Instance)
		for v, p := range sol.POne {
			r, _ := q.Vertex(context.Background(), int32(v))
			if math.Signbit(p) || math.Signbit(r.POne) {
				t.Errorf("%s: vertex %d: p_one %v, query %v", allEngines[i].Name(), v, p, r.POne)
			}
		}
	}
}
