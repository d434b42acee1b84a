package beam

import (
	"strconv"
)

// vref is a resolved id: its first position, answer and hit flag, and the second
// position it appears at (-1: none; a duplicate id).
type vref struct {
	pos, second int32
	ans, hit    bool
}

// idIndex resolves one join bucket's ids: a map per id type (a map keyed by both
// would hash a string for every integer id).
type idIndex struct {
	ints map[int64]vref
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
		x.ints = make(map[int64]vref, n)
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
	r, ok := x.ints[id.Int[i]]
	return r, ok
}

func (x idIndex) set(id *ids, i int, r vref) {
	if x.strs != nil {
		x.strs[id.S[i]] = r
	} else {
		x.ints[id.Int[i]] = r
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
	for k, r := range x.ints {
		if r.second >= 0 {
			fn(strconv.FormatInt(k, 10), r.pos, r.second)
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
