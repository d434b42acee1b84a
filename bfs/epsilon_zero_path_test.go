package bfs

import (
	"context"
	"testing"
)

// Review: path 1–2–3 with answers 1, 0, 1, H = {1, 3} both p_true = 0.3 (p_one 0.3),
// ε = δ = 0. The constant mechanism p_one = 0.3 is DP and optimal; the engine's
// colour-0 step −L(−v) moves 0.3 to 0.30000000000000004 (L's float formula
// (0.3 − 1) + 1 rounds up, pair.go lowerFormula), so vertex 2 and vertex 3 are written
// at 0.30000000000000004 next to vertex 1 at 0.3: the audit fails and `graphdp run`
// exits 1 with "internal error".
func TestReviewEpsilonZeroPath(t *testing.T) {
	g := fromEdges(3, [][2]int32{{0, 1}, {1, 2}})
	in, err := NewInstance(g, []bool{true, false, true}, []int32{0, 2}, []float64{0.3, 0.3}, mustDP(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	sol, err := Solve(context.Background(), in, Propagate{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if sol.Infeasible != 0 {
		t.Fatalf("rejected: %+v", sol.Violations)
	}
	if a := Verify(g, sol.POne, in.Pair, 0, 3); a.Violations != 0 {
		t.Fatalf("p_one %v fails the audit: %+v", sol.POne, a.First)
	}
	if l := in.Pair.Lower(0.3); l > 0.3 {
		t.Errorf("DP{0,0}.Lower(0.3) = %v > 0.3 (Lower(a) ≤ a is Pair's contract)", l)
	}
}
