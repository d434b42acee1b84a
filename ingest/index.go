package ingest

import (
	"math"
	"math/bits"
)

// indexKind is how an Index finds a dense position.
type indexKind uint8

const (
	kindDense  indexKind = iota // int ids are exactly 0..n-1 in order: identity
	kindRange                   // int ids within a range at most 4n wide: flat table
	kindHash                    // other int ids: open addressing, linear probing
	kindString                  // string ids: strTable
)

// maxRangeFactor bounds the flat table of kindRange to this many slots per id.
const maxRangeFactor = 4

// Index maps vertex ids to dense positions 0..n-1 (the vertices file's
// order) without a Go map of millions of int entries. It is read-only after
// construction and safe for concurrent use.
type Index struct {
	kind indexKind
	n    int

	// kindRange: table[id-base] is position+1, 0 when absent.
	base  int64
	table []int32

	// kindHash: keys[s] is the id in slot s, vals[s] its position+1 (0 = empty).
	keys  []int64
	vals  []int32
	shift uint // 64 - log2(len(keys))
	mask  uint64

	strs *strTable
}

// Len is the number of ids.
func (x *Index) Len() int { return x.n }

// LookupInt returns the dense position of an integer id.
// It reports false for an absent id and on an index of string ids.
func (x *Index) LookupInt(id int64) (int32, bool) {
	switch x.kind {
	case kindDense:
		if uint64(id) < uint64(x.n) {
			return int32(id), true
		}
	case kindRange:
		off := uint64(id) - uint64(x.base)
		if off < uint64(len(x.table)) {
			if v := x.table[off]; v != 0 {
				return v - 1, true
			}
		}
	case kindHash:
		return x.hashLookup(id)
	}
	return 0, false
}

// LookupString returns the dense position of a string id.
// It reports false for an absent id and on an index of integer ids.
func (x *Index) LookupString(id string) (int32, bool) {
	if x.kind != kindString {
		return 0, false
	}
	w0, w1, h := strKey([]byte(id))
	p := x.strs.find([]byte(id), w0, w1, h)
	return max(p, 0), p >= 0
}

// lookupInts writes the position of every ids[i] to out[i]. It returns the
// index of the first id that is absent, or -1. The kind is switched on once,
// outside the loops, because this runs once per edge endpoint.
func (x *Index) lookupInts(ids []int64, out []int32) int {
	out = out[:len(ids)]
	switch x.kind {
	case kindDense:
		n := uint64(x.n)
		for i, id := range ids {
			if uint64(id) >= n {
				return i
			}
			out[i] = int32(id)
		}
	case kindRange:
		t, base := x.table, uint64(x.base)
		for i, id := range ids {
			off := uint64(id) - base
			if off >= uint64(len(t)) || t[off] == 0 {
				return i
			}
			out[i] = t[off] - 1
		}
	case kindHash:
		for i, id := range ids {
			p, ok := x.hashLookup(id)
			if !ok {
				return i
			}
			out[i] = p
		}
	default:
		if len(ids) > 0 {
			return 0
		}
	}
	return -1
}

// hashSlot is the home slot of id: Fibonacci (multiplicative) hashing, which
// spreads sequential and strided ids well.
func (x *Index) hashSlot(id int64) uint64 {
	return (uint64(id) * 0x9E3779B97F4A7C15) >> x.shift
}

func (x *Index) hashLookup(id int64) (int32, bool) {
	for s := x.hashSlot(id); ; s = (s + 1) & x.mask {
		v := x.vals[s]
		if v == 0 {
			return 0, false
		}
		if x.keys[s] == id {
			return v - 1, true
		}
	}
}

// duplicate reports two rows holding the same id.
type duplicate struct {
	first, second int64 // 0-based rows, first < second
}

// buildIntIndex indexes ids, choosing the cheapest representation.
// If an id repeats it returns the earliest second occurrence.
func buildIntIndex(ids []int64) (*Index, *duplicate) {
	n := len(ids)
	dense := true
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for i, id := range ids {
		if id != int64(i) {
			dense = false
		}
		lo, hi = min(lo, id), max(hi, id)
	}
	switch {
	case dense:
		return &Index{kind: kindDense, n: n}, nil
	case n > 0 && uint64(hi)-uint64(lo) < uint64(maxRangeFactor)*uint64(n):
		return buildRangeIndex(ids, lo, hi)
	default:
		return buildHashIndex(ids)
	}
}

func buildRangeIndex(ids []int64, lo, hi int64) (*Index, *duplicate) {
	x := &Index{kind: kindRange, n: len(ids), base: lo, table: make([]int32, uint64(hi)-uint64(lo)+1)}
	for i, id := range ids {
		off := uint64(id) - uint64(lo)
		if p := x.table[off]; p != 0 {
			return nil, &duplicate{first: int64(p - 1), second: int64(i)}
		}
		x.table[off] = int32(i) + 1
	}
	return x, nil
}

func buildHashIndex(ids []int64) (*Index, *duplicate) {
	// Capacity: a power of two at least 1.5n (load factor <= 2/3), min 8.
	want := uint64(len(ids)) + uint64(len(ids))/2
	logCap := max(3, bits.Len64(want))
	size := uint64(1) << logCap
	x := &Index{
		kind:  kindHash,
		n:     len(ids),
		keys:  make([]int64, size),
		vals:  make([]int32, size),
		shift: uint(64 - logCap),
		mask:  size - 1,
	}
	for i, id := range ids {
		s := x.hashSlot(id)
		for x.vals[s] != 0 {
			if x.keys[s] == id {
				return nil, &duplicate{first: int64(x.vals[s] - 1), second: int64(i)}
			}
			s = (s + 1) & x.mask
		}
		x.keys[s], x.vals[s] = id, int32(i)+1
	}
	return x, nil
}

func buildStringIndex(ids []string) (*Index, *duplicate) {
	x := &Index{kind: kindString, n: len(ids), strs: newStrTable(len(ids))}
	x.strs.ids = ids
	for i := range ids {
		if p := x.strs.insert(i); p >= 0 {
			return nil, &duplicate{first: int64(p), second: int64(i)}
		}
	}
	return x, nil
}

// newIndex indexes ids (for callers that build vertices without a file, such
// as tests). A repeated id is an *InputError with an empty File.
func newIndex(ids IDs) (*Index, error) {
	if ids.Len() > math.MaxInt32 {
		return nil, fileError("", ErrSize, "too many vertices (more than 2^31-1)")
	}
	x, d := buildIndex(ids)
	if d != nil {
		v := ids.String(int(d.second))
		return nil, &InputError{Row: d.second, Value: v, Err: ErrDuplicateID, Msg: msgDuplicate(v, d.first)}
	}
	return x, nil
}

// buildIndex indexes integer or string ids, reporting the first repeat.
func buildIndex(ids IDs) (*Index, *duplicate) {
	if ids.Int != nil {
		return buildIntIndex(ids.Int)
	}
	return buildStringIndex(ids.Str)
}
