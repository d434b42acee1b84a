package bfs

import (
	"context"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// At ε = δ = 0 on the path 1–2–3 (answers 1, 0, 1) with p_one = 0.3 on both ends, the
// constant mechanism 0.3 is the only DP one and so the optimum: L(0.3) must be 0.3
// exactly (a float formula (0.3 − 1) + 1 rounds to 0.30000000000000004, which then
// fails the audit next to 0.3).
func TestEpsilonZeroPathIsConstant(t *testing.T) {
	g := testgraph.FromEdges(3, [][2]int32{{0, 1}, {1, 2}})
	in, err := NewInstance(g, []bool{true, false, true}, []int32{0, 2}, []float64{0.3, 0.3}, testgraph.MustDP(0, 0))
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
	if a, _ := check.Verify(context.Background(), g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), in.Pair, 0, 3); a.Violations != 0 {
		t.Fatalf("p_one %v fails the audit: %+v", sol.POne, a.First)
	}
	if l := in.Pair.Lower(0.3); l > 0.3 {
		t.Errorf("DP{0,0}.Lower(0.3) = %v > 0.3 (Lower(a) ≤ a is Pair's contract)", l)
	}
}
