package cover

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// checkCover asserts what König's theorem promises: the cover hits every boundary
// edge, the matching is a matching of boundary edges, and both have the same size.
func checkCover(t *testing.T, name string, g *graph.Graph, answer []bool, bc *Cover) {
	t.Helper()
	in := make([]bool, g.N())
	for i, v := range bc.Vertices {
		if i > 0 && bc.Vertices[i-1] >= v {
			t.Fatalf("%s: cover not ascending: %v", name, bc.Vertices)
		}
		in[v] = true
	}
	var edges int64
	boundary := 0
	matched := 0
	for u := int32(0); int(u) < g.N(); u++ {
		isB := false
		for _, v := range g.Neighbours(u) {
			if answer[u] == answer[v] {
				continue
			}
			isB = true
			if v > u {
				edges++
				if !in[u] && !in[v] {
					t.Fatalf("%s: boundary edge %d–%d not covered by %v", name, u, v, bc.Vertices)
				}
			}
		}
		if isB {
			boundary++
		} else if in[u] {
			t.Fatalf("%s: vertex %d in the cover has no boundary edge", name, u)
		}
		if m := bc.Mate[u]; m >= 0 {
			if bc.Mate[m] != u || answer[m] == answer[u] || !slices.Contains(g.Neighbours(u), m) {
				t.Fatalf("%s: bad matching pair %d–%d", name, u, m)
			}
			matched++
		}
	}
	if edges != bc.BoundaryEdges || boundary != bc.Boundary {
		t.Fatalf("%s: counts %d edges, %d vertices; want %d, %d", name, bc.BoundaryEdges, bc.Boundary, edges, boundary)
	}
	if matched != 2*bc.Matching || len(bc.Vertices) != bc.Matching {
		t.Fatalf("%s: matching %d (%d matched vertices), cover %d: König says equal", name, bc.Matching, matched, len(bc.Vertices))
	}
}

// bruteCover is the size of a minimum vertex cover of the boundary graph, by trying
// every subset of boundary vertices (at most 20 of them).
func bruteCover(g *graph.Graph, answer []bool) int {
	var verts []int32
	idx := make(map[int32]int)
	var edges [][2]int
	for u := int32(0); int(u) < g.N(); u++ {
		for _, v := range g.Neighbours(u) {
			if v > u && answer[u] != answer[v] {
				for _, x := range []int32{u, v} {
					if _, ok := idx[x]; !ok {
						idx[x] = len(verts)
						verts = append(verts, x)
					}
				}
				edges = append(edges, [2]int{idx[u], idx[v]})
			}
		}
	}
	best := len(verts)
	for s := uint32(0); s < 1<<len(verts); s++ {
		if bits.OnesCount32(s) >= best {
			continue
		}
		ok := true
		for _, e := range edges {
			if s&(1<<e[0]) == 0 && s&(1<<e[1]) == 0 {
				ok = false
				break
			}
		}
		if ok {
			best = bits.OnesCount32(s)
		}
	}
	return best
}

// Thousands of random bipartite boundary graphs: random bipartite graphs (sides are
// the answers; same-side edges are added too, and must be ignored) and the generator
// families with random answers. Small ones are cross-checked by brute force; every
// one gives the same cover with the matching grown from either side.
func TestBoundary(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 19))
	brute := 0
	for k := range testgraph.Instances(4000, 400) {
		var (
			n      int
			e      [][2]int32
			answer []bool
			name   string
		)
		if k%2 == 0 {
			a, b := 1+r.IntN(12), 1+r.IntN(12)
			n = a + b
			answer = make([]bool, n)
			for v := a; v < n; v++ {
				answer[v] = true
			}
			p := r.Float64()
			for u := 0; u < a; u++ {
				for v := a; v < n; v++ {
					if r.Float64() < p {
						e = append(e, [2]int32{int32(u), int32(v)})
					}
				}
			}
			for j := r.IntN(5); j > 0; j-- { // same-answer edges, not boundary
				u := r.IntN(a)
				e = append(e, [2]int32{int32(u), int32(r.IntN(a))})
			}
			perm := r.Perm(n) // interleave the sides
			for i := range e {
				e[i] = [2]int32{int32(perm[e[i][0]]), int32(perm[e[i][1]])}
			}
			pa := make([]bool, n)
			for v := range answer {
				pa[perm[v]] = answer[v]
			}
			answer = pa
			name = "bipartite"
		} else {
			f := testgraph.Families[k%len(testgraph.Families)]
			n, e = f.Make(r, 1+r.IntN(60))
			answer = make([]bool, n)
			q := r.Float64()
			for v := range answer {
				answer[v] = r.Float64() < q
			}
			name = f.Name
		}
		g := testgraph.FromEdges(n, e)
		bc, err := Boundary(context.Background(), g, answer)
		if err != nil {
			t.Fatal(err)
		}
		checkCover(t, name, g, answer, bc)
		// The same cover whichever side the matching grows from (konig).
		for _, from := range []bool{false, true} {
			other, err := boundaryFrom(context.Background(), g, answer, &from)
			if err != nil {
				t.Fatal(err)
			}
			checkCover(t, name, g, answer, other)
			if !slices.Equal(other.Vertices, bc.Vertices) {
				t.Fatalf("#%d %s: matched from answer %v the cover is %v, from the smaller side %v", k, name, from, other.Vertices, bc.Vertices)
			}
		}
		if bc.Boundary <= 20 {
			brute++
			if want := bruteCover(g, answer); len(bc.Vertices) != want {
				t.Fatalf("#%d %s: cover %v of size %d, brute force minimum %d", k, name, bc.Vertices, len(bc.Vertices), want)
			}
		}
	}
	if brute < testgraph.Instances(1000, 100) {
		t.Fatalf("only %d graphs cross-checked by brute force", brute)
	}
}

