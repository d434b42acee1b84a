package check

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/progress"
)

// scan runs fn on g's vertices in chunks of at most scanChunk consecutive
// vertices, on g.Workers() goroutines (one per core for a large graph), each
// taking the next chunk when it is done with one, and
// returns the results in vertex order, so a caller that merges them in order gets
// one pass's result whatever the schedule. Chunks, not fixed ranges, because the
// work per edge varies (the audit's certified bounds cluster in places): with a
// range per core, one core finished a third early on uniform10M. ctx's progress
// counter (internal/progress), if any, counts the vertices scanned as the chunks
// end; a cancelled ctx stops the scan between chunks and is its error.
func scan[T any](ctx context.Context, g *graph.Graph, fn func(lo, hi int32) T) ([]T, error) {
	done := progress.From(ctx)
	n := int64(g.N())
	chunks := max(1, (n+scanChunk-1)/scanChunk)
	res := make([]T, chunks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(int64(g.Workers()), chunks) {
		wg.Go(func() {
			for k := next.Add(1) - 1; k < chunks; k = next.Add(1) - 1 {
				if ctx.Err() != nil {
					return // a chunk lasts milliseconds: cancellation is seen at once
				}
				lo, hi := k*scanChunk, min(n, (k+1)*scanChunk)
				res[k] = fn(int32(lo), int32(hi))
				done.Add(hi - lo)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

// scanChunk is the vertices scan gives fn at a time: a count every few
// milliseconds, and a merge per chunk that costs nothing beside its edges.
const scanChunk = 1 << 16

// eachAbove calls fn(u, g.Above(u)) for u in [lo, hi) in order. The checks read
// a per-vertex array at each such v: one random access per edge, a cache miss once
// the array is larger than the cache. The lists of the next vertices are already
// known, so before u's call it has pf prefetch what the list of u+aboveAhead will
// read (package prefetch), and the misses of several vertices' edges overlap. pf
// may be nil: what the lists index stays in cache (the hitting check's bitmaps).
func eachAbove(g *graph.Graph, lo, hi int32, pf func(list []int32), fn func(u int32, above []int32)) {
	if pf == nil {
		for u := lo; u < hi; u++ {
			fn(u, g.Above(u))
		}
		return
	}
	var ring [aboveRing][]int32
	ahead := func(w int32) {
		if w < hi {
			ring[w%aboveRing] = g.Above(w)
			pf(ring[w%aboveRing])
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
