package check

import (
	"sync"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/prefetch"
)

// scan runs fn on each of g's vertex ranges (Graph.Ranges) concurrently and returns
// the results in range order, so a caller that merges them in order gets one pass's
// result whatever the number of ranges.
func scan[T any](g *graph.Graph, fn func(lo, hi int32) T) []T {
	parts := g.Ranges()
	res := make([]T, len(parts))
	var wg sync.WaitGroup
	for k, r := range parts {
		wg.Go(func() { res[k] = fn(r[0], r[1]) })
	}
	wg.Wait()
	return res
}

// eachAbove calls fn(u, g.Above(u)) for u in [lo, hi) in order. The checks read
// at[v] for each such v: one random access per edge, a cache miss once at is
// larger than the cache. The lists of the next vertices are already known, so
// before u's call it prefetches at[v] for the list of u+aboveAhead (package
// prefetch), and the misses of several vertices' edges overlap.
func eachAbove[T any](g *graph.Graph, at []T, lo, hi int32, fn func(u int32, above []int32)) {
	var ring [aboveRing][]int32
	ahead := func(w int32) {
		if w < hi {
			ring[w%aboveRing] = g.Above(w)
			prefetch.Each(at, ring[w%aboveRing])
		}
	}
	for w := lo; w < lo+aboveAhead && w < hi; w++ {
		ahead(w)
	}
	for u := lo; u < hi; u++ {
		ahead(u + aboveAhead)
		fn(u, ring[u%aboveRing])
	}
}

// How many vertices ahead eachAbove prefetches, and its ring of lists.
const (
	aboveAhead = 4
	aboveRing  = 8
)
