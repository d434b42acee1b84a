package graph

import "fmt"

// Layout splits positions 0..N−1 into shards of Size consecutive vertices (the last
// may be shorter): shard s holds [s·Size, min((s+1)·Size, N)).
type Layout struct {
	N    int32
	Size int32
}

// NewLayout checks n ≥ 0 and size ≥ 1.
func NewLayout(n int, size int) (Layout, error) {
	if n < 0 || n > 1<<31-1 || size < 1 || size > 1<<31-1 {
		return Layout{}, fmt.Errorf("graph: layout of %d vertices in shards of %d", n, size)
	}
	return Layout{N: int32(n), Size: int32(size)}, nil
}

// Shards is the number of shards.
func (l Layout) Shards() int {
	if l.N == 0 {
		return 0
	}
	return int((int64(l.N) + int64(l.Size) - 1) / int64(l.Size))
}

// Of is the shard of position v.
func (l Layout) Of(v int32) int32 { return v / l.Size }

// Range is shard s's positions [lo, hi).
func (l Layout) Range(s int32) (lo, hi int32) {
	lo = int32(min(int64(s)*int64(l.Size), int64(l.N)))
	hi = int32(min(int64(lo)+int64(l.Size), int64(l.N)))
	return lo, hi
}

// Shard is one block of the CSR (doc.go invariant 1 restricted to a block): vertices
// Lo..Lo+len(Off)−2, Off relative to Adj (Off[0] = 0), Adj global positions.
type Shard struct {
	Lo  int32
	Off []int64
	Adj []int32
}

// Len is the number of vertices in the shard.
func (sh *Shard) Len() int { return len(sh.Off) - 1 }

// Neighbours of the shard's i-th vertex (position Lo+i).
func (sh *Shard) Neighbours(i int) []int32 { return sh.Adj[sh.Off[i]:sh.Off[i+1]] }

// ShardOf cuts shard s of layout l out of g (Off is copied, Adj shared).
func (g *Graph) ShardOf(l Layout, s int32) *Shard {
	lo, hi := l.Range(s)
	base := g.Off[lo]
	off := make([]int64, hi-lo+1)
	for i := range off {
		off[i] = g.Off[int(lo)+i] - base
	}
	return &Shard{Lo: lo, Off: off, Adj: g.Adj[base:g.Off[hi]]}
}
