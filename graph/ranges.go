package graph

import (
	"slices"
	"sort"
)

// Above is the part of u's sorted list above u: each edge once, without a branch
// per arc that goes either way at random.
func (g *Graph) Above(u int32) []int32 {
	list := g.Adj[g.Off[u]:g.Off[u+1]]
	i, _ := slices.BinarySearch(list, u)
	return list[i:]
}

// Ranges splits 0..n−1 into contiguous ranges of about equal arc counts, as many as
// are worth scanning in parallel (one per GOMAXPROCS, one for a small graph): the
// checks scan them concurrently and merge in order, which gives one pass's result.
func (g *Graph) Ranges() [][2]int32 {
	parts := workersFor(len(g.Adj))
	n := g.N()
	arcs := int64(len(g.Adj))
	var out [][2]int32
	lo := 0
	for k := 1; k <= parts && lo < n; k++ {
		hi := n
		if k < parts {
			target := arcs * int64(k) / int64(parts)
			hi = max(lo, sort.Search(n, func(v int) bool { return g.Off[v] >= target }))
		}
		if hi > lo || k == parts {
			out = append(out, [2]int32{int32(lo), int32(hi)})
		}
		lo = hi
	}
	if len(out) == 0 {
		out = append(out, [2]int32{0, int32(n)})
	}
	return out
}
