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
// Offer per shard; on one machine Propagate is faster.
//
// Solve runs Rounds' two colours one after the other, not at once as the other
// engines': each colour already spreads its shards over Workers goroutines, and its
// offers between shards take memory in proportion to the edges. Both at once held
// twice that and were no faster (docs/PERFORMANCE.md, "Memory model").
type Rounds struct {
	ShardSize int
	Workers   int
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
	Offers int64 // candidates sent between shards, all rounds
}

// PassRounds is Pass that also reports the number of rounds.
func (e Rounds) PassRounds(ctx context.Context, in *Instance, one bool) (*Field, RoundsRun, error) {
	return e.run(ctx, in, one)
}

func (e Rounds) run(ctx context.Context, in *Instance, one bool) (*Field, RoundsRun, error) {
	size := e.ShardSize
	if size <= 0 {
		size = DefaultShardSize
	}
	w := e.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	n := in.G.N()
	l, err := graph.NewLayout(n, size)
	if err != nil {
		return nil, RoundsRun{}, err
	}
	rs := &roundState{p: NewPass(in.Pair, one), l: l, k: l.Shards(), w: w}
	minA := rs.seed(in)
	if err := rs.prepare(ctx, in); err != nil {
		return nil, RoundsRun{}, err
	}
	run := RoundsRun{}
	if len(in.Hit) > 0 {
		run.Bound = rs.p.Depth(minA, max(n-1, 0))
	}
	if err := rs.rounds(ctx, &run); err != nil {
		return nil, run, err
	}
	f := rs.field(n)
	// A vertex is final only when the rounds end: the pass counts them all then.
	progress.From(ctx).Add(int64(n))
	return f, run, nil
}

// roundState is one pass of Rounds: the layout's k shards with their cuts, each
// shard's candidates and unread offers, its scans, and a Stepper a worker.
type roundState struct {
	p        Pass
	l        graph.Layout
	k, w     int
	shards   []*graph.Shard
	cuts     []*Cut
	cur      [][]Cand
	inbox    [][]Offers
	scans    []int64
	steppers []*Stepper
	hitBy    [][]int32   // the hitting set's vertices by shard, ascending
	poneBy   [][]float64 // their p_one
}

// seed sorts the hitting set into its shards and returns the least value it seeds
// (the top of the pass when it is empty), for the bound on the rounds.
func (rs *roundState) seed(in *Instance) (minA float64) {
	rs.hitBy, rs.poneBy = make([][]int32, rs.k), make([][]float64, rs.k)
	minA = rs.p.Top()
	order := slices.Clone(in.Hit)
	idx := in.HitIndex()
	slices.Sort(order)
	for _, h := range order {
		s := rs.l.Of(h)
		a := in.POne(int(idx[h]))
		rs.hitBy[s] = append(rs.hitBy[s], h)
		rs.poneBy[s] = append(rs.poneBy[s], a)
		minA = min(minA, rs.p.Value(a))
	}
	return minA
}

// prepare makes each shard, its candidates (None), the hitting set's own offers as
// its first inbox, and its cut. The shards' cuts are numbered once per instance and
// layout: the other colour, and the passes after a repair, reuse them.
func (rs *roundState) prepare(ctx context.Context, in *Instance) error {
	k, g := rs.k, in.G
	rs.shards, rs.cur, rs.inbox, rs.scans = make([]*graph.Shard, k), make([][]Cand, k), make([][]Offers, k), make([]int64, k)
	rs.steppers = make([]*Stepper, rs.w)
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
		if len(rs.hitBy[s]) > 0 {
			rs.inbox[s] = []Offers{rs.p.OwnOffers(int32(s), rs.hitBy[s], rs.poneBy[s])}
		}
		if !fresh {
			return nil
		}
		var err error
		rs.cuts[s], err = rs.steppers[worker].NewCut(rs.l, rs.shards[s])
		return err
	})
	if err == nil && fresh {
		if cache.of == nil {
			cache.of = map[cutKey][]*Cut{}
		}
		cache.of[key] = rs.cuts
	}
	cache.Unlock()
	rs.hitBy, rs.poneBy = nil, nil // in the inboxes now
	if err != nil {
		return err
	}
	for s := range rs.steppers {
		rs.steppers[s].cs = cutScratch{} // the bitmap over all positions is not needed again
	}
	return nil
}

// rounds runs rounds until no shard has an offer to read: in each, every shard with
// offers settles (Settle) and offers its changed cut vertices onward (Offer).
func (rs *roundState) rounds(ctx context.Context, run *RoundsRun) error {
	k := rs.k
	out := make([][]Offers, k)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		active := false
		for s := range k {
			active = active || len(rs.inbox[s]) > 0
		}
		if !active {
			return nil
		}
		if err := strided(ctx, rs.w, k, func(worker, s int) error {
			out[s] = nil
			if len(rs.inbox[s]) == 0 {
				return nil
			}
			st := rs.steppers[worker]
			changed := st.Settle(rs.shards[s], rs.cur[s], rs.inbox[s])
			out[s], _ = st.Offer(rs.cuts[s], rs.cur[s], changed, rs.inbox[s])
			rs.inbox[s] = nil // read: a round holds its own offers and the unread ones, not two rounds'
			for _, i := range changed {
				rs.scans[s] += int64(len(rs.shards[s].Neighbours(int(i))))
			}
			return nil
		}); err != nil {
			return err
		}
		run.Rounds++
		// Route in source-shard order: Settle's minimum does not depend on it, but
		// the order is fixed anyway.
		rs.inbox = make([][]Offers, k)
		for s := range k {
			for _, o := range out[s] {
				rs.inbox[o.To] = append(rs.inbox[o.To], o)
				run.Offers += int64(o.Len())
			}
		}
	}
}

// field lays the shards' final candidates out as the pass's field over n vertices.
func (rs *roundState) field(n int) *Field {
	f := &Field{Value: make([]float64, n), Bind: make([]int32, n), Dist: make([]int32, n)}
	for s := range rs.k {
		lo, _ := rs.l.Range(int32(s))
		for i, c := range rs.cur[s] {
			f.Value[int(lo)+i], f.Bind[int(lo)+i], f.Dist[int(lo)+i] = c.Value, c.Bind, c.Dist
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
