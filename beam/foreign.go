package beam

import (
	"math/bits"
	"slices"
)

// A shard's neighbours in other shards are numbered once, densely, by its block's
// bfs.Cut (ascending position: Cut.Foreign). What the build and the finish know of
// them — answers and hit flags, p_one and component roots — sits in arrays indexed
// by that number, not in maps keyed by vertex (issue 30). Walking a vertex's
// neighbours in list order walks its cut arcs' numbers in the same order (Cut.Of),
// so the hot loops need no lookup at all; foreignIndex serves the arcs that arrive
// in no particular order (the build's arc blocks).

// foreignIndex finds a position's index in an ascending []int32 in expected O(1): a
// directory of where each run of 2^shift positions starts, about one entry per
// value, then a binary search within the run.
type foreignIndex struct {
	vals  []int32
	base  int32
	shift uint
	dir   []int32 // vals[dir[k]:dir[k+1]] are the values v with (v−base)>>shift == k
}

func newForeignIndex(vals []int32) foreignIndex {
	x := foreignIndex{vals: vals}
	if len(vals) == 0 {
		return x
	}
	x.base = vals[0]
	span := uint64(vals[len(vals)-1]-x.base) + 1
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
	k := uint64(v-x.base) >> x.shift
	if k+1 >= uint64(len(x.dir)) {
		return 0, false
	}
	lo, hi := x.dir[k], x.dir[k+1]
	i, ok := slices.BinarySearch(x.vals[lo:hi], v)
	return lo + int32(i), ok
}
