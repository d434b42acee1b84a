package bfs

import (
	"context"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/graph"

	"github.com/graphdp/graphdp/internal/progress"
)

// Rounds is the block-centric round engine: the same fixed point as Propagate,
// computed by rounds over shards of ShardSize consecutive vertices (0:
// DefaultShardSize) on Workers goroutines (0: GOMAXPROCS). In a round every shard
// that received offers settles to its local fixed point (Settle) and offers its
// changed cut vertices' extensions to the neighbouring shards (Offer); it stops when
// no offer is sent. Rounds thus count shard crossings along binding paths, not hops.
// It is the single-machine twin of the Beam pipeline, which calls the same Settle and
// Offer per shard; here the senders also drop what a round's floor rules out (offer.go,
// floor), which Beam's cannot see and its shards drop on receipt. On one machine
// Propagate is faster.
//
// Solve runs Rounds' two colours one after the other, not at once as the other
// engines': each colour already spreads its shards over Workers goroutines, and its
// offers between shards take memory in proportion to the edges. Both at once held
// twice that and were no faster (docs/PERFORMANCE.md, "The other engines").
//
// Relabel (RelabelModes; "" is none) renames the vertices in breadth-first order
// before they are cut into shards, always (bfs) or where that cuts materially fewer
// arcs (auto): relabel.go. The result is the same bit for bit (doc.go invariant 9).
type Rounds struct {
	ShardSize int
	Workers   int
	Relabel   string

	// Tests only: senders do not drop what the floor rules out (offer.go, floor); the
	// offers held until a merge instead of roundHeldOffers.
	noFloor    bool
	heldOffers int
}

// layout is the shards of n vertices: ShardSize each, or DefaultShardSize when none
// is set.
func (e Rounds) layout(n int) (graph.Layout, error) {
	size := e.ShardSize
	if size <= 0 {
		size = DefaultShardSize
	}
	return graph.NewLayout(n, size)
}

// oneColourAtATime tells Solve to run the colours one after the other.
func (Rounds) oneColourAtATime() bool { return true }

// Name is the engine's name in flags and metadata.
func (Rounds) Name() string { return "rounds" }

// DefaultShardSize is Rounds' shard size when none is set.
const DefaultShardSize = 4096

// Pass computes g_c for every vertex.
func (e Rounds) Pass(ctx context.Context, in *Instance, one bool) (*Field, error) {
	f, _, err := e.run(ctx, in, one)
	return f, err
}

// RoundsRun reports what Rounds did for one pass.
type RoundsRun struct {
	Rounds int   // rounds in which some shard settled (the first is seeded by the hitting set)
	Bound  int   // the a-priori bound in hops (Pass.Depth of the smallest source value)
	Offers int64 // candidates sent between shards, all rounds (after the floor: Beam's senders send more)
}

// PassRounds is Pass that also reports the number of rounds.
func (e Rounds) PassRounds(ctx context.Context, in *Instance, one bool) (*Field, RoundsRun, error) {
	return e.run(ctx, in, one)
}

func (e Rounds) run(ctx context.Context, in *Instance, one bool) (*Field, RoundsRun, error) {
	n := in.G.N()
	rs, minA, err := e.start(ctx, in, one)
	if err != nil {
		return nil, RoundsRun{}, err
	}
	run := RoundsRun{}
	if len(in.Hit) > 0 {
		run.Bound = rs.p.Depth(minA, max(n-1, 0))
	}
	if err := rs.rounds(ctx, &run); err != nil {
		return nil, run, err
	}
	in.count(run, rs.l, rs.rl.info)
	f := rs.field(n)
	// A vertex is final only when the rounds end: the pass counts them all then.
	progress.From(ctx).Add(int64(n))
	return f, run, nil
}

// start lays out, renames and seeds one pass (prepare: the first round's boxes
// filled) and returns it with the least value seeded.
func (e Rounds) start(ctx context.Context, in *Instance, one bool) (*roundState, float64, error) {
	w := e.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	l, err := e.layout(in.G.N())
	if err != nil {
		return nil, 0, err
	}
	rl, err := e.relabelling(in, l)
	if err != nil {
		return nil, 0, err
	}
	rs := &roundState{p: NewPass(in.Pair, one), l: l, k: l.Shards(), w: w, g: in.G, rl: rl, noFloor: e.noFloor, held: roundHeldOffers}
	if e.heldOffers > 0 {
		rs.held = e.heldOffers
	}
	if rl.g != nil {
		rs.g = rl.g
	}
	minA := rs.seed(in)
	if err := rs.prepare(ctx, in); err != nil {
		return nil, 0, err
	}
	return rs, minA, nil
}

