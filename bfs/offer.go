package bfs

import (
	"math/bits"
	"slices"
)

// This file is the kernel's second half (kernel.go has the first): what a shard
// offers its neighbouring shards after it settled.

// Offer is what shard cut.Self sends after a Settle that changed the vertices changed
// (local indices): for every foreign vertex w with a changed neighbour x, the least
// Extend(cur[x]) over those x — offers to one vertex from one shard are combined
// here, before any shuffle. An unchanged vertex's extension was sent in the round it
// last changed, so only the changed cut is on the wire. Nor is an extension the shard
// knows cannot beat w's candidate (knownBounds: from in, the offers that Settle
// received), so a round whose offers could only come back unchanged is not run
// (doc.go invariant 8). The result is sorted by destination shard and vertex and has
// no empty entries; arcs is the number of cut arcs of the changed vertices, which
// bounds the number of offers.
//
// Everything is indexed by the shard's local indices and cut's foreign numbers: no
// map, no sort of vertices.
func (s *Stepper) Offer(cut *Cut, cur []Cand, changed []int32, in []Offers) (out []Offers, arcs int) {
	if len(cut.Foreign) == 0 || len(changed) == 0 {
		return nil, 0
	}
	if s.gathered != (gathered{cut.Lo, len(cut.Off) - 1, len(in)}) {
		s.gather(cut.Lo, len(cut.Off)-1, in) // not called right after its Settle
	}
	// The changed vertices as a bitmap: offer reads them in ascending order, not in
	// Settle's, so their cut lists and candidates are read in the order they are
	// stored.
	cw := (len(cut.Off) + 62) / 64
	s.changed = slices.Grow(s.changed[:0], cw)[:cw]
	clear(s.changed)
	for _, i := range changed {
		s.changed[i>>6] |= 1 << (i & 63)
	}
	return s.offer(cut, cur, s.changed, nil)
}

// floor is what the rounds engine's senders know of their destinations in a round:
// every shard settles before any offers, so the least value any extension of the
// round can have (at, Step of the least changed candidate's: Step is monotone) is
// known, and so is which vertices' candidates are below it (below, a bit by
// position). An offer to one of those has a value above its candidate's, and
// box.put would drop it on that comparison alone: on a graph without locality, most
// offers (the frontier offering to vertices earlier rounds already reached). The
// bits, an eighth of a byte a vertex, mostly stay in cache, where the values (8
// bytes a vertex) did not. Beam's senders cannot see their destinations and send
// these offers; the boxes, and so the result, are the same (TestRoundsFloorChangesNoResult).
type floor struct {
	on    bool // set for this round (roundState.raiseFloor)
	at    float64
	below []uint64
}

// use is f where it is set for the round, else nil (no offer dropped).
func (f *floor) use() *floor {
	if !f.on {
		return nil
	}
	return f
}

// offer is Offer on the offers in s.recv, s.recvSet (gather or useBox), for the
// changed vertices marked in changed, less what fl rules out (nil: nothing).
func (s *Stepper) offer(cut *Cut, cur []Cand, changed []uint64, fl *floor) (out []Offers, arcs int) {
	count, arcs := s.collect(cut, cur, changed, fl)
	if count == 0 {
		return nil, arcs
	}
	vs, cs := make([]int32, count), make([]Cand, count)
	best, exts, offered := s.best, s.exts, s.offered
	n := 0
	// Destination by destination (each one run of foreign numbers), the offered
	// foreign vertices in ascending order.
	for k, t := range cut.To {
		first, end := int(cut.ToOff[k]), int(cut.ToOff[k+1])
		start := n
		for wd := first >> 6; wd<<6 < end; wd++ {
			m := offered[wd]
			if wd == first>>6 {
				m &= ^uint64(0) << (first & 63)
			}
			if (wd+1)<<6 > end {
				m &= 1<<(end&63) - 1
			}
			for ; m != 0; m &= m - 1 {
				f := wd<<6 + bits.TrailingZeros64(m)
				vs[n], cs[n] = cut.Foreign[f], exts[best[f]]
				n++
			}
		}
		if n > start {
			out = append(out, Offers{To: t, From: cut.Self, V: vs[start:n:n], C: cs[start:n:n]})
		}
	}
	return out, arcs
}

// collect is Offer's work before its lists: the least extension offered to each
// foreign vertex (marked in s.offered, its index in s.exts in s.best) over the changed
// vertices marked in changed. count is the foreign vertices offered anything, arcs
// the cut arcs of the changed vertices.
func (s *Stepper) collect(cut *Cut, cur []Cand, changed []uint64, fl *floor) (count, arcs int) {
	nf := len(cut.Foreign)
	if nf == 0 {
		return 0, 0
	}
	words := (nf + 63) / 64
	s.best = slices.Grow(s.best[:0], nf)[:nf]
	s.exts = s.exts[:0]
	s.offered = slices.Grow(s.offered[:0], words)[:words]
	clear(s.offered)
	if s.destGen++; s.destGen == 0 { // wrapped: forget every entry
		clear(s.destAt)
		s.destGen = 1
	}
	for wd, m := range changed {
		for ; m != 0; m &= m - 1 {
			i := int32(wd<<6 + bits.TrailingZeros64(m))
			count, arcs = s.offerOne(cut, cur, i, count, arcs, fl)
		}
	}
	return count, arcs
}

