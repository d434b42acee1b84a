package bfs

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// Hitting-set values p_one = c close to 1 (the same c everywhere: the constant
// mechanism c is DP, so the instance is feasible) at ordinary ε: every hitting-set
// vertex binds itself (Upper(c) ≥ c), and the written mechanism passes the audit.
func TestNearOneHittingValuesBindThemselves(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(9, 9))
	var audit, bind, rejected, total int
	var ex string
	for k := range testgraph.Instances(3000, 300) {
		g, answer, hit := testgraph.RandomHitting(r, k)
		f := testgraph.Families[k%len(testgraph.Families)]
		c := 1 - float64(1+r.IntN(40))*math.Ldexp(1, -53)
		if r.IntN(2) == 0 {
			c = 1 - c // near 0 as well
		}
		ptrue := make([]float64, len(hit))
		for i, h := range hit {
			if answer[h] {
				ptrue[i] = c
			} else {
				ptrue[i] = 1 - c
			}
		}
		eps := []float64{0.1, 0.5, 1e-6, 2}[r.IntN(4)]
		in, _ := NewInstance(g, answer, hit, ptrue, testgraph.MustDP(eps, 0))
		sol, _ := Solve(ctx, in, Propagate{}, 3)
		total++
		if sol.Infeasible != 0 {
			rejected++
			continue
		}
		if a, _ := check.Verify(context.Background(), g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), in.Pair, 0, 1); a.Violations != 0 {
			audit++
			if ex == "" {
				ex = f.Name
			}
			continue
		}
		for _, h := range hit {
			if sol.Bind[h] != h || sol.Dist[h] != 0 {
				bind++
				break
			}
		}
	}
	if audit+bind+rejected > 0 {
		t.Errorf("%d instances: %d rejected, %d fail the audit (run: exit 1), %d with a hitting-set vertex not binding itself although every hitting-set value is the same c", total, rejected, audit, bind)
	}
}