// roundState is one pass of Rounds: the layout's k shards with their cuts, each
// shard's candidates and unread offers, its scans, and a Stepper a worker.
type roundState struct {
	p        Pass
	g        *graph.Graph // the instance's, or its renaming (rl)
	rl       *relabelled
	l        graph.Layout
	k, w     int
	shards   []*graph.Shard
	cuts     []*Cut
	cur      [][]Cand
	val      [][]float64 // cur's values, apart: what box.put reads for most offers
	boxes    [2][]box    // the offers of the round being read and of the next, by shard
	changed  [][]uint64  // by shard: the vertices its Settle changed in the round
	scans    []int64
	pending  [][]Offers // what each shard of a round's step offered, until merged
	sent     []int64    // offers sent, by worker
	steppers []*Stepper
	floor    floor       // a bound below the round's offers and the vertices below it
	noFloor  bool        // Rounds.noFloor
	held     int         // roundHeldOffers, or Rounds.heldOffers in tests
	least    []float64   // by shard: the least value its Settle changed among vertices with cut arcs
	arcs     []int64     // by shard: the cut arcs of the vertices its Settle changed
	hitBy    [][]int32   // the hitting set's vertices by shard, ascending, in rs.g's positions
	hvBy     [][]float64 // their hitting-set values (pass.go)
}

// seed sorts the hitting set into its shards and returns the least value it seeds
// (the top of the pass when it is empty), for the bound on the rounds.
func (rs *roundState) seed(in *Instance) (minA float64) {
	rs.hitBy, rs.hvBy = make([][]int32, rs.k), make([][]float64, rs.k)
	minA = rs.p.Top()
	order := make([]int32, len(in.Hit))
	for i, h := range in.Hit {
		order[i] = rs.rl.pos(h)
	}
	idx := in.HitIndex()
	slices.Sort(order)
	for _, p := range order {
		s, h := rs.l.Of(p), rs.rl.vertex(p)
		hv := in.HitValue(int(idx[h]))
		rs.hitBy[s] = append(rs.hitBy[s], p)
		rs.hvBy[s] = append(rs.hvBy[s], hv)
		minA = min(minA, rs.p.Seed(hv))
	}
	return minA
}

// prepare makes each shard, its candidates (None), the hitting set's own offers as
// its first inbox, and its cut. The shards' cuts are numbered once per instance and
// layout: the other colour, and the passes after a repair, reuse them.
func (rs *roundState) prepare(ctx context.Context, in *Instance) error {
	k, g := rs.k, rs.g
	rs.shards, rs.cur, rs.changed, rs.scans = make([]*graph.Shard, k), make([][]Cand, k), make([][]uint64, k), make([]int64, k)
	rs.val = make([][]float64, k)
	rs.boxes, rs.pending = [2][]box{make([]box, k), make([]box, k)}, make([][]Offers, k)
	rs.steppers, rs.sent = make([]*Stepper, rs.w), make([]int64, rs.w)
	rs.least, rs.arcs = make([]float64, k), make([]int64, k)
	for i := range rs.steppers {
		rs.steppers[i] = rs.p.NewStepper()
	}
	cache := in.cuts
	if cache == nil {
		cache = &cutCache{}
	}
	key := cutKey{g, rs.l}
	cache.Lock()
	rs.cuts = cache.of[key]
	fresh := rs.cuts == nil
	if fresh {
		rs.cuts = make([]*Cut, k)
	}
	err := strided(ctx, rs.w, k, func(worker, s int) error {
		rs.shards[s] = g.ShardOf(rs.l, int32(s))
		rs.cur[s] = rs.p.NoneBlock(rs.shards[s].Len())
		rs.val[s] = make([]float64, len(rs.cur[s]))
		for i, c := range rs.cur[s] {
			rs.val[s][i] = c.Value
		}
		if len(rs.hitBy[s]) > 0 {
			// The first round's offers: the shard's own hitting-set vertices.
			own := rs.p.OwnOffers(int32(s), rs.hitBy[s], rs.hvBy[s])
			for j := range own.C {
				own.C[j].Bind = rs.rl.vertex(rs.hitBy[s][j]) // ties break by the instance's positions
			}
			rs.boxes[0][s].put(rs.steppers[worker], rs.shards[s].Lo, rs.val[s], rs.cur[s], &own)
		}
		if !fresh {
			return nil
		}
		var err error
		rs.cuts[s], err = rs.steppers[worker].cut(rs.l, rs.shards[s])
		return err
	})
	if err == nil && fresh {
		if cache.of == nil {
			cache.of = map[cutKey][]*Cut{}
		}
		cache.of[key] = rs.cuts
	}
	cache.Unlock()
	rs.hitBy, rs.hvBy = nil, nil // in the first round's boxes now
	if err != nil {
		return err
	}
	for s := range rs.steppers {
		rs.steppers[s].cs = cutScratch{} // the bitmap over all positions is not needed again
	}
	return nil
}