// offerOne is Offer's work for changed vertex i: it counts i's cut arcs and offers
// Extend(cur[i]) to its foreign neighbours (marked in s.offered, the least in
// s.best), but to the one knownBounds rules out and those below fl; count is the
// foreign vertices offered anything so far.
func (s *Stepper) offerOne(cut *Cut, cur []Cand, i int32, count, arcs int, fl *floor) (int, int) {
	fs := cut.Of(i)
	if len(fs) == 0 {
		return count, arcs
	}
	arcs += len(fs)
	ext, ok := s.Extend(cur[i])
	if !ok {
		return count, arcs
	}
	e := int32(len(s.exts))
	s.exts = append(s.exts, ext)
	sole := int32(-1) // the foreign vertex whose candidate is known to be at most s.recv[i]
	// Where s.recv[i] is below the floor (most vertices), so is the candidate of the
	// vertex w that offered it (Extend never precedes its argument): the floor drops
	// the offer to w too, with no search of fs.
	if t := s.recv[i].from; (fl == nil || s.recv[i].c.Value >= fl.at) && t >= 0 && t != cut.Self && s.recvSet[i>>6]&(1<<(i&63)) != 0 && !s.before(&ext, &s.recv[i].c) {
		if k := s.dest(cut, t); k >= 0 {
			if w, ok := soleIn(fs, cut.ToOff[k], cut.ToOff[k+1]); ok {
				sole = w
			}
		}
	}
	if fl != nil {
		fs = s.aboveFloor(fs, cut.ArcAt[cut.Off[i]:cut.Off[i+1]], fl.below)
	}
	best, offered := s.best, s.offered // best[w] indexes s.exts: 4 bytes a slot, not a Cand
	for _, w := range fs {
		if w == sole {
			continue // w's candidate is s.recv[i] or better already
		}
		bit := uint64(1) << (w & 63)
		if offered[w>>6]&bit == 0 {
			offered[w>>6] |= bit
			best[w] = e
			count++
		} else if s.before(&ext, &s.exts[best[w]]) {
			best[w] = e
		}
	}
	return count, arcs
}

// aboveFloor is fs (foreign numbers) less those whose positions (at) are marked
// below: one load and no branch an arc (most are dropped, at random).
func (s *Stepper) aboveFloor(fs, at []int32, below []uint64) []int32 {
	if cap(s.keep) < len(fs) { // not slices.Grow: a call a changed vertex, 3% in the profile
		s.keep = make([]int32, len(fs))
	}
	keep := s.keep[:len(fs)]
	n := 0
	for j, p := range at[:len(fs)] {
		keep[n] = fs[j]
		n += int(below[p>>6]>>(p&63)&1 ^ 1)
	}
	return keep[:n]
}

// knownBounds (Offer's pruning, doc.go invariant 8): the least offer c a vertex x of
// the shard received, from shard T (gather), is an upper bound, in the order of Less,
// on the candidate of x's neighbour w in T when w is its only one there: c can only
// be Extend(T's candidate of w) — Offer sends the least extension over x's changed
// neighbours in T — and Extend never precedes its argument, and candidates only
// improve. An extension of x not below c then cannot change w: Settle would drop it.
// On a path this is the offer back across each boundary, which would otherwise cost
// a round that changes nothing. The bound costs one slot per vertex of the shard,
// filled while Settle reads its offers: no cut list is read for it.

// dest is cut.dest(t), looked up once per offer call: knownBounds needs a sender's
// run of foreign numbers for every changed vertex it reached.
func (s *Stepper) dest(cut *Cut, t int32) int {
	if int(t) >= len(s.destAt) {
		s.destAt = slices.Grow(s.destAt, int(t)+1-len(s.destAt))[:t+1]
		s.destOf = slices.Grow(s.destOf, int(t)+1-len(s.destOf))[:t+1]
	}
	if s.destAt[t] != s.destGen {
		s.destAt[t], s.destOf[t] = s.destGen, int32(cut.dest(t))
	}
	return int(s.destOf[t])
}

// soleIn is the only element of fs (ascending) in [lo, hi), if there is exactly one.
// Every element is read: the caller reads them all anyway, and a count without
// branches costs less than a search that mispredicts.
func soleIn(fs []int32, lo, hi int32) (int32, bool) {
	n, w, span := 0, int32(0), uint32(hi-lo)
	for _, f := range fs {
		if uint32(f-lo) < span {
			n, w = n+1, f
		}
	}
	return w, n == 1
}
