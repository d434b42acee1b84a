package dp

import "math"

// Memo remembers recent results of one pure function of a float64 — a certified
// bound (Pair.Upper, Pair.Lower, a pass's step), or any function whose result
// depends on its argument alone — keyed by the argument's exact bits, so a hit
// returns bit for bit what the function returned for that very argument (−0 and
// +0, or two NaNs with different payloads, are different keys). It is a
// direct-mapped table of memoSize entries: a miss calls the function and keeps
// its result in place of the entry its argument maps to. On the graphs whose
// values repeat (a hypercube's layers, a uniform graph's balanced hitting set:
// one value per distance) almost every certified bound becomes a lookup; where
// every value is new it costs a hash and a comparison per call. Not safe for
// concurrent use: one per goroutine. The zero Memo is empty and ready. (memo.go's
// memo is package dp's own, shared and sharded, for the frameworks whose bounds
// cost a math/big computation; a Memo is a caller's, without locks, in front of
// any bound.)
type Memo struct {
	e [memoSize]memoEntry
}

type memoEntry struct {
	key  uint64
	val  float64
	full bool
}

// memoBits is log2 of the entries: 256 entries of 24 bytes, 6 KiB, stay in a
// core's L1 cache.
const memoBits = 8

const memoSize = 1 << memoBits

// Get returns f(x), from the table when x was the last argument to map to its
// entry. f must be the same function at every call on one Memo.
func (m *Memo) Get(x float64, f func(float64) float64) float64 {
	k := math.Float64bits(x)
	e := &m.e[(k*0x9e3779b97f4a7c15)>>(64-memoBits)]
	if e.full && e.key == k {
		return e.val
	}
	v := f(x)
	*e = memoEntry{k, v, true}
	return v
}
