package bfs

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
)

// A hitting-set value above its bound by less than Tolerance is accepted
// (feasibility.go) and written at that bound (docs/FORMATS.md, "What the values mean"): the written mechanism passes
// the zero-tolerance audit, and Query equals Solve.
func TestWithinToleranceOutputPassesAudit(t *testing.T) {
	ctx := context.Background()
	tried, auditFail, queryDiff := 0, 0, 0
	forInstances(t, 4000, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		if len(in.Hit) < 2 {
			return
		}
		bad := *in
		bad.PTrue = append([]float64(nil), in.PTrue...)
		// push several hitting-set values up by a fraction of the tolerance
		for k := 0; k < 1+r.IntN(len(in.Hit)); k++ {
			i := r.IntN(len(in.Hit))
			bad.PTrue[i] = min(1, bad.PTrue[i]+float64(1+r.IntN(9))*1e-10)
		}
		sol, err := Solve(ctx, &bad, Propagate{}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if sol.Infeasible != 0 {
			return
		}
		tried++
		a, _ := check.Verify(context.Background(), bad.G, dp.ExactValues(bad.Answer, sol.POne, sol.PTrue), bad.Pair, 0, 3)
		if a.Violations != 0 {
			auditFail++
			if auditFail <= 3 {
				t.Logf("%s: accepted within tolerance but the mechanism fails the audit: %d violations, first %+v", name, a.Violations, a.First)
			}
		}
		q := NewQuery(sol.Instance)
		for w := int32(0); int(w) < bad.G.N(); w++ {
			res, _ := q.Vertex(ctx, w)
			if res.POne != sol.POne[w] || res.Bind != sol.Bind[w] || res.Dist != sol.Dist[w] || res.PTrue != sol.PTrue[w] {
				queryDiff++
				if queryDiff <= 3 {
					t.Logf("%s: vertex %d query (%v,%v,%d,%d) solve (%v,%v,%d,%d)", name, w, res.POne, res.PTrue, res.Bind, res.Dist, sol.POne[w], sol.PTrue[w], sol.Bind[w], sol.Dist[w])
				}
			}
		}
	})
	t.Logf("%d accepted instances, %d fail the audit, %d query mismatches", tried, auditFail, queryDiff)
	if auditFail+queryDiff > 0 {
		t.Fail()
	}
}