// Large graphs, where Hopcroft–Karp needs several phases and long augmenting paths:
// still a valid cover with König's equality.
func TestBoundaryLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 29))
	for _, n := range []int{1000, 20000} {
		for _, f := range testgraph.Families {
			m, e := f.Make(r, n)
			answer := make([]bool, m)
			for v := range answer {
				answer[v] = r.IntN(2) == 0
			}
			g := testgraph.FromEdges(m, e)
			bc, err := Boundary(context.Background(), g, answer)
			if err != nil {
				t.Fatal(err)
			}
			checkCover(t, f.Name, g, answer, bc)
		}
	}
	// A long path alternating answers, where the greedy start leaves the worst case.
	m := 100001
	var e [][2]int32
	for i := 1; i < m; i++ {
		e = append(e, [2]int32{int32(i - 1), int32(i)})
	}
	answer := make([]bool, m)
	for v := range answer {
		answer[v] = v%2 == 1
	}
	g := testgraph.FromEdges(m, e)
	bc, _ := Boundary(context.Background(), g, answer)
	checkCover(t, "alternating path", g, answer, bc)
	if bc.Matching != m/2 {
		t.Fatalf("alternating path of %d vertices: matching %d, want %d", m, bc.Matching, m/2)
	}
}

// The paper's Figure 1 (docs/DESIGN.md §10.4): boundary edges l–q, h–n, h–i, r–s, r–t, f–u.
// By hand: h covers h–n and h–i, r covers r–s and r–t, and l–q, f–u need one end each,
// so the minimum has 4 vertices (the paper's hitting set {l, h, u, s, t} has 5).
func TestBoundaryPaperFigure1(t *testing.T) {
	names, g, answer := testgraph.Figure1()
	bc, err := Boundary(context.Background(), g, answer)
	if err != nil {
		t.Fatal(err)
	}
	checkCover(t, "figure 1", g, answer, bc)
	var got []string
	for _, v := range bc.Vertices {
		got = append(got, names[v:v+1])
	}
	if len(got) != 4 || !slices.Contains(got, "h") || !slices.Contains(got, "r") || bc.Boundary != 10 || bc.BoundaryEdges != 6 {
		t.Fatalf("cover %v (boundary %d vertices, %d edges), want h, r and one end of l–q and of f–u (10, 6)", got, bc.Boundary, bc.BoundaryEdges)
	}
}

func TestBoundaryCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, g, answer := testgraph.Figure1()
	if _, err := Boundary(ctx, g, answer); err == nil {
		t.Error("a cancelled cover returned no error")
	}
}

func BenchmarkBoundary(b *testing.B) {
	r := rand.New(rand.NewPCG(31, 37))
	for _, n := range []int{10000, 1000000} {
		m, e := testgraph.Families[6].Make(r, n) // random multigraph
		answer := make([]bool, m)
		for v := range answer {
			answer[v] = r.IntN(2) == 0
		}
		g := testgraph.FromEdges(m, e)
		b.Run("random/"+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Boundary(context.Background(), g, answer); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// boundaryOf's concurrent ranges join into the one scan's result: the boundary of
// any split of the vertices into ranges, concatenated, is the whole range's, and so
// is the edge count.
func TestBoundaryOfSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 37))
	for trial := range 50 {
		f := testgraph.Families[trial%len(testgraph.Families)]
		n, e := f.Make(r, 2+r.IntN(300))
		g := testgraph.FromEdges(n, e)
		answer := make([]bool, n)
		for v := range answer {
			answer[v] = r.IntN(3) == 0
		}
		whole, edges := boundaryIn(g, answer, 0, int32(n))
		a, b := int32(r.IntN(n+1)), int32(r.IntN(n+1))
		a, b = min(a, b), max(a, b)
		var joined []int32
		var count int64
		for _, rg := range [][2]int32{{0, a}, {a, b}, {b, int32(n)}} {
			vs, c := boundaryIn(g, answer, rg[0], rg[1])
			joined, count = append(joined, vs...), count+c
		}
		if !slices.Equal(joined, whole) || count != edges {
			t.Fatalf("%s, split at %d, %d: %v (%d edges), whole %v (%d)", f.Name, a, b, joined, count, whole, edges)
		}
		if vs, c := boundaryOf(g, answer); !slices.Equal(vs, whole) || c != edges {
			t.Fatalf("%s: boundaryOf %v (%d edges), one scan %v (%d)", f.Name, vs, c, whole, edges)
		}
	}
}
