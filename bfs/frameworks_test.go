package bfs

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// A framework under test: its pair, and its bounds U and L in plain float64 written
// out here from their definitions (docs/DESIGN.md §7), sharing no code with dp: the
// reference optimum min_h U^d(a_h) is within 1e-12 of the exact one.
type frameworkCase struct {
	name   string
	pair   dp.Pair
	up, lo func(a float64) float64
}

func normalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// normalQuantile inverts normalCDF by bisection (Erfcinv loses the tails).
func normalQuantile(a float64) float64 {
	lo, hi := -40.0, 40.0
	for range 200 {
		mid := (lo + hi) / 2
		if normalCDF(mid) < a {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

func frameworkCases(t testing.TB) []frameworkCase {
	var cs []frameworkCase
	for _, mu := range []float64{0.5, 2} {
		p, err := dp.NewGDP(mu)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, frameworkCase{fmt.Sprintf("gdp μ=%v", mu), p,
			func(a float64) float64 { return shiftRef(a, mu) }, func(a float64) float64 { return shiftRef(a, -mu) }})
	}
	eps, delta := []float64{0.3, 1, 2}, []float64{0.1, 1e-3, 1e-6}
	p, err := dp.NewProfile(eps, delta)
	if err != nil {
		t.Fatal(err)
	}
	cs = append(cs, frameworkCase{"profile", p, func(a float64) float64 {
		b := 1.0
		for i := range eps {
			e := math.Exp(eps[i])
			b = min(b, e*a+delta[i], 1-(1-a-delta[i])/e)
		}
		return max(b, a)
	}, func(a float64) float64 {
		b := 0.0
		for i := range eps {
			e := math.Exp(eps[i])
			b = max(b, 1-delta[i]-e*(1-a), (a-delta[i])/e)
		}
		return min(b, a)
	}})
	al, be := []float64{0, 0.05, 0.5, 1}, []float64{0.9, 0.3, 0.05, 0}
	q, err := dp.NewTradeoff(al, be)
	if err != nil {
		t.Fatal(err)
	}
	f := func(x float64) float64 { // the curve
		for j := 0; j+1 < len(al); j++ {
			if x <= al[j+1] {
				return be[j] + (be[j+1]-be[j])*(x-al[j])/(al[j+1]-al[j])
			}
		}
		return 0
	}
	finv := func(y float64) float64 { // its inverse on the falling part
		if y >= be[0] {
			return 0
		}
		for j := 0; j+1 < len(be); j++ {
			if y >= be[j+1] {
				return al[j] + (be[j]-y)*(al[j+1]-al[j])/(be[j]-be[j+1])
			}
		}
		return 1
	}
	fs := func(x float64) float64 { return max(f(x), finv(x)) }
	cs = append(cs, frameworkCase{"tradeoff", q, func(a float64) float64 { return max(1-fs(a), a) },
		func(a float64) float64 { return min(fs(1-a), a) }})
	return cs
}

func shiftRef(a, s float64) float64 {
	if a <= 0 || a >= 1 {
		return a
	}
	return normalCDF(normalQuantile(a) + s)
}

// Generated instances of every framework, a thousand each: all engines give
// bit-identical fields (propagate, per-source, rounds with a random shard size),
// the written mechanism passes the exact audit (L*(a) ≤ b ≤ U*(a) on every edge),
// Algorithm 2 (query) at every vertex gives Solve's mechanism bit for bit, and
// p_true outside the hitting set is within 1e-12 of the reference optimum
// min_h U^d(a_h) (max_h L^d(a_h) for answer-0 datasets).
func TestFrameworksGeneratedInstances(t *testing.T) {
	count := 1000
	if testing.Short() {
		count = 150
	}
	ctx := context.Background()
	for _, fc := range frameworkCases(t) {
		r := rand.New(rand.NewPCG(3, 5))
		for k := range count {
			fam := testgraph.Families[k%len(testgraph.Families)]
			in := frameworkInstance(r, fam, 2+r.IntN(9), fc.pair)
			name := fmt.Sprintf("%s #%d %s n=%d", fc.name, k, fam.Name, in.G.N())
			for _, one := range []bool{false, true} {
				want := oracle(in, one)
				for _, eng := range append(engines, Rounds{ShardSize: 1 + r.IntN(6)}) {
					got, err := eng.Pass(ctx, in, one)
					if err != nil {
						t.Fatal(err)
					}
					if err := sameField(got, want); err != nil {
						t.Fatalf("%s pass %v: %s vs oracle: %v", name, one, eng.Name(), err)
					}
				}
			}
			sol, err := Solve(ctx, in, Propagate{}, 5)
			if err != nil {
				t.Fatal(err)
			}
			if sol.Infeasible != 0 {
				t.Fatalf("%s: feasible instance rejected: %+v", name, sol.Violations)
			}
			if a, err := check.Verify(ctx, in.G, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), in.Pair, 0, 3); err != nil || a.Violations != 0 {
				t.Fatalf("%s: %d violations, first %+v", name, a.Violations, a.First)
			}
			q := NewQuery(sol.Instance)
			for v := int32(0); int(v) < in.G.N(); v++ {
				got, err := q.Vertex(ctx, v)
				if err != nil {
					t.Fatal(err)
				}
				if math.Float64bits(got.POne) != math.Float64bits(sol.POne[v]) || math.Float64bits(got.PTrue) != math.Float64bits(sol.PTrue[v]) ||
					got.Bind != sol.Bind[v] || got.Dist != sol.Dist[v] {
					t.Fatalf("%s: vertex %d: query (p_one %v, bind %d, dist %d), Solve (%v, %d, %d)", name, v, got.POne, got.Bind, got.Dist, sol.POne[v], sol.Bind[v], sol.Dist[v])
				}
			}
			checkReference(t, name, in, sol, fc)
		}
	}
}

// frameworkInstance is a feasible instance: hitting-set values from a DP mechanism
// drawn by a few Gibbs steps (testgraph), kept few because each μ-GDP bound costs a
// certified math/big computation.
func frameworkInstance(r *rand.Rand, f testgraph.Family, n int, pair dp.Pair) *Instance {
	n, e := f.Make(r, n)
	g := testgraph.FromEdges(n, e)
	answer := make([]bool, n)
	for v := range answer {
		answer[v] = r.IntN(2) == 0
	}
	hit := testgraph.BoundaryHittingSet(r, g, answer)
	pone := make([]float64, n)
	for v := range pone {
		pone[v] = 0.5
	}
	testgraph.GibbsSteps(r, g, pair, pone, nil, 2*n, r.IntN(2) == 0)
	ptrue := make([]float64, len(hit))
	for i, h := range hit {
		ptrue[i] = pone[h]
		if !answer[h] {
			ptrue[i] = 1 - pone[h]
		}
	}
	in, err := NewInstance(g, answer, hit, ptrue, pair)
	if err != nil {
		panic(err)
	}
	return in
}

func checkReference(t *testing.T, name string, in *Instance, sol *Solution, fc frameworkCase) {
	t.Helper()
	n := in.G.N()
	inH := make([]bool, n)
	for _, h := range in.Hit {
		inH[h] = true
	}
	up, lo := make([]float64, n), make([]float64, n)
	for v := range up {
		up[v], lo[v] = 1, 0
	}
	for i, h := range in.Hit {
		dist := bfsDistances(in, h)
		a := hitPOne(in, i)
		for v := range n {
			if dist[v] < 0 {
				continue
			}
			u, l := a, a
			for range dist[v] {
				u, l = fc.up(u), fc.lo(l)
			}
			up[v], lo[v] = min(up[v], u), max(lo[v], l)
		}
	}
	for v := range n {
		if inH[v] {
			continue
		}
		want := lo[v]
		if in.Answer[v] {
			want = up[v]
		}
		if d := math.Abs(sol.POne[v] - want); d > 1e-12 {
			t.Errorf("%s: vertex %d p_one %v, reference optimum %v (off by %.3g)", name, v, sol.POne[v], want, d)
		}
	}
}

func bfsDistances(in *Instance, h int32) []int32 {
	dist := make([]int32, in.G.N())
	for v := range dist {
		dist[v] = -1
	}
	dist[h] = 0
	q := []int32{h}
	for k := 0; k < len(q); k++ {
		for _, y := range in.G.Neighbours(q[k]) {
			if dist[y] < 0 {
				dist[y] = dist[q[k]] + 1
				q = append(q, y)
			}
		}
	}
	return dist
}
