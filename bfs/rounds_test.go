package bfs

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// roundsEngines covers one vertex per shard (every edge crosses shards), uneven
// shards, and one shard (no offers at all).
var roundsEngines = []Rounds{{ShardSize: 1, Workers: 2}, {ShardSize: 3, Workers: 3}, {ShardSize: 7, Workers: 1}, {}}

// Rounds must reproduce Propagate bit for bit (value, binding vertex, distance) on the
// same instance families as the other engines (engines_test.go).
func TestRoundsMatchesPropagate(t *testing.T) {
	ctx := context.Background()
	forInstances(t, 3000, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		for _, c := range []bool{false, true} {
			want, err := Propagate{}.Colour(ctx, in, c)
			if err != nil {
				t.Fatal(err)
			}
			for _, eng := range roundsEngines {
				got, run, err := eng.ColourRounds(ctx, in, c)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameField(got, want); err != nil {
					t.Fatalf("%s colour %v: rounds(shard %d) vs propagate: %v", name, c, eng.ShardSize, err)
				}
				checkRoundCount(t, name, want, run)
			}
		}
	})
}

// checkRoundCount: the last change happens in the round equal to the largest binding
// distance, and one more round confirms it, unless the a-priori bound stops first.
func checkRoundCount(t *testing.T, name string, f *Field, run RoundsRun) {
	t.Helper()
	far := 0
	for _, d := range f.Dist {
		far = max(far, int(d))
	}
	if run.Rounds > run.Bound || run.Rounds < far || (run.Rounds < run.Bound && run.Rounds != far+1) {
		t.Fatalf("%s: %d rounds with bound %d, farthest binding at %d", name, run.Rounds, run.Bound, far)
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
	if infeasible < 200 {
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
	for _, pair := range pairs {
		for _, one := range []bool{false, true} {
			p := NewPass(pair, one)
			s := p.NewStepper()
			const nv = 6
			starts := []float64{0, 0.1, 0.5, 0.9, 1, 0.3}
			k := &keys{c: p.c, srcA: make([]float64, nv)}
			for h := range nv {
				k.srcA[h] = p.Value(starts[h])
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
					t.Fatalf("ε=%v δ=%v colour %v: Less(%+v, %+v) = %v, keys.less = %v", pair.Epsilon, pair.Delta, one, x, y, got, want)
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

// The a-priori bound alone must suffice: on a long path with δ > 0 the values reach
// the top before the far end, and rounds stop at Pass.Depth, not at n.
func TestRoundsStopAtDepth(t *testing.T) {
	n := 400
	e := make([][2]int32, n-1)
	for i := range e {
		e[i] = [2]int32{int32(i), int32(i + 1)}
	}
	g := fromEdges(n, e)
	answer := make([]bool, n)
	answer[0] = true
	pair := mustDP(0.5, 1e-6)
	in, err := NewInstance(g, answer, []int32{0}, []float64{0.5}, pair)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Propagate{}.Colour(context.Background(), in, true)
	got, run, err := Rounds{ShardSize: 16}.ColourRounds(context.Background(), in, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameField(got, want); err != nil {
		t.Fatal(err)
	}
	if d := NewPass(pair, true).Depth(0.5, n-1); run.Bound != d || d >= n-1 || run.Rounds > d {
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
		p := NewPass(mustDP(c.eps, c.delta), true)
		d := p.Depth(0.5, 1e6)
		if (d < 1e6) != c.bounded {
			t.Errorf("ε=%v δ=%v: Depth(0.5) = %d, bounded want %v", c.eps, c.delta, d, c.bounded)
		}
		if c.bounded && Iterate(p.c.pair, d+1, 0.5) != 1 {
			t.Errorf("ε=%v δ=%v: U^%d(0.5) = %v, want 1", c.eps, c.delta, d+1, Iterate(p.c.pair, d+1, 0.5))
		}
		if c.bounded && Iterate(p.c.pair, d, 0.5) >= 1 {
			t.Errorf("ε=%v δ=%v: U^%d(0.5) already 1", c.eps, c.delta, d)
		}
	}
}

func TestLayout(t *testing.T) {
	for _, c := range []struct{ n, size, shards int }{{0, 4, 0}, {1, 4, 1}, {4, 4, 1}, {5, 4, 2}, {9, 1, 9}} {
		l, err := NewLayout(c.n, c.size)
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
	if _, err := NewLayout(3, 0); err == nil {
		t.Error("shard size 0 accepted")
	}
}

func BenchmarkRounds(b *testing.B) {
	for _, n := range []int{1e4, 1e5} {
		r := rand.New(rand.NewPCG(1, 2))
		in := randomInstance(r, families[6], n, mustDP(1, 0.01))
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
