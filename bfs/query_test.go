package bfs

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// Algorithm 2 at every vertex gives exactly Solve's mechanism — p_one and p_true bit
// for bit, the binding vertex and its distance — on thousands of generated instances
// (every family, ε = 0 and δ = 0 included, values exactly on the feasibility edge).
func TestQueryEqualsSolve(t *testing.T) {
	ctx := context.Background()
	queried := 0
	forInstances(t, 4000, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		sol, err := Solve(ctx, in, Propagate{}, 1)
		if err != nil || sol.Infeasible != 0 {
			t.Fatalf("%s: %v %+v", name, err, sol.Violations)
		}
		q := NewQuery(sol.Instance)
		for v := int32(0); int(v) < in.G.N(); v++ {
			got, err := q.Vertex(ctx, v)
			if err != nil {
				t.Fatal(err)
			}
			queried++
			if math.Float64bits(got.POne) != math.Float64bits(sol.POne[v]) || math.Float64bits(got.PTrue) != math.Float64bits(sol.PTrue[v]) ||
				got.Bind != sol.Bind[v] || got.Dist != sol.Dist[v] {
				t.Fatalf("%s: vertex %d: query (p_one %v, p_true %v, bind %d, dist %d), Solve (%v, %v, %d, %d)",
					name, v, got.POne, got.PTrue, got.Bind, got.Dist, sol.POne[v], sol.PTrue[v], sol.Bind[v], sol.Dist[v])
			}
			if got.Vertices < 1 || got.Vertices > in.G.N() || got.Scans > int64(len(in.G.Adj)) {
				t.Fatalf("%s: vertex %d: touched %d vertices, %d scans", name, v, got.Vertices, got.Scans)
			}
		}
	})
	if queried < testgraph.Instances(10000, 1000) {
		t.Fatalf("only %d queries", queried)
	}
}

// Ties the order must break the same way as the propagation: ε = δ = 0 (Step is the
// identity, so every hitting-set value reaches everything unchanged) and equal values
// from many sources, on families with many equal-length paths.
func TestQueryTies(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 5))
	for k := range testgraph.Instances(600, 60) {
		pair := []dp.Pair{testgraph.MustDP(0, 0), testgraph.MustDP(math.Ln2, 0), testgraph.MustDP(0, 0.25)}[k%3]
		g, answer, hit := testgraph.RandomHitting(r, k)
		f, n := testgraph.Families[k%len(testgraph.Families)], g.N()
		ptrue := make([]float64, len(hit))
		// With ε = 0 a DP mechanism is constant on each component (δ = 0): one value
		// everywhere keeps it feasible; otherwise the balanced α.
		alpha := (pair.E() + pair.Delta) / (pair.E() + 1)
		c := []float64{0.5, 0.75, 1}[r.IntN(3)]
		for i, h := range hit {
			switch {
			case pair.Epsilon > 0 || pair.Delta > 0:
				ptrue[i] = alpha
			case answer[h]:
				ptrue[i] = c
			default:
				ptrue[i] = 1 - c
			}
		}
		in, err := NewInstance(g, answer, hit, ptrue, pair)
		if err != nil {
			t.Fatal(err)
		}
		sol, _ := Solve(ctx, in, Propagate{}, 1)
		if sol.Infeasible != 0 {
			continue
		}
		q := NewQuery(sol.Instance)
		for v := int32(0); int(v) < n; v++ {
			got, _ := q.Vertex(ctx, v)
			if got.POne != sol.POne[v] || got.Bind != sol.Bind[v] || got.Dist != sol.Dist[v] {
				t.Fatalf("#%d %s ε=%v δ=%v: vertex %d: query (%v, %d, %d), Solve (%v, %d, %d)",
					k, f.Name, pair.Epsilon, pair.Delta, v, got.POne, got.Bind, got.Dist, sol.POne[v], sol.Bind[v], sol.Dist[v])
			}
		}
	}
}

// The search is local: on a long path with the boundary in the middle, a vertex near
// it touches a few vertices, and one far away stops where U^d(amin) reaches 1
// (hand derivation: with ε = 0.5, δ = 1e-6 and the balanced α, U^d reaches 1 within
// about 40 steps), not at the ends of the path.
func TestQueryIsLocal(t *testing.T) {
	const n = 100000
	var e [][2]int32
	for i := 1; i < n; i++ {
		e = append(e, [2]int32{int32(i - 1), int32(i)})
	}
	g := testgraph.FromEdges(n, e)
	answer := make([]bool, n)
	for v := n / 2; v < n; v++ {
		answer[v] = true
	}
	pair := testgraph.MustDP(0.5, 1e-6)
	alpha := (pair.E() + pair.Delta) / (pair.E() + 1)
	in, _ := NewInstance(g, answer, []int32{n/2 - 1, n / 2}, []float64{alpha, alpha}, pair)
	q := NewQuery(in)
	for _, tc := range []struct {
		v   int32
		max int
	}{{n / 2, 3}, {n/2 + 5, 16}, {n - 1, 200}, {0, 200}} {
		got, err := q.Vertex(context.Background(), tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if got.Vertices > tc.max {
			t.Errorf("vertex %d: touched %d vertices, want at most %d", tc.v, got.Vertices, tc.max)
		}
	}
	// And the answer next to the boundary is the paper's corollary (docs/DESIGN.md §10.3) at d = 5.
	got, _ := q.Vertex(context.Background(), n/2+5)
	ee, d := pair.E(), 5.0
	want := 1 - (ee-1-pair.Delta*(math.Exp(pair.Epsilon*(d+1))+math.Exp(pair.Epsilon*d)-2))/(math.Exp(pair.Epsilon*d)*(ee+1)*(ee-1))
	if math.Abs(got.PTrue-want) > 1e-12 || got.Bind != n/2 || got.Dist != 5 {
		t.Errorf("vertex n/2+5: p_true %v bound by %d at %d, want %v by %d at 5", got.PTrue, got.Bind, got.Dist, want, n/2)
	}
}

func TestQueryCancelled(t *testing.T) {
	// With ε = δ = 0 and the only hitting-set vertex at the far end, the search from
	// vertex 0 would walk the whole path.
	n, e := testgraph.Families[0].Make(nil, 2000)
	in, err := NewInstance(testgraph.FromEdges(n, e), make([]bool, n), []int32{int32(n - 1)}, []float64{0.5}, testgraph.MustDP(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := NewQuery(in).Vertex(context.Background(), 0); res.Vertices != n || res.Bind != int32(n-1) {
		t.Fatalf("uncancelled: touched %d of %d, bound by %d", res.Vertices, n, res.Bind)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewQuery(in).Vertex(ctx, 0); err == nil {
		t.Error("a cancelled query returned no error")
	}
}

func BenchmarkQuery(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{1000, 100000} {
		in := randomInstance(r, testgraph.Families[2], n, testgraph.MustDP(0.5, 1e-6))
		q := NewQuery(in)
		b.Run("grid/"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			v := int32(0)
			for b.Loop() {
				if _, err := q.Vertex(context.Background(), v); err != nil {
					b.Fatal(err)
				}
				v = (v + 7919) % int32(in.G.N())
			}
		})
	}
}
