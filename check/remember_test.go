package check_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// An Auditor remembers certified bounds (dp.Memo) and the last edge's approximate
// excesses across vertices and edges; what it finds is what auditors that cannot
// remember anything find: one fresh Auditor per edge, merged in order (Audit.Merge).
// The values come from a few (a value, its bounds one and two steps on, one ulp
// beyond them, −0 and +0), so vertices and edges share values in every combination
// and a cache keyed on less than both exact values would be caught.
func TestAuditorRemembersExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	for k := range 200 {
		pair := testgraph.Pairs[k%len(testgraph.Pairs)]
		a := 0.2 + 0.6*r.Float64()
		up, low := pair.Upper(a), pair.Lower(a)
		vals := []float64{a, up, pair.Upper(up), low, pair.Lower(low), math.Nextafter(up, 2), math.Nextafter(low, -1),
			0, math.Copysign(0, -1), 1}
		f := testgraph.Families[k%len(testgraph.Families)]
		n, e := f.Make(r, 2+r.IntN(60))
		g := testgraph.FromEdges(n, e)
		pone := make([]float64, n)
		for v := range pone {
			pone[v] = vals[r.IntN(len(vals))]
		}
		tol, limit, rankAll := []float64{0, 1e-3}[k%2], 1+r.IntN(4), k%3 == 0
		one := check.NewAuditor(pair, tol, limit)
		one.RankAll = rankAll
		fresh := check.NewAudit()
		for u := range int32(n) {
			one.Vertex(u, pone[u])
			for _, v := range g.Above(u) {
				one.Edge(v, pone[v])
				x := check.NewAuditor(pair, tol, limit)
				x.RankAll = rankAll
				x.Vertex(u, pone[u])
				x.Edge(v, pone[v])
				fresh.Merge(&x.Audit, limit)
			}
		}
		if !reflect.DeepEqual(one.Audit, fresh) {
			t.Fatalf("case %d: one auditor found %+v, fresh auditors per edge %+v", k, one.Audit, fresh)
		}
	}
}
