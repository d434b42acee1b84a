package graph

import (
	"context"
	"slices"

	"github.com/graphdp/graphdp/internal/prefetch"
)

// Forest is a union-find over 0..len−1: link by smaller index, path halving. The root
// of a set is always its smallest element (doc.go invariant 5), so roots computed
// apart — in different shards, on different workers — name their sets the same way
// and can be merged later.
type Forest []int32

// NewForest is n singletons.
func NewForest(n int) Forest {
	f := make(Forest, n)
	for i := range f {
		f[i] = int32(i)
	}
	return f
}

// Find is x's root, the smallest element of its set.
func (f Forest) Find(x int32) int32 {
	for f[x] != x {
		f[x] = f[f[x]]
		x = f[x]
	}
	return x
}

// Union joins u's and v's sets and reports whether they were apart.
func (f Forest) Union(u, v int32) bool {
	ru, rv := f.Find(u), f.Find(v)
	switch {
	case ru < rv:
		f[rv] = ru
	case rv < ru:
		f[ru] = rv
	default:
		return false
	}
	return true
}

// LocalRoots labels the shard's vertices by their connected component in the shard's
// own subgraph (its arcs with both ends inside it): Root[i] is the smallest global
// position of vertex Lo+i's local component. Comps is the number of local components.
// The components of the whole graph are these, joined along the cut arcs (Cut):
// counting them needs only the labels of the cut arcs' ends, not the blocks.
func (sh *Shard) LocalRoots() (root []int32, comps int) {
	n := sh.Len()
	f := NewForest(n)
	hi := sh.Lo + int32(n)
	for i := range n {
		for _, w := range sh.Neighbours(i) {
			if w > sh.Lo+int32(i) && w < hi {
				f.Union(int32(i), w-sh.Lo)
			}
		}
	}
	root = make([]int32, n)
	for i := range root {
		r := f.Find(int32(i))
		if int(r) == i {
			comps++
		}
		root[i] = sh.Lo + r
	}
	return root, comps
}

// Link is an edge between two local components' roots (global positions).
type Link [2]int32

// Spanning keeps the links that join distinct sets, in order, dropping those that
// close a cycle with the links kept before them: the same components with at most
// (distinct roots − 1) links. Joining k components by the kept links merges exactly
// len(kept) pairs, so a count of components minus len(Spanning(all links)) is the
// count after joining.
func Spanning(links []Link) []Link {
	if len(links) == 0 {
		return nil
	}
	ids := make([]int32, 0, 2*len(links))
	for _, l := range links {
		ids = append(ids, l[0], l[1])
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	at := func(x int32) int32 {
		i, _ := slices.BinarySearch(ids, x)
		return int32(i)
	}
	f := NewForest(len(ids))
	var kept []Link
	for _, l := range links {
		if f.Union(at(l[0]), at(l[1])) {
			kept = append(kept, l)
		}
	}
	return kept
}

// Components labels the connected components 0..k−1 by breadth-first search, in
// the order of their smallest vertex, and returns the labels and k. It is the plain
// reference CountComponents is tested against, and what a caller that needs the
// members (report's drawing) uses; CountComponents is faster when the count is all.
func (g *Graph) Components() ([]int32, int) {
	n := g.N()
	label := make([]int32, n)
	for i := range label {
		label[i] = -1
	}
	queue := make([]int32, 0, 64)
	k := 0
	for s := 0; s < n; s++ {
		if label[s] >= 0 {
			continue
		}
		label[s] = int32(k)
		queue = append(queue[:0], int32(s))
		for head := 0; head < len(queue); head++ {
			for _, y := range g.Neighbours(queue[head]) {
				if label[y] < 0 {
					label[y] = int32(k)
					queue = append(queue, y)
				}
			}
		}
		k++
	}
	return label, k
}

// CountComponents is the number of connected components, without labels: GAP's
// Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018) run on one core. Union-find (link
// by smaller index, path halving) first joins every vertex to its first two
// neighbours in one sequential sweep of the CSR; the component the most sampled
// vertices then belong to — the giant one, if any — is skipped in the sweep over
// the remaining neighbours, which is sound because every edge is stored in both
// directions, so an edge leaving that component is still seen from its other end.
// A BFS would touch every vertex's list in queue order, a cache miss per vertex;
// this reads the CSR front to back, prefetching the forest's entries the links
// will read (countAhead). Cost: O(n + arcs outside the giant component)
// union-find steps, O(log) amortised each in the worst case. The error is ctx's:
// the sweeps look at it every countCheckEvery vertices.
func (g *Graph) CountComponents(ctx context.Context) (int, error) {
	n := g.N()
	comp := NewForest(n)
	const rounds = 2
	for r := int64(0); r < rounds; r++ {
		for u := range int32(n) {
			if u%countCheckEvery == 0 && ctx.Err() != nil {
				return 0, ctx.Err()
			}
			if w := u + countAhead; w < int32(n) {
				// The two reads at random of a vertex countAhead further on:
				// its neighbour's parent and its own.
				if i := g.Off[w] + r; i < g.Off[w+1] {
					prefetch.At(comp, int(g.Adj[i]))
				}
				prefetch.At(comp, int(comp[w]))
			}
			if i := g.Off[u] + r; i < g.Off[u+1] {
				comp.Union(u, g.Adj[i])
			}
		}
	}
	for u := range int32(n) {
		if w := u + countAhead; w < int32(n) {
			prefetch.At(comp, int(comp[w]))
		}
		comp[u] = comp.Find(u)
	}
	// The most frequent root among evenly spaced samples.
	c := int32(-1)
	if n > 0 {
		counts := map[int32]int{}
		stride := max(1, n/1024)
		best := 0
		for i := 0; i < n; i += stride {
			r := comp[i]
			counts[r]++
			if counts[r] > best || (counts[r] == best && r < c) {
				best, c = counts[r], r
			}
		}
	}
	for u := range int32(n) {
		if u%countCheckEvery == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		if comp[u] == c {
			continue
		}
		for _, v := range g.Adj[g.Off[u]+min(rounds, g.Off[u+1]-g.Off[u]) : g.Off[u+1]] {
			comp.Union(u, v)
		}
	}
	k := 0
	for u, r := range comp {
		if int(r) == u {
			k++
		}
	}
	return k, nil
}

// countCheckEvery is how many vertices CountComponents sweeps between looks at its
// context: a fraction of a millisecond.
const countCheckEvery = 1 << 16

// countAhead is how many vertices ahead CountComponents' sweeps prefetch (package
// prefetch) the forest's entries they will read at random: once the forest is
// larger than the cache, each link is a miss on the neighbour's parent and often
// on the vertex's own, and a sweep does only a few dozen instructions a vertex,
// so the misses of about countAhead vertices are in flight at once. A random
// graph of 10^7 vertices and 5·10^7 rows, 4 alternations: 2.0–3.5 s → 1.5–2.1 s
// on a shared machine, 1.22 s quiet (BenchmarkCountComponents; docs/PERFORMANCE.md,
// "Check and audit").
const countAhead = 16
