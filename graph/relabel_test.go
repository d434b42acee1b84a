package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A hand-worked order (invariant 6): edges 0–2, 2–1, 2–5, 4–5 and 3 alone. From 0:
// 0 is 0, its neighbour 2 is 1; 2's unnumbered neighbours in list order, 1 then 5,
// are 2 and 3; 5's neighbour 4 is 4; then the next component, {3}, is 5.
func TestBFSOrderByHand(t *testing.T) {
	g, _ := Build(6, []int32{0, 2, 2, 4}, []int32{2, 1, 5, 5})
	want := []int32{0, 2, 1, 5, 4, 3}
	if got := g.BFSOrder(); !slices.Equal(got, want) {
		t.Fatalf("BFSOrder = %v, want %v", got, want)
	}
}

// randomGraph is a sparse random graph on n vertices with about m edge rows: many
// components below the giant component's threshold.
func randomGraph(r *rand.Rand, n, m int) *Graph {
	src, dst := make([]int32, m), make([]int32, m)
	for i := range src {
		src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
	}
	g, _ := Build(n, src, dst)
	return g
}

// BFSOrder is a bijection (invariant 6), each component's numbers are consecutive,
// components come in the order of their smallest position, and within a component
// the numbers never decrease with the distance from its smallest position (levels
// in order).
func TestBFSOrderIsBreadthFirstBijection(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 30))
	for trial := range 200 {
		n := 1 + r.IntN(200)
		g := randomGraph(r, n, r.IntN(2*n))
		perm := g.BFSOrder()
		if err := CheckPermutation(perm, n); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		label, k := g.Components()
		lo, hi := make([]int32, k), make([]int32, k)
		for c := range k {
			lo[c], hi[c] = int32(n), -1
		}
		for v, p := range perm {
			c := label[v]
			lo[c], hi[c] = min(lo[c], p), max(hi[c], p)
		}
		size := make([]int32, k)
		for _, c := range label {
			size[c]++
		}
		for c := range k {
			if hi[c]-lo[c]+1 != size[c] || (c > 0 && lo[c] != hi[c-1]+1) || (c == 0 && lo[c] != 0) {
				t.Fatalf("trial %d: component %d numbered [%d, %d], %d vertices", trial, c, lo[c], hi[c], size[c])
			}
		}
		first := make([]int32, k) // each component's smallest position
		for c := range first {
			first[c] = -1
		}
		for v := range n {
			if c := label[v]; first[c] < 0 {
				first[c] = int32(v)
			}
		}
		d := g.Distances(first)
		for u := range n {
			for v := range n {
				if label[u] == label[v] && d[u] < d[v] && perm[u] > perm[v] {
					t.Fatalf("trial %d: %d (level %d) numbered %d after %d (level %d) numbered %d", trial, u, d[u], perm[u], v, d[v], perm[v])
				}
			}
		}
	}
}

// Relabel renames every edge and nothing else (invariant 6): its CSR is the one Build
// makes from the renamed rows, and the inverse undoes the permutation. Every other
// graph has a hub joined to a third of the vertices: lists longer than sortList's
// insertion sort takes.
func TestRelabelRenamesEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 30))
	for trial := range 100 {
		n := 1 + r.IntN(300)
		m := r.IntN(4 * n)
		src, dst := make([]int32, m), make([]int32, m)
		for i := range src {
			src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
		}
		if trial%2 == 0 {
			hub := int32(r.IntN(n))
			for v := 0; v < n; v += 3 {
				src, dst = append(src, hub), append(dst, int32(v))
			}
		}
		g, _ := Build(n, src, dst)
		perm := make([]int32, n)
		for i, p := range r.Perm(n) {
			perm[i] = int32(p)
		}
		h, inv, err := g.Relabel(perm)
		if err != nil {
			t.Fatal(err)
		}
		for i := range src {
			src[i], dst[i] = perm[src[i]], perm[dst[i]]
		}
		off, adj := referenceCSR(n, src, dst)
		if !slices.Equal(h.Off, off) || !slices.Equal(h.Adj, adj) {
			t.Fatalf("trial %d: relabelled CSR differs from the renamed rows' build", trial)
		}
		for v, p := range perm {
			if inv[p] != int32(v) {
				t.Fatalf("trial %d: inverse[%d] = %d, want %d", trial, p, inv[p], v)
			}
		}
	}
}

// Relabel refuses what is not a permutation.
func TestRelabelRefusesNonPermutations(t *testing.T) {
	g, _ := Build(3, []int32{0, 1}, []int32{1, 2})
	for _, perm := range [][]int32{{0, 1}, {0, 1, 1}, {0, 1, 3}, {-1, 0, 1}, {0, 1, 2, 3}} {
		if _, _, err := g.Relabel(perm); err == nil {
			t.Errorf("Relabel(%v) accepted", perm)
		}
	}
}

// CutArcs counts the arcs between shards: the obvious count over g and over the
// renamed graph, for a random permutation and none, on shards of every size.
func TestCutArcs(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 30))
	count := func(g *Graph, l Layout) int64 {
		c := int64(0)
		for u := range int32(g.N()) {
			for _, v := range g.Neighbours(u) {
				if u/l.Size != v/l.Size {
					c++
				}
			}
		}
		return c
	}
	for trial := range 100 {
		n := 1 + r.IntN(300)
		g := randomGraph(r, n, r.IntN(4*n))
		perm := make([]int32, n)
		for i, p := range r.Perm(n) {
			perm[i] = int32(p)
		}
		h, _, err := g.Relabel(perm)
		if err != nil {
			t.Fatal(err)
		}
		l := Layout{N: int32(n), Size: int32(1 + r.IntN(n))}
		given, renamed := g.CutArcs(l, perm)
		if given != count(g, l) || renamed != count(h, l) {
			t.Fatalf("trial %d: CutArcs = %d, %d, want %d, %d", trial, given, renamed, count(g, l), count(h, l))
		}
		if given, renamed := g.CutArcs(l, nil); given != count(g, l) || renamed != 0 {
			t.Fatalf("trial %d: CutArcs without a permutation = %d, %d", trial, given, renamed)
		}
	}
}

// ProbeCut counts CutArcs' cut over the arcs among the first limit vertices of
// BFSOrder: the obvious count over that prefix, and CutArcs itself when limit ≥ n.
func TestProbeCut(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 30))
	for trial := range 200 {
		n := 1 + r.IntN(300)
		g := randomGraph(r, n, r.IntN(4*n))
		l := Layout{N: int32(n), Size: int32(1 + r.IntN(n))}
		perm := g.BFSOrder()
		limit := 1 + r.IntN(n+n/4)
		var arcs, given, renamed int64
		for u := range int32(n) {
			for _, v := range g.Neighbours(u) {
				if int(perm[u]) >= limit || int(perm[v]) >= limit {
					continue
				}
				arcs++
				if u/l.Size != v/l.Size {
					given++
				}
				if perm[u]/l.Size != perm[v]/l.Size {
					renamed++
				}
			}
		}
		a, gv, rn := g.ProbeCut(l, limit)
		if a != arcs || gv != given || rn != renamed {
			t.Fatalf("trial %d (limit %d of %d): ProbeCut = %d, %d, %d, want %d, %d, %d", trial, limit, n, a, gv, rn, arcs, given, renamed)
		}
		if limit >= n {
			if fg, fr := g.CutArcs(l, perm); a != int64(len(g.Adj)) || gv != fg || rn != fr {
				t.Fatalf("trial %d: whole probe %d, %d, %d; CutArcs %d, %d of %d", trial, a, gv, rn, fg, fr, len(g.Adj))
			}
		}
	}
}
