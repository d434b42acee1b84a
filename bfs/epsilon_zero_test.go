package bfs

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// With ε = δ = 0 the only DP mechanisms are constant on each component, so a hitting
// set whose p_one is the same value c everywhere is feasible, and the optimal
// mechanism is c on every vertex of a component that holds a hitting-set vertex, for
// any c (not only the values 0, 0.5 and 1 that are exact in every formula).
func TestEpsilonZeroConstant(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	fails := 0
	for k := 0; k < 500 && fails < 5; k++ {
		g, answer, hit := testgraph.RandomHitting(r, k)
		f, n := testgraph.Families[k%len(testgraph.Families)], g.N()
		c := float64(1+r.IntN(999)) / 1000 // the constant p_one, a decimal as users write it
		ptrue := make([]float64, len(hit))
		for i, h := range hit {
			if answer[h] {
				ptrue[i] = c
			} else {
				ptrue[i] = 1 - c
			}
		}
		in, err := NewInstance(g, answer, hit, ptrue, testgraph.MustDP(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		sol, err := Solve(ctx, in, Propagate{}, 3)
		if err != nil {
			t.Fatal(err)
		}
		if sol.Infeasible != 0 {
			fails++
			t.Errorf("#%d %s c=%v: feasible constant mechanism rejected: %+v", k, f.Name, c, sol.Violations)
			continue
		}
		if a, _ := check.Verify(context.Background(), g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), in.Pair, 0, 1); a.Violations != 0 {
			fails++
			t.Errorf("#%d %s n=%d c=%v: written mechanism fails the audit (run: exit 1 \"internal error\"): %d violations, first %+v", k, f.Name, n, c, a.Violations, a.First[0])
		}
	}
}