// rounds runs rounds until no shard has an offer to read: in each, every shard with
// offers settles (Settle), then every shard that changed offers its changed cut
// vertices onward (Offer), less what the round's floor rules out. The offers are not
// held as lists from round to round: the shards offer in steps, and the lists Offer
// returned are merged into their destinations' boxes for the next round (box.put)
// before they could exceed rs.held offers (offerAll). A box keeps the least
// candidate each vertex was offered, of those that beat its candidate. A round's
// offers thus take memory by the vertices they reach (two rounds' boxes, 32 bytes a
// vertex each) and at most rs.held offers' lists, not by all the cut arcs they
// cross; Settle and Offer read the box as gather would have built it from the lists
// (Stepper.useBox). Every shard settles before any offers, so the merge compares
// each offer with its destination's candidate of this round.
func (rs *roundState) rounds(ctx context.Context, run *RoundsRun) error {
	read := 0
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !rs.active(read) {
			return nil
		}
		if err := rs.settle(ctx, rs.boxes[read]); err != nil {
			return err
		}
		rs.raiseFloor()
		if err := rs.offerAll(ctx, read); err != nil {
			return err
		}
		run.Rounds++
		read = 1 - read
		run.Offers = 0
		for _, n := range rs.sent {
			run.Offers += n
		}
	}
}

// active tells whether any shard has offers to read in boxes[read].
func (rs *roundState) active(read int) bool {
	for s := range rs.boxes[read] {
		if rs.boxes[read][s].n > 0 {
			return true
		}
	}
	return false
}

// offerAll has every shard offer, in steps of at most rs.held/roundStepShare cut
// arcs (and at least rs.w shards), and merges the offers into the boxes of the round
// after read before a step could take those not merged yet past rs.held (a step
// sends at most one offer a cut arc): the lists held stay within rs.held offers, and
// a round whose offers the floor thinned merges a few times, not once a step. Each
// merge takes every list not merged yet.
func (rs *roundState) offerAll(ctx context.Context, read int) error {
	held, from := 0, 0 // offers not merged yet, of shards [from, lo)
	for lo := 0; lo < rs.k; {
		hi, arcs := lo, 0
		for ; hi < rs.k; hi++ {
			a := rs.cuts[hi].Arcs()
			if hi-lo >= rs.w && arcs+a > rs.held/roundStepShare {
				break
			}
			arcs += a
		}
		if held > 0 && held+arcs > rs.held {
			if err := rs.merge(ctx, from, lo, rs.boxes[1-read]); err != nil {
				return err
			}
			held, from = 0, lo
		}
		if err := rs.step(ctx, lo, hi, rs.boxes[read]); err != nil {
			return err
		}
		for _, sent := range rs.pending[lo:hi] {
			for _, o := range sent {
				held += o.Len()
			}
		}
		lo = hi
	}
	return rs.merge(ctx, from, rs.k, rs.boxes[1-read])
}

// roundHeldOffers bounds the offers held as lists until a merge (offerAll; 28 bytes
// each: 112 MiB); it is roundState.held but in tests, which make it small to merge
// mid-round. A destination's box then takes a thousand offers or more at once on
// large uniform graphs, not a few dozen from each sender in turn. 2^24 held 4.9 GiB
// at 10^8 edges and 2^22 4.5, for the same CPU (docs/BEAM.md, "The local rounds engine").
const roundHeldOffers = 1 << 22

// roundStepShare is the share of roundHeldOffers one step's cut arcs may take: the
// floor leaves a step's offers a fraction of its arcs on graphs without locality, so
// several steps fit before a merge, and each destination's box is loaded fewer times
// a round (4% less CPU than steps of roundHeldOffers arcs, BenchmarkUniformRoundsCPU).
const roundStepShare = 8

// settle settles every shard on the offers in its box and marks the vertices it
// changed in rs.changed (none: nil).
func (rs *roundState) settle(ctx context.Context, in []box) error {
	return strided(ctx, rs.w, rs.k, func(worker, s int) error {
		rs.changed[s], rs.least[s], rs.arcs[s] = rs.changed[s][:0], rs.p.Top(), 0
		if in[s].n == 0 {
			return nil
		}
		st := rs.steppers[worker]
		st.useBox(&in[s])
		changed := st.settle(rs.shards[s], rs.cuts[s], rs.cur[s])
		if len(changed) == 0 {
			in[s].empty()
			return nil
		}
		words := (rs.shards[s].Len() + 63) / 64
		rs.changed[s] = slices.Grow(rs.changed[s], words)[:words]
		copy(rs.changed[s], st.settled) // what settle changed
		least, arcs, cut := rs.p.Top(), int64(0), rs.cuts[s]
		for _, i := range changed {
			v := rs.cur[s][i].Value
			rs.val[s][i] = v
			rs.scans[s] += int64(len(rs.shards[s].Neighbours(int(i))))
			if a := cut.Off[i+1] - cut.Off[i]; a > 0 {
				least, arcs = min(least, v), arcs+int64(a)
			}
		}
		rs.least[s], rs.arcs[s] = least, arcs
		return nil
	})
}

