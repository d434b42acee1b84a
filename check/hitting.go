package check

import (
	"context"

	"github.com/graphdp/graphdp/graph"
)

// HitCheck is the one-pass check that a set hits every boundary edge.
type HitCheck struct {
	Boundary  int64        // edges whose ends answer differently
	Uncovered int64        // boundary edges with neither end in the set
	First     []graph.Edge // the first uncovered ones in CSR order (U < V)
}

// Hitting scans every edge once; hit lists the set's vertices (repeats allowed).
// Vertex ranges are scanned in parallel and merged in CSR order (the same result as
// one pass). ctx's progress counter counts the vertices checked (up to g.N()); the
// error is ctx's, when it is cancelled.
func Hitting(ctx context.Context, g *graph.Graph, answer []bool, hit []int32, limit int) (HitCheck, error) {
	ans, in := hitBitmaps(answer, hit)
	var hc HitCheck
	parts, err := scan(ctx, g, func(lo, hi int32) HitCheck { return checkHittingRange(g, ans, in, limit, lo, hi) })
	if err != nil {
		return hc, err
	}
	for _, r := range parts {
		hc.Boundary += r.Boundary
		hc.Uncovered += r.Uncovered
		for _, e := range r.First {
			if len(hc.First) < limit {
				hc.First = append(hc.First, e)
			}
		}
	}
	return hc, nil
}

// hitBitmaps are the answers and the set hit as bitmaps: the edges read them at
// random, and n/8 bytes stay in a core's cache where n bytes (answers) or a 4-byte
// index a vertex would not (10^7 vertices: 1.25 MB against 10 and 40 MB).
func hitBitmaps(answer []bool, hit []int32) (ans, in []uint64) {
	ans, in = make([]uint64, (len(answer)+63)/64), make([]uint64, (len(answer)+63)/64)
	for v, a := range answer {
		if a {
			ans[v>>6] |= 1 << (v & 63)
		}
	}
	for _, h := range hit {
		in[h>>6] |= 1 << (h & 63)
	}
	return ans, in
}

// checkHittingRange checks the edges u–v, u < v, of the vertices u in [lo, hi);
// ans and in are the answers' and the set's bitmaps.
func checkHittingRange(g *graph.Graph, ans, in []uint64, limit int, lo, hi int32) HitCheck {
	var hc HitCheck
	// No prefetch: the bitmaps stay in cache, and prefetching their words was
	// measured slower (docs/PERFORMANCE.md, "Check and audit").
	eachAbove(g, lo, hi, nil, func(u int32, above []int32) {
		au := ans[u>>6]>>(u&63)&1 != 0
		hu := in[u>>6]>>(u&63)&1 != 0
		for _, v := range above {
			// Edge ignores the set unless the answers differ.
			if av := ans[v>>6]>>(v&63)&1 != 0; av != au {
				hc.Edge(u, v, au, av, hu, in[v>>6]>>(v&63)&1 != 0, limit)
			}
		}
	})
	return hc
}

// Edge counts the edge u < v (each undirected edge once, in CSR order), given its
// ends' answers and set membership: a boundary edge when the answers differ, uncovered
// when neither end is in the set. It reports whether the edge was listed in First
// (one of the first limit uncovered ones). Hitting and a cluster runner's shards
// count with it.
func (hc *HitCheck) Edge(u, v int32, ansU, ansV, hitU, hitV bool, limit int) (listed bool) {
	if ansU == ansV {
		return false
	}
	hc.Boundary++
	if hitU || hitV {
		return false
	}
	hc.Uncovered++
	if len(hc.First) < limit {
		hc.First = append(hc.First, graph.Edge{U: u, V: v})
		return true
	}
	return false
}
