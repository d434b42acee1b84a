package bfs

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// roundsEngines covers one vertex per shard (every edge crosses shards), uneven
// shards, and one shard (no offers at all).
var roundsEngines = []Rounds{{ShardSize: 1, Workers: 2}, {ShardSize: 3, Workers: 3}, {ShardSize: 7, Workers: 1}, {ShardSize: 64}}

// Rounds must reproduce Propagate bit for bit (value, binding vertex, distance) on the
// same instance families as the other engines (engines_test.go).
func TestRoundsMatchesPropagate(t *testing.T) {
	ctx := context.Background()
	forInstances(t, 3000, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		for _, c := range []bool{false, true} {
			want, err := Propagate{}.Pass(ctx, in, c)
			if err != nil {
				t.Fatal(err)
			}
			for _, eng := range roundsEngines {
				got, run, err := eng.PassRounds(ctx, in, c)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameField(got, want); err != nil {
					t.Fatalf("%s Pass %v: rounds(shard %d) vs propagate: %v", name, c, eng.ShardSize, err)
				}
				checkRoundCount(t, name, want, run, eng.ShardSize, in.G.N())
			}
		}
	})
}

// checkRoundCount: a round crosses at least one shard boundary along a binding path
// and at most one hop, so with one vertex per shard the last change is in round
// far+1 (far = the largest binding distance) and one more round may deliver offers
// that change nothing; in general, 1 ≤ rounds ≤ far+2 and offers die once values
// reach the top (rounds ≤ Bound+1 when Bound is Depth's, not the limit n−1); with a
// single shard there is exactly one round.
func checkRoundCount(t *testing.T, name string, f *Field, run RoundsRun, size, n int) {
	t.Helper()
	far, bound := -1, false
	for _, d := range f.Dist {
		far = max(far, int(d))
	}
	if far < 0 {
		bound = run.Rounds <= 1
	} else {
		bound = run.Rounds >= 1 && run.Rounds <= far+2 && (run.Bound == n-1 || run.Rounds <= run.Bound+1)
		if size == 1 {
			bound = bound && run.Rounds >= far+1
		}
		if size >= n {
			bound = bound && run.Rounds == 1 && run.Offers == 0
		}
	}
	if !bound {
		t.Fatalf("%s: shards of %d: %d rounds with bound %d, farthest binding at %d", name, size, run.Rounds, run.Bound, far)
	}
}

// Infeasible inputs and arbitrary values (random p_true on random sets, not
// necessarily hitting sets): the fields, which decide feasibility, must still agree,
// and so must the violations Solve reports.
func TestRoundsMatchesPropagateInfeasible(t *testing.T) {
	ctx := context.Background()
	infeasible := 0
	forInstances(t, 2000, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		bad := *in
		bad.PTrue = make([]float64, len(in.PTrue))
		for i := range bad.PTrue {
			switch r.IntN(4) {
			case 0:
				bad.PTrue[i] = float64(r.IntN(2))
			default:
				bad.PTrue[i] = r.Float64()
			}
		}
		if r.IntN(3) == 0 && in.G.N() > 1 { // a random set instead of a hitting set
			bad.Hit, bad.PTrue = nil, nil
			for v := range in.G.N() {
				if r.IntN(3) == 0 {
					bad.Hit = append(bad.Hit, int32(v))
					bad.PTrue = append(bad.PTrue, r.Float64())
				}
			}
		}
		want, err := Solve(ctx, &bad, Propagate{}, 50)
		if err != nil {
			t.Fatal(err)
		}
		if want.Infeasible > 0 {
			infeasible++
		}
		for _, eng := range roundsEngines {
			got, err := Solve(ctx, &bad, eng, 50)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameMechanism(got, want); err != nil {
				t.Fatalf("%s: rounds(shard %d) vs propagate: %v", name, eng.ShardSize, err)
			}
		}
	})
	if infeasible < testgraph.Instances(200, 20) {
		t.Fatalf("only %d infeasible instances exercised", infeasible)
	}
}

