package beam

import (
	"math/bits"
	"strconv"
)

// vref is a resolved id: its first position, answer and hit flag, and the second
// position it appears at (-1: none; a duplicate id).
type vref struct {
	pos, second int32
	ans, hit    bool
}

// idIndex resolves one join bucket's ids: integer ids in an open-addressing table
// (intTable: a multiply and a probe or two, where a Go map was the joins' largest
// cost), string ids in a map.
type idIndex struct {
	ints *intTable
	strs map[string]vref
}

// newIDIndex indexes the vertex blocks of a bucket; an id's vref is its first
// position (ingest keeps the first of repeated ids), with the flags of that row.
func newIDIndex(str bool, vbs []*vertexBlock) idIndex {
	n := 0
	for _, vb := range vbs {
		n += len(vb.Pos)
	}
	var x idIndex
	if str {
		x.strs = make(map[string]vref, n)
	} else {
		x.ints = newIntTable(n)
	}
	for _, vb := range vbs {
		for i, p := range vb.Pos {
			r := vref{pos: p, second: -1, ans: vb.Ans[i]}
			if len(vb.Hit) == len(vb.Pos) { // after the first join
				r.hit = vb.Hit[i]
			}
			if old, ok := x.get(&vb.IDs, i); ok {
				// Keep the two least positions: "duplicate id (first at row …)"
				// names the earliest repetition.
				lo, hi := min(old.pos, p), max(old.pos, p)
				if old.second >= 0 {
					hi = min(hi, old.second)
				}
				if p < old.pos {
					old = r
				}
				old.pos, old.second = lo, hi
				r = old
			}
			x.set(&vb.IDs, i, r)
		}
	}
	return x
}

func (x idIndex) get(id *ids, i int) (vref, bool) {
	if x.strs != nil {
		r, ok := x.strs[id.S[i]]
		return r, ok
	}
	return x.ints.get(id.Int[i])
}

func (x idIndex) set(id *ids, i int, r vref) {
	if x.strs != nil {
		x.strs[id.S[i]] = r
	} else {
		x.ints.set(id.Int[i], r)
	}
}

// setHit marks a known id as in the hitting set.
func (x idIndex) setHit(id *ids, i int) {
	r, _ := x.get(id, i)
	r.hit = true
	x.set(id, i, r)
}

// duplicates calls fn for every id that appears twice or more.
func (x idIndex) duplicates(fn func(id string, first, second int32)) {
	for s, r := range x.strs {
		if r.second >= 0 {
			fn(s, r.pos, r.second)
		}
	}
	if x.ints == nil {
		return
	}
	for _, e := range x.ints.slots {
		if e.full && e.r.second >= 0 {
			fn(strconv.FormatInt(e.k, 10), e.r.pos, e.r.second)
		}
	}
}

// twoLeast keeps the two smallest rows an id appears at (for "duplicate id (first at
// row …)", which names the earliest second occurrence).
type twoLeast struct{ a, b int64 }

func (t *twoLeast) add(r int64) {
	switch {
	case r < t.a:
		t.a, t.b = r, t.a
	case r < t.b:
		t.b = r
	}
}

// intTable maps int64 ids to vrefs by linear probing in a power-of-two table at
// most half full; the slot is the top bits of the id times a 64-bit odd constant
// (Fibonacci hashing), so ids in runs spread out. A slot holds its key, vref and
// flag together (24 bytes): a lookup in a table larger than the caches (the
// broadcast index, broadcast.go) costs one cache miss, not one per array.
type intTable struct {
	shift uint
	slots []intSlot
}

type intSlot struct {
	k    int64
	r    vref
	full bool
}

func newIntTable(n int) *intTable {
	b := uint(bits.Len(uint(max(2*n-1, 1)))) // at least 2n slots: at most half full
	return &intTable{shift: 64 - b, slots: make([]intSlot, 1<<b)}
}

func (t *intTable) slot(k int64) int { return int((uint64(k) * 0x9e3779b97f4a7c15) >> t.shift) }

func (t *intTable) get(k int64) (vref, bool) {
	mask := len(t.slots) - 1
	for j := t.slot(k); ; j = (j + 1) & mask {
		e := &t.slots[j]
		if !e.full {
			return vref{}, false
		}
		if e.k == k {
			return e.r, true
		}
	}
}

// set stores r under k; the table never holds more ids than it was made for.
func (t *intTable) set(k int64, r vref) {
	mask := len(t.slots) - 1
	j := t.slot(k)
	for t.slots[j].full && t.slots[j].k != k {
		j = (j + 1) & mask
	}
	t.slots[j] = intSlot{k: k, r: r, full: true}
}
