package bfs

import (
	"math/bits"
	"slices"
)

// box is one shard's offers for the next round of Rounds, combined as they arrive:
// for each of its vertices the least candidate offered (in the order of Less), the
// shard that offered it (from) and whether any was (set); n counts the vertices set.
// A candidate's value is kept apart from the rest of it (val, tie): most offers lose
// on their value alone, so the array they read is a third of the candidates' size
// and more of it stays cached. Its arrays are made by the first offer and reused
// round after round. One goroutine at a time puts into a box (roundState.merge
// gives each destination to one worker).
type box struct {
	val  []float64
	tie  []tie
	from []int32
	set  []uint64
	n    int
}

// tie is a candidate without its value: what decides between equal values.
type tie struct {
	A          float64
	Bind, Dist int32
}

// cand is the candidate the box holds for its i-th vertex.
func (b *box) cand(i int) Cand {
	t := &b.tie[i]
	return Cand{Value: b.val[i], A: t.A, Bind: t.Bind, Dist: t.Dist}
}

// put merges o, offers to the shard at position lo of size vertices, into the box.
// Of equal candidates the lowest sender is kept: the one gather would keep from lists
// routed in sender order, so the known bounds Offer reads (recvFrom) are the same.
func (b *box) put(st *Stepper, lo int32, size int, o *Offers) {
	if b.val == nil {
		b.val, b.tie, b.from, b.set = make([]float64, size), make([]tie, size), make([]int32, size), make([]uint64, (size+63)/64)
	}
	for j, w := range o.V {
		i := w - lo
		bit := uint64(1) << (i & 63)
		c := &o.C[j]
		switch {
		case b.set[i>>6]&bit == 0:
			b.set[i>>6] |= bit
			b.n++
		case c.Value != b.val[i]: // before's common case, inline (offers are never None)
			if c.Value > b.val[i] {
				continue
			}
		default:
			if held := b.cand(int(i)); !st.before(c, &held) && (*c != held || o.From >= b.from[i]) {
				continue
			}
		}
		b.val[i], b.tie[i], b.from[i] = c.Value, tie{c.A, c.Bind, c.Dist}, o.From
	}
}

// inScratch is a worker's buffers for box.take.
type inScratch struct {
	v     []int32
	c     []Cand
	count []int32 // by sender: its offers, then its next slot in v and c; zero between takes
	from  []int32 // the senders, ascending
	lists []Offers
}

// take empties the box of shard to (at position lo; k shards) into offer lists, one
// per sender in ascending order, each with its vertices ascending: what Settle and
// Offer read. The lists live in sc until the worker's next take.
func (b *box) take(to, lo int32, k int, sc *inScratch) []Offers {
	if b.n == 0 {
		return nil
	}
	if len(sc.count) < k {
		sc.count = make([]int32, k)
	}
	sc.from = sc.from[:0]
	for wd, m := range b.set {
		for ; m != 0; m &= m - 1 {
			f := b.from[wd<<6+bits.TrailingZeros64(m)]
			if sc.count[f] == 0 {
				sc.from = append(sc.from, f)
			}
			sc.count[f]++
		}
	}
	slices.Sort(sc.from)
	sc.lists = sc.lists[:0]
	at := int32(0)
	for _, f := range sc.from {
		c := sc.count[f]
		sc.lists = append(sc.lists, Offers{To: to, From: f}) // V and C below
		sc.count[f] = at
		at += c
	}
	sc.v = slices.Grow(sc.v[:0], b.n)[:b.n]
	sc.c = slices.Grow(sc.c[:0], b.n)[:b.n]
	for wd, m := range b.set {
		for ; m != 0; m &= m - 1 {
			i := wd<<6 + bits.TrailingZeros64(m)
			f := b.from[i]
			p := sc.count[f]
			sc.v[p], sc.c[p] = lo+int32(i), b.cand(i)
			sc.count[f] = p + 1
		}
		b.set[wd] = 0
	}
	start := int32(0)
	for j, f := range sc.from {
		end := sc.count[f]
		sc.lists[j].V, sc.lists[j].C = sc.v[start:end:end], sc.c[start:end:end]
		start = end
		sc.count[f] = 0
	}
	b.n = 0
	return sc.lists
}
