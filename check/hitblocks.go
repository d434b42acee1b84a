package check

import "slices"

// HitBlocks is Hitting computed while the graph is built (graph.Builder.Visit):
// each block's lists are checked as the build makes them, still in the building
// core's cache, instead of in a pass of their own over the finished graph. The
// blocks come in any order and concurrently; Result merges them in vertex order,
// so it is Hitting's result on the graph built (TestHitBlocksIsHitting).
type HitBlocks struct {
	ans, in []uint64
	limit   int
	parts   []HitCheck // per block
}

// NewHitBlocks prepares the check of the set hit (repeats allowed) against the
// answers answer, for a build of blocks blocks (graph.Builder.Blocks) listing at
// most limit uncovered edges. It is nil when a vertex of hit lies outside the
// answers: such a set is the engine's to reject (bfs.NewInstance), and its check
// is left to Hitting.
func NewHitBlocks(answer []bool, hit []int32, limit, blocks int) *HitBlocks {
	for _, h := range hit {
		if h < 0 || int(h) >= len(answer) {
			return nil
		}
	}
	ans, in := hitBitmaps(answer, hit)
	return &HitBlocks{ans: ans, in: in, limit: limit, parts: make([]HitCheck, blocks)}
}

// Visit checks one block's lists: graph.Builder.Visit's signature. Safe for
// concurrent use on distinct blocks.
func (h *HitBlocks) Visit(block int, v0 int32, deg []int64, adj []int32) {
	var hc HitCheck
	at := int64(0)
	for i, d := range deg {
		u := v0 + int32(i)
		list := adj[at : at+d]
		at += d
		j, _ := slices.BinarySearch(list, u)
		hc.vertex(h.ans, h.in, h.limit, u, list[j:])
	}
	h.parts[block] = hc
}

// Result is the check of every block visited, merged in vertex order.
func (h *HitBlocks) Result() HitCheck { return mergeHits(h.parts, h.limit) }