func sameMechanism(a, b *Solution) error {
	if a.Infeasible != b.Infeasible || fmt.Sprint(a.Violations) != fmt.Sprint(b.Violations) {
		return fmt.Errorf("violations %d %+v vs %d %+v", a.Infeasible, a.Violations, b.Infeasible, b.Violations)
	}
	for v := range a.PTrue {
		if !sameBits(a.PTrue[v], b.PTrue[v]) || !sameBits(a.POne[v], b.POne[v]) || a.Bind[v] != b.Bind[v] || a.Dist[v] != b.Dist[v] {
			return fmt.Errorf("vertex %d: p_true %v p_one %v bind %d dist %d vs p_true %v p_one %v bind %d dist %d",
				v, a.PTrue[v], a.POne[v], a.Bind[v], a.Dist[v], b.PTrue[v], b.POne[v], b.Bind[v], b.Dist[v])
		}
	}
	return nil
}

// Stepper.Less is keys.less with the source value carried by the candidate: check it
// against keys.less on random candidates that share values (ties are where the orders
// could differ).
func TestStepperLessIsKeysLess(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, pair := range testgraph.Pairs {
		for _, one := range []bool{false, true} {
			p := NewPass(pair, one)
			s := p.NewStepper()
			const nv = 6
			starts := []float64{0, 0.1, 0.5, 0.9, 1, 0.3}
			k := &keys{c: p, srcA: make([]float64, nv)}
			for h := range nv {
				k.srcA[h] = p.Seed(starts[h])
			}
			cand := func() Cand {
				h := int32(r.IntN(nv))
				d := int32(r.IntN(6))
				a := k.srcA[h]
				v := a
				for range d {
					v = p.Step(v)
				}
				return Cand{Value: v, A: a, Bind: h, Dist: d}
			}
			for range 20000 {
				x, y := cand(), cand()
				if got, want := s.Less(x, y), k.less(x.Value, x.Dist, x.Bind, y.Value, y.Dist, y.Bind); got != want {
					t.Fatalf("ε=%v δ=%v Pass %v: Less(%+v, %+v) = %v, keys.less = %v", pair.Epsilon, pair.Delta, one, x, y, got, want)
				}
			}
			none := p.None()
			x := cand()
			if !s.Less(x, none) || s.Less(none, x) || s.Less(none, none) {
				t.Fatalf("None must come after every candidate")
			}
		}
	}
}

// On a long path with δ > 0 the values reach the top before the far end: offers stop
// at Pass.Depth hops, so the rounds stop at the shard holding that depth, not at n.
func TestRoundsStopAtDepth(t *testing.T) {
	n := 400
	e := make([][2]int32, n-1)
	for i := range e {
		e[i] = [2]int32{int32(i), int32(i + 1)}
	}
	g := testgraph.FromEdges(n, e)
	answer := make([]bool, n)
	answer[0] = true
	pair := testgraph.MustDP(0.5, 1e-6)
	in, err := NewInstance(g, answer, []int32{0}, []float64{0.5}, pair)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Propagate{}.Pass(context.Background(), in, true)
	got, run, err := Rounds{ShardSize: 16}.PassRounds(context.Background(), in, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameField(got, want); err != nil {
		t.Fatal(err)
	}
	if d := NewPass(pair, true).Depth(0.5, n-1); run.Bound != d || d >= n-1 || run.Rounds > d/16+2 {
		t.Fatalf("bound %d, rounds %d, Depth %d, n %d", run.Bound, run.Rounds, d, n)
	}
}

// With δ = 0, U has a float64 fixed point below 1 (1 − (1 − a)/e^ε rounds to a), so
// no depth bound exists and Depth returns the limit; with δ > 0 it reaches 1.
func TestDepthFixedPoint(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		bounded    bool
	}{{0.5, 0, false}, {1, 0, false}, {0, 0, false}, {0.5, 1e-6, true}, {1, 0.01, true}, {0, 0.05, true}} {
		p := NewPass(testgraph.MustDP(c.eps, c.delta), true)
		d := p.Depth(0.5, 1e6)
		if (d < 1e6) != c.bounded {
			t.Errorf("ε=%v δ=%v: Depth(0.5) = %d, bounded want %v", c.eps, c.delta, d, c.bounded)
		}
		if c.bounded && p.pair.Iterate(d+1, 0.5) != 1 {
			t.Errorf("ε=%v δ=%v: U^%d(0.5) = %v, want 1", c.eps, c.delta, d+1, p.pair.Iterate(d+1, 0.5))
		}
		if c.bounded && p.pair.Iterate(d, 0.5) >= 1 {
			t.Errorf("ε=%v δ=%v: U^%d(0.5) already 1", c.eps, c.delta, d)
		}
	}
}

