package check_test

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// A NaN probability fails the audit (it must never pass it: review finding).
func TestVerifyNaNFails(t *testing.T) {
	g := testgraph.FromEdges(2, [][2]int32{{0, 1}})
	a, _ := check.Verify(context.Background(), g, []float64{math.NaN(), 0.5}, testgraph.MustDP(1, 0), 0, 5)
	if a.Violations == 0 || a.Worst.U != 0 || !math.IsInf(a.Worst.Excess, 1) {
		t.Fatalf("audit of a NaN mechanism: %+v", a)
	}
}

// A cluster runner audits shards (ranges of positions) apart: each shard its edges
// u < v with an Auditor, and with RankAll too when its own pass ranked nothing; the
// shards' audits merged in position order (Audit.Merge), the RankAll ones when the
// merge is Unranked, and the winner made exact (Audit.Exact) are Verify's result,
// field for field. The mechanisms are Gibbs samples with half their steps on an end
// of the allowed interval, so many edges lie exactly on a bound, where the float64
// estimate that ranks the worst edge is off in the last bits (Exact changes it),
// and mechanisms with violations; tolerance 0 and 1e-3.
func TestAuditMergeOfShardsIsVerify(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 70))
	exactChanged, unranked, violated := 0, 0, 0
	for k := range 400 {
		f := testgraph.Families[k%len(testgraph.Families)]
		n, e := f.Make(r, 2+r.IntN(40))
		g := testgraph.FromEdges(n, e)
		pair := testgraph.Pairs[k%len(testgraph.Pairs)]
		pone := make([]float64, n)
		for v := range pone {
			pone[v] = 0.5
		}
		testgraph.GibbsSteps(r, g, pair, pone, nil, 20*n, true)
		if k%7 == 3 {
			pone[r.IntN(n)] = r.Float64() // most likely breaks an edge
		}
		tol, limit := []float64{0, 1e-3}[k%2], r.IntN(4)
		want, _ := check.Verify(context.Background(), g, pone, pair, tol, limit)

		// Shards: random cut points.
		cuts := []int32{0}
		for v := 1; v < n; v++ {
			if r.IntN(4) == 0 {
				cuts = append(cuts, int32(v))
			}
		}
		cuts = append(cuts, int32(n))
		audit := func(lo, hi int32, rankAll bool) check.Audit {
			x := check.NewAuditor(pair, tol, limit)
			x.RankAll = rankAll
			for u := lo; u < hi; u++ {
				x.Vertex(u, pone[u])
				for _, v := range g.Above(u) {
					x.Edge(v, pone[v])
				}
			}
			return x.Audit
		}
		first, second := check.NewAudit(), check.NewAudit()
		for s := 1; s < len(cuts); s++ {
			a := audit(cuts[s-1], cuts[s], false)
			first.Merge(&a, limit)
			if a.Unranked() {
				b := audit(cuts[s-1], cuts[s], true)
				second.Merge(&b, limit)
			}
		}
		got := first
		if got.Unranked() {
			got = second
			unranked++
		}
		before := got.Worst.Excess
		if w := got.Worst; w.U >= 0 {
			got.Exact(pair, pone[w.U], pone[w.V])
		}
		if got.Worst.Excess != before {
			exactChanged++
		}
		if want.Violations > 0 {
			violated++
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("#%d %s n=%d cuts %v: merged shards\n%+v\nVerify\n%+v", k, f.Name, n, cuts, got, want)
		}
	}
	if exactChanged < 10 || unranked < 10 || violated < 10 {
		t.Fatalf("cases not covered: Exact changed the excess %d times, %d unranked, %d with violations", exactChanged, unranked, violated)
	}
}
