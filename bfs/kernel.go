package bfs

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/graphdp/graphdp/graph"
)

// This file is the block-centric round engine (the "think like a graph" model of
// Giraph++ and Blogel) over the fixed point g(w) = min(own(w), min over neighbours
// x of Step(g(x))) of docs/DESIGN.md §4.1. Vertices are cut into shards of consecutive positions.
// In a round every shard that received offers runs to its local fixed point with
// label-setting inside the shard (Settle), then offers, to the shards it neighbours,
// the one-hop extensions of its cut vertices that changed (Offer). Both are pure
// functions of one CSR block, its candidates and the offers it received, so the Beam
// pipeline (package beam) runs exactly this code on each shard, and Rounds runs it
// here on goroutines.
//
// Why rounds reach Propagate's result bit for bit: a candidate is a full key of
// doc.go invariant 3 (value, source value, binding vertex, distance), extending a
// candidate by one hop (Step, distance + 1) preserves the key order (keys in
// instance.go) and never precedes it. A shard's state is the key-minimum over all
// walks from the seeds it has seen that stay in the shard; when no offer moves, it is
// the key-minimum over all walks from the hitting set. A walk longer than the shortest
// path never beats it (its history is pointwise ≥ and longer), so the limit is the
// oracle's minimum over shortest paths, which is what Propagate pops.

// Cand is one candidate binding of a vertex: hitting-set vertex Bind, whose own pass
// value is A, reaches the vertex over Dist hops with pass value Value = Step^Dist(A).
// The zero-information candidate None has Bind = -1. Bind is the binding vertex's
// position in the instance even when the shards hold renamed positions (doc.go
// invariant 9): the kernel compares it (Less) and never indexes by it.
type Cand struct {
	Value float64
	A     float64
	Bind  int32
	Dist  int32
}

// None is the candidate of a vertex nothing binds.
func (p Pass) None() Cand { return Cand{Value: p.Top(), Bind: -1, Dist: -1} }

// Own is the candidate of hitting-set vertex v with hitting-set value hv (pass.go):
// itself at distance 0.
func (p Pass) Own(v int32, hv float64) Cand {
	a := p.Seed(hv)
	return Cand{Value: a, A: a, Bind: v, Dist: 0}
}

// Depth is the a-priori round bound of a pass whose smallest source value is a: the
// largest distance at which a candidate can still be below Top (docs/DESIGN.md §4.3: once a
// value reaches the top it constrains nothing and is not propagated), capped at limit.
// In float64 Step reaches the top after finitely many steps when δ > 0. With δ = 0 it
// does not, even for ε > 0: U(a) = 1 − (1 − a)/e^ε, rounded down to stay DP, has a
// float64 fixed point just below 1 (1 − 2^−52 for ε = 0.5), and with ε = δ = 0 every
// value is fixed. Then limit (n − 1: no shortest path is longer) is the bound.
func (p Pass) Depth(a float64, limit int) int {
	top := p.Top()
	for d := 0; d < limit; d++ {
		b := p.Step(a)
		if b >= top {
			return d
		}
		if b == a { // a fixed point below the top: never reaches it
			return limit
		}
		a = b
	}
	return limit
}

// Stepper compares and relaxes candidates; it owns scratch buffers, so use one per
// goroutine.
type Stepper struct {
	Pass
	k keys

	// The last Step computed, by the bits of its argument: the certified U and L are
	// costly, and Settle pops values in order, so runs of equal values share one call
	// (as in Propagate).
	stepped         bool
	stepIn, stepOut float64

	// Settle's scratch: seeds, the FIFO, and reached / settled bitmaps; Offer's
	// bitmap of the changed vertices.
	seeds            []seed
	queue            []seed
	reached, settled []uint64
	changed          []uint64

	// Offer's scratch: the least extension offered to each foreign vertex (best,
	// marked in offered, an index in exts, the changed vertices' extensions), by
	// foreign number (Cut), and the least offer each of the
	// shard's vertices received, with its sender (recv, marked in recvSet).
	best             []int32 // index in exts
	exts             []Cand
	recv             []held
	offered, recvSet []uint64
	gathered         gathered // what recv holds
	recvBeats        bool     // recv's offers beat their candidates before settle (a box's: useBox)
	cs               cutScratch

	// gather's own arrays, which recv and recvSet are unless they are a box's
	// (useBox).
	gRecv []held
	gSet  []uint64

	// By shard: its index in the cut's To (dest), valid where destAt is destGen.
	destOf  []int32
	destAt  []uint32
	destGen uint32

	beat []int32 // box.put's offers that beat their candidates
	keep []int32 // aboveFloor's
}

// gathered identifies the offers Stepper.gather read: the shard (its first position
// and size) and how many offer lists.
type gathered struct {
	lo    int32
	n, in int
}

// NewStepper returns a Stepper for p.
func (p Pass) NewStepper() *Stepper { return &Stepper{Pass: p, k: keys{c: p}} }

