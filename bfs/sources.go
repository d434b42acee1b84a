package bfs

import (
	"cmp"
	"math"
	"slices"
)

// sortSources sorts src by (value, vertex), the order of cmp.Compare on the
// values (−0 equals +0; NaNs equal each other and precede every number) and
// then of the vertices, which are distinct: a total order, so any correct sort
// gives the same slice. A set already in order is left (values that
// ascend with the vertex, as on a path); one of a few distinct values (a
// hypercube's layers, a balanced hitting set) is counting sorted on the values'
// ranks, in vertex order; any other is radix sorted (least significant digit
// first: the vertices' digits, then the values' order-preserving bits, skipping
// the digits every entry shares) (docs/PERFORMANCE.md, "Engine (propagate)"). Sets
// smaller than radixMin or larger than radixMax are comparison sorted in place.
func sortSources(src []source) {
	if len(src) < radixMin || len(src) > radixMax {
		slices.SortFunc(src, compareSources)
		return
	}
	if slices.IsSortedFunc(src, compareSources) {
		return
	}
	if fewValues(src) {
		return
	}
	tmp := make([]source, len(src))
	from, to := src, tmp
	if !slices.IsSortedFunc(src, func(x, y source) int { return cmp.Compare(x.v, y.v) }) {
		for shift := uint(0); shift < 32; shift += radixBits {
			if radixPass(from, to, false, shift) {
				from, to = to, from
			}
		}
	}
	for shift := uint(0); shift < 64; shift += radixBits {
		if radixPass(from, to, true, shift) {
			from, to = to, from
		}
	}
	if &from[0] != &src[0] {
		copy(src, from)
	}
}

// fewValues sorts src when its values take at most maxFew distinct keys
// (valueKey): src in vertex order is the answer for one key (no copy), else one
// counting sort on the key's rank over it; false, src unchanged, when there are
// more keys.
func fewValues(src []source) bool {
	var keys [maxFew]uint64
	k, last := 0, 0
	rank := func(a float64) int {
		key := valueKey(a)
		if last < k && keys[last] == key {
			return last
		}
		for i := range k {
			if keys[i] == key {
				last = i
				return i
			}
		}
		return -1
	}
	for _, s := range src {
		if rank(s.a) < 0 {
			if k == maxFew {
				return false
			}
			keys[k], last = valueKey(s.a), k
			k++
		}
	}
	if !slices.IsSortedFunc(src, func(x, y source) int { return cmp.Compare(x.v, y.v) }) {
		slices.SortFunc(src, func(x, y source) int { return cmp.Compare(x.v, y.v) })
	}
	if k == 1 {
		return true
	}
	to := make([]source, len(src))
	// Each distinct key's slot: its place among the sorted keys, then its cursor.
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(keys[i], keys[j]) })
	var count [maxFew]int
	for _, s := range src {
		count[rank(s.a)]++
	}
	at := 0
	for _, i := range order {
		at, count[i] = at+count[i], at
	}
	for _, s := range src {
		r := rank(s.a)
		to[count[r]] = s
		count[r]++
	}
	copy(src, to)
	return true
}

// maxFew is the most distinct values fewValues sorts.
const maxFew = 16

// compareSources is the order sortSources sorts in.
func compareSources(x, y source) int {
	if r := cmp.Compare(x.a, y.a); r != 0 {
		return r
	}
	return cmp.Compare(x.v, y.v)
}

// valueKey maps a value to an integer in the order of cmp.Compare: −0 to +0's
// key, every NaN to 0, below all numbers.
func valueKey(a float64) uint64 {
	switch {
	case a != a:
		return 0
	case a == 0:
		a = 0
	}
	k := math.Float64bits(a)
	if k>>63 != 0 {
		return ^k
	}
	return k | 1<<63
}

// radixPass moves from's entries to to in the order of the digit at shift of
// their key (the value's, or the vertex's), stably, and reports whether it did;
// not when every entry has the same digit (from is then already in that order).
func radixPass(from, to []source, byValue bool, shift uint) bool {
	key := func(s source) uint64 {
		if byValue {
			return valueKey(s.a)
		}
		return uint64(uint32(s.v))
	}
	var count [1 << radixBits]int
	for _, s := range from {
		count[key(s)>>shift&(1<<radixBits-1)]++
	}
	if count[key(from[0])>>shift&(1<<radixBits-1)] == len(from) {
		return false
	}
	at := 0
	for d, c := range count {
		count[d] = at
		at += c
	}
	for _, s := range from {
		d := key(s) >> shift & (1<<radixBits - 1)
		to[count[d]] = s
		count[d]++
	}
	return true
}

// radixBits is the digit of sortSources' radix sort (2^11 counters stay in L1);
// radixMin the smallest set it radix sorts, radixMax the largest: the radix and
// counting sorts take a copy of the set (16 bytes an entry, per pass running),
// so a set of 10^7 vertices (a billion-edge graph's) is sorted in place as
// before rather than add 2·160 MB at the engine's start.
const (
	radixBits = 11
	radixMin  = 1 << 10
	radixMax  = 1 << 22
)
