package bfs

import "github.com/graphdp/graphdp/internal/prefetch"

// box is one shard's offers for a round of Rounds, combined as they arrive: for each
// of its vertices the least candidate offered (c, in the order of Less) with the
// shard that offered it, side by side (one cache line for both), and whether any was
// (set); n counts the vertices set. These
// are the arrays Settle and Offer read their offers from (gather's, Stepper.useBox):
// the box is read where it is, not turned into lists first. Its arrays are made by
// the first offer and reused round after round. One goroutine at a time puts into a
// box (roundState.merge gives each destination to one worker).
type box struct {
	c   []held
	set []uint64
	n   int
}

// put merges o, offers to the shard at position lo whose candidates are cur (their
// values apart in val: most offers are decided by the value alone), into the box.
// An offer that does not beat its vertex's candidate is dropped here: Settle would
// drop it (it seeds only what beats cur), and cur only improves between this
// merge and that Settle. Rounds merges a round's offers once every shard has settled
// in it, so on a graph without locality most offers (to vertices that already have
// as good a candidate) are decided here by one value, and a round that would bring
// nothing new is not run.
// Of equal candidates the lowest sender is kept: the one gather would keep from lists
// routed in sender order, so the known bounds Offer reads (held.from) are those of
// the vertices Settle seeds.
func (b *box) put(st *Stepper, lo int32, val []float64, cur []Cand, o *Offers) {
	// Two passes: the offers that beat their candidate (a few on graphs without
	// locality), then those into the box, whose slots are loaded meanwhile
	// (prefetch): each would otherwise be a miss, one after the other.
	beat := st.beat[:0]
	for j, w := range o.V {
		i := w - lo
		c := &o.C[j]
		if v := val[i]; c.Value != v { // before's common case, inline (offers are never None)
			if c.Value > v {
				continue
			}
		} else if !st.before(c, &cur[i]) {
			continue
		}
		beat = append(beat, int32(j))
	}
	if len(beat) == 0 {
		return
	}
	st.beat = beat
	if b.c == nil {
		b.c, b.set = make([]held, len(cur)), make([]uint64, (len(cur)+63)/64)
	}
	for _, j := range beat {
		prefetch.At(b.c, int(o.V[j]-lo))
	}
	for _, j := range beat {
		b.take(st, o.V[j]-lo, &o.C[j], o.From)
	}
}

// take keeps c, offered to the box's vertex i by shard from, where it beats what
// the box holds (of equal candidates, the lowest sender's).
func (b *box) take(st *Stepper, i int32, c *Cand, from int32) {
	bit := uint64(1) << (i & 63)
	h := &b.c[i]
	switch {
	case b.set[i>>6]&bit == 0:
		b.set[i>>6] |= bit
		b.n++
	case c.Value != h.c.Value:
		if c.Value > h.c.Value {
			return
		}
	case !st.before(c, &h.c) && (*c != h.c || from >= h.from):
		return
	}
	h.c, h.from = *c, from
}

// held is a box's offer to one vertex: the least candidate and its sender.
type held struct {
	c    Cand
	from int32
}

// empty forgets the box's offers (its arrays stay, for the next round).
func (b *box) empty() {
	clear(b.set)
	b.n = 0
}

// useBox makes b the offers Settle and Offer read next (settle, offer), in place of
// gather's: b's vertices are the shard's, and its senders' numbers are their shards
// (the shard's own seeds carry its own number, which Offer's known bounds skip as
// they skip gather's −1). Each of its offers beat its vertex's candidate when put,
// and the candidates have not changed since (Rounds settles every shard, then merges
// the round's offers), so settle does not compare them again (recvBeats; Offer,
// which reads the box after settle, does not look at it).
func (s *Stepper) useBox(b *box) {
	s.recv, s.recvSet, s.recvBeats = b.c, b.set, true
	s.gathered = gathered{lo: -1} // nothing gather read
}
