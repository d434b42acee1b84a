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
	g := in.G
	n := g.N()
	l, err := graph.NewLayout(n, size)
	if err != nil {
		return nil, RoundsRun{}, err
	}
	p := NewPass(in.Pair, one)
	k := l.Shards()
	shards := make([]*graph.Shard, k)
	cur := make([][]Cand, k)
	inbox := make([][]Offers, k)
	hitBy := make([][]int32, k)
	poneBy := make([][]float64, k)
	minA := p.Top()
	order := slices.Clone(in.Hit)
	idx := in.HitIndex()
	slices.Sort(order)
	for _, h := range order {
		s := l.Of(h)
		a := in.POne(int(idx[h]))
		hitBy[s] = append(hitBy[s], h)
		poneBy[s] = append(poneBy[s], a)
		minA = min(minA, p.Value(a))
	}
	steppers := make([]*Stepper, w)
	for i := range steppers {
		steppers[i] = p.NewStepper()
	}
	// The shards' cuts are numbered once per instance and layout: the other colour,
	// and the passes after a repair, reuse them.
	cache := in.cuts
	if cache == nil {
		cache = &cutCache{}
	}
	key := cutKey{g, l}
	cache.Lock()
	cuts := cache.of[key]
	fresh := cuts == nil
	if fresh {
		cuts = make([]*Cut, k)
	}
	err = strided(ctx, w, k, func(worker, s int) error {
		shards[s] = g.ShardOf(l, int32(s))
		cur[s] = p.NoneBlock(shards[s].Len())
		if len(hitBy[s]) > 0 {
			inbox[s] = []Offers{p.OwnOffers(int32(s), hitBy[s], poneBy[s])}
		}
		if !fresh {
			return nil
		}
		var err error
		cuts[s], err = steppers[worker].NewCut(l, shards[s])
		return err
	})
	if err == nil && fresh {
		if cache.of == nil {
			cache.of = map[cutKey][]*Cut{}
		}
		cache.of[key] = cuts
	}
	cache.Unlock()
	if err != nil {
		return nil, RoundsRun{}, err
	}
	for s := range steppers {
		steppers[s].cs = cutScratch{} // the bitmap over all positions is not needed again
	}
	run := RoundsRun{}
	if len(in.Hit) > 0 {
		run.Bound = p.Depth(minA, max(n-1, 0))
	}
	out := make([][]Offers, k)
	scans := make([]int64, k)
	for {
		if err := ctx.Err(); err != nil {
			return nil, run, err
		}
		active := false
		for s := range k {
			active = active || len(inbox[s]) > 0
		}
		if !active {
			break
		}
		if err := strided(ctx, w, k, func(worker, s int) error {
			out[s] = nil
			if len(inbox[s]) == 0 {
				return nil
			}
			st := steppers[worker]
			changed := st.Settle(shards[s], cur[s], inbox[s])
			out[s], _ = st.Offer(cuts[s], cur[s], changed, inbox[s])
			inbox[s] = nil // read: a round holds its own offers and the unread ones, not two rounds'
			for _, i := range changed {
				scans[s] += int64(len(shards[s].Neighbours(int(i))))
			}
			return nil
		}); err != nil {
			return nil, run, err
		}
		run.Rounds++
		// Route in source-shard order: Settle's minimum does not depend on it, but
		// the order is fixed anyway.
		inbox = make([][]Offers, k)
		for s := range k {
			for _, o := range out[s] {
				inbox[o.To] = append(inbox[o.To], o)
				run.Offers += int64(o.Len())
			}
		}
	}
	f := &Field{Value: make([]float64, n), Bind: make([]int32, n), Dist: make([]int32, n)}
	for s := range k {
		lo, _ := l.Range(int32(s))
		for i, c := range cur[s] {
			f.Value[int(lo)+i], f.Bind[int(lo)+i], f.Dist[int(lo)+i] = c.Value, c.Bind, c.Dist
		}
		f.Scans += scans[s]
	}
	// A vertex is final only when the rounds end: the pass counts them all then.
	progress.From(ctx).Add(int64(n))
	return f, run, nil
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