func TestLayout(t *testing.T) {
	for _, c := range []struct{ n, size, shards int }{{0, 4, 0}, {1, 4, 1}, {4, 4, 1}, {5, 4, 2}, {9, 1, 9}} {
		l, err := graph.NewLayout(c.n, c.size)
		if err != nil {
			t.Fatal(err)
		}
		if l.Shards() != c.shards {
			t.Errorf("%+v: %d shards, want %d", c, l.Shards(), c.shards)
		}
		next := int32(0)
		for s := range l.Shards() {
			lo, hi := l.Range(int32(s))
			if lo != next || hi <= lo {
				t.Errorf("%+v: shard %d is [%d, %d)", c, s, lo, hi)
			}
			for v := lo; v < hi; v++ {
				if l.Of(v) != int32(s) {
					t.Errorf("%+v: Of(%d) = %d, want %d", c, v, l.Of(v), s)
				}
			}
			next = hi
		}
		if int(next) != c.n {
			t.Errorf("%+v: shards cover [0, %d)", c, next)
		}
	}
	if _, err := graph.NewLayout(3, 0); err == nil {
		t.Error("shard size 0 accepted")
	}
}

func BenchmarkRounds(b *testing.B) {
	for _, n := range []int{1e4, 1e5} {
		r := rand.New(rand.NewPCG(1, 2))
		in := randomInstance(r, testgraph.Families[6], n, testgraph.MustDP(1, 0.01))
		for _, eng := range []Engine{Propagate{}, Rounds{}} {
			b.Run(fmt.Sprintf("%s/n=%d", eng.Name(), n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Solve(context.Background(), in, eng, 1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// Rounds count shard crossings, not hops: a path with one hitting-set vertex at one
// end and δ = 0 (values never reach the top, so every vertex is bound) takes one
// round per shard, and each boundary carries one offer, forward: the offer back,
// which would change nothing and cost one more round, is not sent (Offer's
// knownBounds: the boundary vertex's only neighbour in the offering shard made
// that offer).
func TestRoundsCountShardCrossings(t *testing.T) {
	for _, c := range []struct{ n, size int }{{1000, 100}, {1000, 1}, {1000, 1000}, {1000, 333}, {1, 1}} {
		e := make([][2]int32, c.n-1)
		for i := range e {
			e[i] = [2]int32{int32(i), int32(i + 1)}
		}
		g := testgraph.FromEdges(c.n, e)
		answer := make([]bool, c.n)
		pair := testgraph.MustDP(0.5, 0)
		in, err := NewInstance(g, answer, []int32{0}, []float64{0.6}, pair)
		if err != nil {
			t.Fatal(err)
		}
		for _, one := range []bool{false, true} {
			want, _ := Propagate{}.Pass(context.Background(), in, one)
			got, run, err := Rounds{ShardSize: c.size}.PassRounds(context.Background(), in, one)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameField(got, want); err != nil {
				t.Fatal(err)
			}
			shards := (c.n + c.size - 1) / c.size
			if want.Dist[c.n-1] != int32(c.n-1) || run.Rounds != shards || run.Offers != int64(shards-1) {
				t.Fatalf("path of %d in shards of %d, pass %v: %d rounds, %d offers (far end bound at %d); want %d rounds, %d offers",
					c.n, c.size, one, run.Rounds, run.Offers, want.Dist[c.n-1], shards, shards-1)
			}
		}
	}
}

// Settle in several batches (offers arriving over rounds, in any order) reaches the
// same local fixed point as one Settle of all of them, and reports exactly the
// vertices whose candidate changed.
func TestSettleIncremental(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 4))
	forInstances(t, 400, func(t *testing.T, name string, _ *rand.Rand, in *Instance) {
		n := in.G.N()
		l, _ := graph.NewLayout(n, n)
		sh := in.G.ShardOf(l, 0)
		for _, one := range []bool{false, true} {
			p := NewPass(in.Pair, one)
			s := p.NewStepper()
			// Random candidates for random vertices, as offers from outside would be:
			// sources with values from a small set (ties), extended a few hops.
			srcA := make([]float64, n)
			for v := range srcA {
				srcA[v] = p.Seed([]float64{0, 0.3, 0.5, 0.5, 0.9, 1}[r.IntN(6)])
			}
			var all []Offers
			for range 1 + r.IntN(4) {
				o := Offers{}
				for v := range int32(n) {
					if r.IntN(3) == 0 {
						b := r.IntN(n)
						c := Cand{Value: srcA[b], A: srcA[b], Bind: int32(b), Dist: 0}
						for range r.IntN(3) {
							c, _ = s.Extend(c)
						}
						if c.Bind >= 0 {
							o.V, o.C = append(o.V, v), append(o.C, c)
						}
					}
				}
				all = append(all, o)
			}
			once := p.NoneBlock(n)
			s.Settle(sh, once, all)
			inc := p.NoneBlock(n)
			for _, k := range r.Perm(len(all)) {
				before := slices.Clone(inc)
				changed := s.Settle(sh, inc, all[k:k+1])
				var diff []int32
				for i := range inc {
					if inc[i] != before[i] {
						diff = append(diff, int32(i))
					}
				}
				slices.Sort(changed)
				if !slices.Equal(changed, diff) {
					t.Fatalf("%s: Settle reported %v changed, %v did", name, changed, diff)
				}
			}
			if !slices.Equal(once, inc) {
				t.Fatalf("%s Pass %v: incremental Settle differs from one Settle", name, one)
			}
		}
	})
}

// Rounds runs its colours one at a time, and passes honours that: the second
// colour's pass starts after the first's ends, while an engine that does not ask
// runs both at once (a probe counts the passes running together).
func TestRoundsOneColourAtATime(t *testing.T) {
	if !(Rounds{}).oneColourAtATime() {
		t.Fatal("Rounds does not ask for one colour at a time")
	}
	in := randomInstance(rand.New(rand.NewPCG(3, 4)), testgraph.Families[0], 30, testgraph.Pairs[0])
	for _, c := range []struct {
		seq  bool
		want int32
	}{{true, 1}, {false, 2}} {
		var running, most atomic.Int32
		if _, err := passes(context.Background(), in, overlapProbe{Rounds{}, c.seq, &running, &most}); err != nil {
			t.Fatal(err)
		}
		if most.Load() != c.want {
			t.Errorf("one colour at a time %v: %d colours ran at once, want %d", c.seq, most.Load(), c.want)
		}
	}
}

// overlapProbe is eng, asking for one colour at a time or not, counting its colour
// passes running at once.
type overlapProbe struct {
	eng           Engine
	seq           bool
	running, most *atomic.Int32
}

func (e overlapProbe) Name() string           { return e.eng.Name() }
func (e overlapProbe) oneColourAtATime() bool { return e.seq }

func (e overlapProbe) Pass(ctx context.Context, in *Instance, one bool) (*Field, error) {
	k := e.running.Add(1)
	defer e.running.Add(-1)
	for m := e.most.Load(); k > m && !e.most.CompareAndSwap(m, k); m = e.most.Load() {
	}
	time.Sleep(100 * time.Millisecond) // long enough for a concurrent colour to start
	return e.eng.Pass(ctx, in, one)
}

// box.put decides most offers by rs.val alone, so val must follow cur wherever
// Settle changes a candidate; a stale value would only cost rounds, not change the
// field, which TestRoundsMatchesPropagate would not notice.
func TestRoundsValuesFollowCandidates(t *testing.T) {
	ctx := context.Background()
	forInstances(t, 300, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		for _, one := range []bool{false, true} {
			rs, _, err := Rounds{ShardSize: 3, Workers: 2}.start(ctx, in, one)
			if err != nil {
				t.Fatal(err)
			}
			if err := rs.rounds(ctx, &RoundsRun{}); err != nil {
				t.Fatal(err)
			}
			for s := range rs.cur {
				for i, c := range rs.cur[s] {
					if math.Float64bits(rs.val[s][i]) != math.Float64bits(c.Value) {
						t.Fatalf("%s Pass %v: shard %d vertex %d: val %v, candidate %v", name, one, s, i, rs.val[s][i], c.Value)
					}
				}
			}
		}
	})
}
