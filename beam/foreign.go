package beam

import (
	"math/bits"
	"slices"
)

// A shard's neighbours in other shards are numbered once, densely, by its block's
// bfs.Cut (ascending position: Cut.Foreign). What the build and the finish know of them
// — answers and hit flags, p_one and component roots — sits in arrays indexed by that
// number, not in maps keyed by vertex (BEAM.md, "How it computes"). Walking a vertex's
// neighbours in list order walks its cut arcs' numbers in the same order (Cut.Of), so
// the hot loops need no lookup at all; foreignIndex serves the arcs that arrive in no
// particular order (the build's arc blocks).

// foreignIndex finds a position's index in an ascending []int32 in O(1). Dense
// sets (at most about 64 positions of their span per value) get a bitmap over the
// span and a rank per word: 12 bytes per 64 positions, small enough to stay in
// cache. Sparse ones get a directory of where each run of 2^shift positions starts,
// about one entry per value, then a binary search within the run.
type foreignIndex struct {
	vals  []int32
	base  int32
	shift uint
	dir   []int32  // sparse: vals[dir[k]:dir[k+1]] are the values v with (v−base)>>shift == k
	mark  []uint64 // dense: bit v−base is set for each value v
	rank  []int32  // dense: the values below word k
}

func newForeignIndex(vals []int32) foreignIndex {
	x := foreignIndex{vals: vals}
	if len(vals) == 0 {
		return x
	}
	x.base = vals[0]
	span := uint64(vals[len(vals)-1]-x.base) + 1
	if span <= 64*uint64(len(vals)) {
		x.mark = make([]uint64, (span+63)/64)
		for _, v := range vals {
			d := uint64(v - x.base)
			x.mark[d>>6] |= 1 << (d & 63)
		}
		x.rank = make([]int32, len(x.mark))
		r := int32(0)
		for k, m := range x.mark {
			x.rank[k] = r
			r += int32(bits.OnesCount64(m))
		}
		return x
	}
	per := max(1, span/uint64(len(vals))) // positions per value, on average
	x.shift = uint(bits.Len64(per)) - 1
	runs := int(span>>x.shift) + 1
	x.dir = make([]int32, runs+1)
	for i, v := range vals {
		x.dir[(v-x.base)>>x.shift+1] = int32(i + 1)
	}
	for k := 1; k <= runs; k++ { // runs without values start where the previous ended
		x.dir[k] = max(x.dir[k], x.dir[k-1])
	}
	return x
}

// find is v's index in vals, if v is there.
func (x *foreignIndex) find(v int32) (int32, bool) {
	if len(x.vals) == 0 || v < x.base {
		return 0, false
	}
	d := uint64(v - x.base)
	if x.mark != nil {
		k := d >> 6
		if k >= uint64(len(x.mark)) {
			return 0, false
		}
		bit := uint64(1) << (d & 63)
		return x.rank[k] + int32(bits.OnesCount64(x.mark[k]&(bit-1))), x.mark[k]&bit != 0
	}
	k := d >> x.shift
	if k+1 >= uint64(len(x.dir)) {
		return 0, false
	}
	lo, hi := x.dir[k], x.dir[k+1]
	i, ok := slices.BinarySearch(x.vals[lo:hi], v)
	return lo + int32(i), ok
}
