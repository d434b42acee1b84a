package check

import (
	"sync"

	"github.com/graphdp/graphdp/graph"
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