// Less is the candidate order of doc.go invariant 3 (keys.less in instance.go, with
// each candidate carrying its source value instead of looking it up by position);
// None is after every candidate.
func (s *Stepper) Less(x, y Cand) bool {
	if x.Bind < 0 || y.Bind < 0 {
		return y.Bind < 0 && x.Bind >= 0
	}
	if x.Value != y.Value {
		return x.Value < y.Value
	}
	if x.A != y.A && x.Dist > 0 && y.Dist > 0 {
		k := &s.k
		k.b1 = k.history(x.A, x.Dist, k.b1)
		k.b2 = k.history(y.A, y.Dist, k.b2)
		for i := 1; i <= int(min(x.Dist, y.Dist)); i++ {
			a, b := k.b1[int(x.Dist)-i], k.b2[int(y.Dist)-i]
			if a != b {
				return a < b
			}
		}
	}
	if x.Dist != y.Dist {
		return x.Dist < y.Dist
	}
	return x.Bind < y.Bind
}

// before is Less(*x, *y) with the common case inline: different values decide
// (None's value is the top, above every candidate's, and an equal value goes to Less).
func (s *Stepper) before(x, y *Cand) bool {
	if x.Value != y.Value {
		return x.Value < y.Value && x.Bind >= 0
	}
	if x.A == y.A && x.Bind >= 0 && y.Bind >= 0 {
		// The same source value, so the same history function: Less skips the
		// histories and decides by distance, then binding vertex. Ties are this case
		// wherever the hitting set shares one p_one.
		return x.Dist < y.Dist || x.Dist == y.Dist && x.Bind < y.Bind
	}
	return s.Less(*x, *y)
}

// Extend is c one hop further, or ok = false where it constrains nothing (None, or a
// value at the top: Propagate does not queue those either).
func (s *Stepper) Extend(c Cand) (Cand, bool) {
	if c.Bind < 0 {
		return Cand{}, false
	}
	if !s.stepped || math.Float64bits(c.Value) != math.Float64bits(s.stepIn) {
		s.stepped, s.stepIn, s.stepOut = true, c.Value, s.Step(c.Value)
	}
	v := s.stepOut
	if v >= s.Top() {
		return Cand{}, false
	}
	return Cand{Value: v, A: c.A, Bind: c.Bind, Dist: c.Dist + 1}, true
}

// Offers are candidates for the vertices of one shard: V ascending, one candidate
// each. Between shards they are the frontier (Stepper.Offer); a shard's own
// hitting-set candidates are its offers to itself in the first round (Pass.OwnOffers).
type Offers struct {
	To   int32 // destination shard
	From int32 // sending shard (To for a shard's own seeds)
	V    []int32
	C    []Cand
}

// Len is the number of offered vertices.
func (o *Offers) Len() int { return len(o.V) }

// OwnOffers is the first round's seed of shard to: each hitting-set vertex's own
// candidate. hit (ascending) and hv are the shard's hitting-set vertices with their
// exact values (Instance.HitValue).
func (p Pass) OwnOffers(to int32, hit []int32, hv []float64) Offers {
	o := Offers{To: to, From: to, V: hit, C: make([]Cand, len(hit))}
	for j, h := range hit {
		o.C[j] = p.Own(h, hv[j])
	}
	return o
}

// NoneBlock is the state of a shard of n vertices before its first round: None
// everywhere.
func (p Pass) NoneBlock(n int) []Cand {
	cur := make([]Cand, n)
	none := p.None()
	for i := range cur {
		cur[i] = none
	}
	return cur
}

// seed is a candidate for the shard's local vertex i.
type seed struct {
	i int32
	c Cand
}

// Settle is one block-centric round on shard sh (doc.go invariant 8): cur, the shard's
// candidates, is a local fixed point (no edge inside the shard improves it) for
// what the shard has received so far; in brings new candidates for its vertices.
// Settle lowers cur to the local fixed point including them — the key-minimum, in the
// order of Less, over cur and every walk inside the shard that starts at an offered
// candidate — and returns the local indices of the vertices it changed, in the order
// it settled them.
//
// It is Propagate's label-setting restricted to the shard: the offers that beat cur
// are sorted by Less and merged with a FIFO of one-hop extensions. Extend preserves
// the order of Less and never precedes its argument, so the FIFO stays sorted and
// every vertex is settled once, at its least candidate: O(seeds·log seeds + the
// shard's arcs out of changed vertices). Only candidates that beat cur are queued,
// so a round that brings little touches little.
func (s *Stepper) Settle(sh *graph.Shard, cur []Cand, in []Offers) (changed []int32) {
	return s.SettleCut(sh, nil, cur, in)
}

// SettleCut is Settle given the shard's Cut as well (nil: none): a seed of a vertex
// whose every neighbour is across the cut (most of them, where a shard is a small
// part of a graph without locality) is then settled first, as it comes, without a
// sort or a read of its list (the shard's one random access per vertex).
func (s *Stepper) SettleCut(sh *graph.Shard, cut *Cut, cur []Cand, in []Offers) (changed []int32) {
	s.gather(sh.Lo, sh.Len(), in)
	return s.settle(sh, cut, cur)
}