// raiseFloor sets rs.floor for the offers of the round whose Settles just ran: at,
// Step of the least candidate they changed among vertices with cut arcs (only those
// offer), and the vertices whose candidates are below it. Marking them reads every
// vertex's value, so a round whose changed vertices have fewer cut arcs than an
// eighth of the vertices (a path's, say: a few offers a round) has no floor
// (floor.use is nil): it would cost more than the offers it could drop.
func (rs *roundState) raiseFloor() {
	fl := &rs.floor
	fl.on = false
	if rs.noFloor {
		return
	}
	least, arcs := rs.p.Top(), int64(0)
	for s := range rs.least {
		least, arcs = min(least, rs.least[s]), arcs+rs.arcs[s]
	}
	if arcs < int64(rs.l.N)/8 {
		return
	}
	fl.on, fl.at = true, rs.p.Step(least)
	words := (int(rs.l.N) + 63) / 64
	fl.below = slices.Grow(fl.below[:0], words)[:words]
	clear(fl.below)
	for s, vals := range rs.val {
		lo, _ := rs.l.Range(int32(s))
		for i, v := range vals {
			if v < fl.at {
				p := lo + int32(i)
				fl.below[p>>6] |= 1 << (p & 63)
			}
		}
	}
}

// step has shards [lo, hi) offer their changed vertices' extensions, on the offers
// they settled on, keeps what each offers in rs.pending[s] and empties their boxes.
func (rs *roundState) step(ctx context.Context, lo, hi int, in []box) error {
	return strided(ctx, rs.w, hi-lo, func(worker, j int) error {
		s := lo + j
		rs.pending[s] = nil
		if len(rs.changed[s]) == 0 {
			return nil
		}
		st := rs.steppers[worker]
		st.useBox(&in[s])
		rs.pending[s], _ = st.offer(rs.cuts[s], rs.cur[s], rs.changed[s], rs.floor.use())
		in[s].empty()
		return nil
	})
}

// merge puts the offers shards [lo, hi) sent (rs.pending) into their destinations'
// boxes: each worker takes every rs.w-th destination and reads the senders' lists to
// it in sender order (each sender's lists are sorted by destination: one cursor a
// sender), so a box has one writer and its offers arrive together.
func (rs *roundState) merge(ctx context.Context, lo, hi int, out []box) error {
	err := strided(ctx, rs.w, rs.w, func(worker, _ int) error {
		st := rs.steppers[worker]
		cursor := make([]int, hi-lo)
		for d := worker; d < rs.k; d += rs.w {
			first, _ := rs.l.Range(int32(d))
			for j := range cursor {
				sent := rs.pending[lo+j]
				c := cursor[j]
				for c < len(sent) && int(sent[c].To) < d {
					c++
				}
				if c < len(sent) && int(sent[c].To) == d {
					out[d].put(st, first, rs.val[d], rs.cur[d], &sent[c])
					rs.sent[worker] += int64(sent[c].Len())
					c++
				}
				cursor[j] = c
			}
		}
		if worker == 0 {
			return ctx.Err()
		}
		return nil
	})
	clear(rs.pending[lo:hi]) // merged: garbage now, not held until the next round
	return err
}

// field lays the shards' final candidates out as the pass's field over the
// instance's n vertices (through the renaming back, where it applied).
func (rs *roundState) field(n int) *Field {
	f := &Field{Value: make([]float64, n), Bind: make([]int32, n), Dist: make([]int32, n)}
	for s := range rs.k {
		lo, _ := rs.l.Range(int32(s))
		for i, c := range rs.cur[s] {
			v := rs.rl.vertex(lo + int32(i))
			f.Value[v], f.Bind[v], f.Dist[v] = c.Value, c.Bind, c.Dist
		}
		f.Scans += rs.scans[s]
	}
	return f
}

// strided runs fn(worker, i) for i in [0, n) on w goroutines, each with a fixed worker
// index (for its Stepper), items handed out in strides.
func strided(ctx context.Context, w, n int, fn func(worker, i int) error) error {
	w = max(1, min(w, n))
	grp, gctx := errgroup.WithContext(ctx)
	for worker := range w {
		grp.Go(func() error {
			for i := worker; i < n; i += w {
				if err := gctx.Err(); err != nil {
					return err
				}
				if err := fn(worker, i); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return grp.Wait()
}
