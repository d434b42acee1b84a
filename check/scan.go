package check

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/prefetch"
)

// scan runs fn on g's vertices, each of g's ranges (Graph.Ranges) on its own
// goroutine, cut into chunks of at most scanChunk vertices, and returns the
// results in vertex order, so a caller that merges them in order gets one pass's
// result whatever the number of ranges and chunks. done, when not nil, counts the
// vertices scanned as the chunks end (a progress display's count).
func scan[T any](g *graph.Graph, done *atomic.Int64, fn func(lo, hi int32) T) []T {
	parts := g.Ranges()
	res := make([][]T, len(parts))
	var wg sync.WaitGroup
	for k, r := range parts {
		wg.Go(func() {
			for lo := r[0]; ; {
				hi := int32(min(int64(r[1]), int64(lo)+scanChunk))
				res[k] = append(res[k], fn(lo, hi))
				if done != nil {
					done.Add(int64(hi - lo))
				}
				if hi >= r[1] {
					break
				}
				lo = hi
			}
		})
	}
	wg.Wait()
	return slices.Concat(res...)
}

// scanChunk is the vertices scan gives fn at a time: a count every few
// milliseconds, and a merge per chunk that costs nothing beside its edges.
const scanChunk = 1 << 16

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