// settle is SettleCut on the offers in s.recv, s.recvSet (gather or useBox).
func (s *Stepper) settle(sh *graph.Shard, cut *Cut, cur []Cand) (changed []int32) {
	n := sh.Len()
	words := (n + 63) / 64
	s.reached = slices.Grow(s.reached[:0], words)[:words]
	s.settled = slices.Grow(s.settled[:0], words)[:words]
	clear(s.reached)
	clear(s.settled)
	reached, settled := s.reached, s.settled
	// A seed of a vertex with no neighbour in the shard (known from the cut) is
	// settled at once: no walk inside the shard reaches that vertex or leaves it, so
	// its order among the seeds does not matter and it is not sorted.
	seeds := s.seeds[:0]
	for wd, m := range s.recvSet {
		for ; m != 0; m &= m - 1 {
			i := int32(wd<<6 + bits.TrailingZeros64(m))
			if !s.recvBeats && !s.before(&s.recv[i].c, &cur[i]) {
				continue
			}
			if cut != nil && sh.Off[i+1]-sh.Off[i] == int64(cut.Off[i+1]-cut.Off[i]) {
				settled[wd] |= 1 << (i & 63)
				cur[i] = s.recv[i].c
				changed = append(changed, i)
				continue
			}
			seeds = append(seeds, seed{i, s.recv[i].c})
		}
	}
	s.seeds = seeds
	if len(seeds) == 0 {
		return changed
	}
	slices.SortFunc(seeds, func(x, y seed) int {
		// Less, inline where the source values agree (then the histories do too).
		switch {
		case x.c.Value != y.c.Value:
			return cmp.Compare(x.c.Value, y.c.Value)
		case x.c.A == y.c.A || x.c.Dist == 0 || y.c.Dist == 0:
			if x.c.Dist != y.c.Dist {
				return cmp.Compare(x.c.Dist, y.c.Dist)
			}
			if x.c.Bind != y.c.Bind {
				return cmp.Compare(x.c.Bind, y.c.Bind)
			}
		case s.Less(x.c, y.c):
			return -1
		case s.Less(y.c, x.c):
			return 1
		}
		return cmp.Compare(x.i, y.i)
	})
	q, head, next := s.queue[:0], 0, 0
	hi := sh.Lo + int32(n)
	for {
		var it seed
		// The smaller of the next seed and the FIFO's front; a seed wins ties (an
		// equal key is the same candidate).
		if next < len(seeds) && (head == len(q) || !s.before(&q[head].c, &seeds[next].c)) {
			it = seeds[next]
			next++
			if settled[it.i>>6]&(1<<(it.i&63)) != 0 {
				continue
			}
			reached[it.i>>6] |= 1 << (it.i & 63)
		} else if head < len(q) {
			it = q[head]
			head++
			if settled[it.i>>6]&(1<<(it.i&63)) != 0 {
				continue // settled earlier by a smaller seed
			}
		} else {
			break
		}
		settled[it.i>>6] |= 1 << (it.i & 63)
		cur[it.i] = it.c
		changed = append(changed, it.i)
		a, b := sh.Off[it.i], sh.Off[it.i+1]
		ext, ok := s.Extend(it.c)
		if !ok {
			continue
		}
		for _, x := range sh.Adj[a:b] {
			if x < sh.Lo || x >= hi {
				continue
			}
			j := x - sh.Lo
			if reached[j>>6]&(1<<(j&63)) != 0 || !s.before(&ext, &cur[j]) {
				continue
			}
			reached[j>>6] |= 1 << (j & 63)
			q = append(q, seed{j, ext})
		}
	}
	s.queue = q[:0]
	return changed
}

// gather records, for each vertex of the shard at lo of n vertices, the least
// candidate in offered to it and the shard that sent it (s.recv, marked in
// s.recvSet; −1 for the shard's own seeds, whose To is their From). Settle seeds
// from these, one per vertex, and Offer reads its known bounds from them
// (knownBounds).
func (s *Stepper) gather(lo int32, n int, in []Offers) {
	words := (n + 63) / 64
	s.gRecv = slices.Grow(s.gRecv[:0], n)[:n]
	s.gSet = slices.Grow(s.gSet[:0], words)[:words]
	clear(s.gSet)
	s.recv, s.recvSet, s.recvBeats = s.gRecv, s.gSet, false
	recv, set := s.recv, s.recvSet
	// Of equal candidates the first in list order stays; box.take (roundbox.go) is
	// this rule for the rounds engine's boxes, where it keeps the lowest sender's.
	for _, o := range in {
		t := o.From
		if o.From == o.To {
			t = -1
		}
		for j, w := range o.V {
			i := w - lo
			bit := uint64(1) << (i & 63)
			if set[i>>6]&bit == 0 || s.before(&o.C[j], &recv[i].c) {
				set[i>>6] |= bit
				recv[i] = held{o.C[j], t}
			}
		}
	}
	s.gathered = gathered{lo, n, len(in)}
}
