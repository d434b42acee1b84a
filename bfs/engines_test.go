package bfs

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/progress"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// oracle is the definition, computed the slow way: BFS distances from every hitting-set
// vertex, then for every vertex the smallest candidate over h (instance.go's order), with the
// value iterated exactly as the engines do. Keys of value 1 bind nothing (doc.go, 2).
func oracle(in *Instance, one bool) *Field {
	n, c := in.G.N(), NewPass(in.Pair, one)
	f := newField(n, c.Top())
	key := newKeys(in, c, in.sources(c))
	for i, h := range in.Hit {
		dist := make([]int32, n)
		for v := range dist {
			dist[v] = -1
		}
		dist[h] = 0
		q := []int32{h}
		for k := 0; k < len(q); k++ {
			for _, y := range in.G.Neighbours(q[k]) {
				if dist[y] < 0 {
					dist[y] = dist[q[k]] + 1
					q = append(q, y)
				}
			}
		}
		a := c.Seed(in.HitValue(i))
		for v := int32(0); int(v) < n; v++ {
			if dist[v] < 0 {
				continue
			}
			val := a
			for k := int32(0); k < dist[v] && val < c.Top(); k++ {
				val = c.Step(val)
			}
			if val >= c.Top() && v != h {
				continue
			}
			if f.Bind[v] < 0 || key.less(val, dist[v], h, f.Value[v], f.Dist[v], f.Bind[v]) {
				f.Value[v], f.Dist[v], f.Bind[v] = val, dist[v], h
			}
		}
	}
	return f
}

func sameField(a, b *Field) error {
	for v := range a.Value {
		if math.Float64bits(a.Value[v]) != math.Float64bits(b.Value[v]) || a.Bind[v] != b.Bind[v] || a.Dist[v] != b.Dist[v] {
			return fmt.Errorf("vertex %d: (%v, bind %d, dist %d) vs (%v, bind %d, dist %d)",
				v, a.Value[v], a.Bind[v], a.Dist[v], b.Value[v], b.Bind[v], b.Dist[v])
		}
	}
	return nil
}

// forInstances runs fn on count generated instances across families, sizes and DP
// parameters (fixed seeds: reproducible); -short draws a tenth and
// GRAPHDP_TEST_SCALE scales both (testgraph.Instances).
func forInstances(t *testing.T, count int, fn func(t *testing.T, name string, r *rand.Rand, in *Instance)) {
	r := rand.New(rand.NewPCG(7, 11))
	count = testgraph.Instances(count, count/10)
	for k := 0; k < count; k++ {
		f := testgraph.Families[k%len(testgraph.Families)]
		pair := testgraph.Pairs[(k/len(testgraph.Families))%len(testgraph.Pairs)]
		n := 1 + r.IntN(40)
		in := randomInstance(r, f, n, pair)
		fn(t, fmt.Sprintf("#%d %s n=%d ε=%v δ=%v", k, f.Name, in.G.N(), pair.Epsilon, pair.Delta), r, in)
		if t.Failed() {
			return
		}
	}
}

func TestEnginesAgreeWithOracle(t *testing.T) {
	ctx := context.Background()
	forInstances(t, 3000, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		for _, c := range []bool{false, true} {
			want := oracle(in, c)
			for _, eng := range engines {
				got, err := eng.Pass(ctx, in, c)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameField(got, want); err != nil {
					t.Fatalf("%s Pass %v: %s vs oracle: %v", name, c, eng.Name(), err)
				}
			}
		}
	})
}

// Feasible instances must be accepted, and the written mechanism must pass the audit
// with zero tolerance.
func TestOutputIsDP(t *testing.T) {
	forInstances(t, 3000, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		sol, err := Solve(context.Background(), in, Propagate{}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if sol.Infeasible != 0 {
			t.Fatalf("%s: feasible instance rejected: %+v", name, sol.Violations)
		}
		a, _ := check.Verify(context.Background(), in.G, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), in.Pair, 0, 3)
		if a.Violations != 0 {
			t.Fatalf("%s: %d dp.Pair violations, first %+v", name, a.Violations, a.First)
		}
		for i, h := range in.Hit { // on H the given values, moved by at most the tolerance
			if d := in.PTrue[i] - sol.PTrue[h]; math.Abs(d) > Tolerance {
				t.Fatalf("%s: hitting-set vertex %d written as %v, given %v", name, h, sol.PTrue[h], in.PTrue[i])
			}
		}
	})
}

// Optimality: random DP extensions of the same hitting-set values (random walks inside
// the DP set, started from the optimum and from the pessimal extension) never give any
// vertex a higher p_true than the optimum.
func TestOptimumDominatesRandomExtensions(t *testing.T) {
	forInstances(t, 1500, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		sol, err := Solve(context.Background(), in, Propagate{}, 1)
		if err != nil || sol.Infeasible != 0 {
			t.Fatalf("%s: %v %+v", name, err, sol.Violations)
		}
		n := in.G.N()
		fixed := make([]bool, n)
		for _, h := range in.Hit {
			fixed[h] = true
		}
		pone := make([]float64, n)
		copy(pone, sol.POne)
		for round := 0; round < 3; round++ {
			testgraph.GibbsSteps(r, in.G, in.Pair, pone, fixed, 30*n, round == 2)
			for v := 0; v < n; v++ {
				pt := pone[v]
				if !in.Answer[v] {
					pt = 1 - pt
				}
				if pt > sol.PTrue[v]+1e-12 {
					t.Fatalf("%s: a dp.Pair extension gives vertex %d p_true %v > optimum %v", name, v, pt, sol.PTrue[v])
				}
			}
		}
	})
}

// Raising one hitting-set value past its bound by 1e-7 must be rejected by both
// engines, with the same violations; exactly at the bound it is accepted.
func TestInfeasibleDetected(t *testing.T) {
	ctx := context.Background()
	rejected := 0
	forInstances(t, 2000, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		if len(in.Hit) < 2 {
			return
		}
		base, _ := Solve(ctx, in, Propagate{}, 1)
		// Find a hitting-set vertex whose value is bounded below 1 by another one, and
		// push it just past that bound.
		i := r.IntN(len(in.Hit))
		h := in.Hit[i]
		var f [2]*Field
		for ci, c := range []bool{false, true} {
			sub := &Instance{G: in.G, Answer: in.Answer, Pair: in.Pair}
			for j := range in.Hit {
				if j != i {
					sub.Hit = append(sub.Hit, in.Hit[j])
					sub.PTrue = append(sub.PTrue, in.PTrue[j])
				}
			}
			f[ci], _ = Propagate{}.Pass(ctx, sub, c)
		}
		c := NewPass(in.Pair, in.Answer[h])
		ci := map[bool]int{false: 0, true: 1}[c.one]
		bound := f[ci].Value[h] // the largest p_true the others allow at h
		if bound >= 1-1e-6 || base.Infeasible != 0 {
			return
		}
		bad := *in
		bad.PTrue = append([]float64(nil), in.PTrue...)
		bad.PTrue[i] = bound + 1e-7
		var prev *Solution
		for _, eng := range engines {
			sol, err := Solve(ctx, &bad, eng, 100)
			if err != nil {
				t.Fatal(err)
			}
			if sol.Infeasible == 0 {
				t.Fatalf("%s: %s accepted p_true %v above the bound %v", name, eng.Name(), bad.PTrue[i], bound)
			}
			if prev != nil && fmt.Sprint(prev.Violations) != fmt.Sprint(sol.Violations) {
				t.Fatalf("%s: engines disagree on violations:\n%+v\n%+v", name, prev.Violations, sol.Violations)
			}
			prev = sol
		}
		rejected++
		bad.PTrue[i] = bound
		if sol, _ := Solve(ctx, &bad, Propagate{}, 1); sol.Infeasible != 0 {
			t.Fatalf("%s: value exactly on the bound rejected: %+v", name, sol.Violations)
		}
	})
	if rejected < 100 {
		t.Fatalf("only %d instances exercised rejection", rejected)
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	forInstances(t, 300, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		for _, c := range []bool{false, true} {
			a, _ := PerSource{Workers: 1}.Pass(context.Background(), in, c)
			b, _ := PerSource{Workers: 3}.Pass(context.Background(), in, c)
			if err := sameField(a, b); err != nil {
				t.Fatalf("%s: 1 vs 3 workers: %v", name, err)
			}
		}
	})
}

func TestCancelled(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	in := randomInstance(r, testgraph.Families[0], 200000, testgraph.MustDP(1e-3, 0))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, eng := range engines {
		if _, err := Solve(ctx, in, eng, 1); err == nil {
			t.Errorf("%s ignored a cancelled context", eng.Name())
		}
	}
}

// The engines count in their context's progress counter the vertices their passes have finished, never more
// than both passes' 2n; the rounds engine, whose vertices are final only when its
// rounds end, counts all 2n then (the pipeline's progress display reads it).
func TestEnginesCountProgress(t *testing.T) {
	in := randomInstance(rand.New(rand.NewPCG(5, 6)), testgraph.Families[0], 40, testgraph.Pairs[0])
	for _, eng := range []Engine{Propagate{}, PerSource{Workers: 2}, Rounds{ShardSize: 3, Workers: 2}} {
		var c progress.Counter
		if _, err := Solve(progress.With(context.Background(), &c), in, eng, 3); err != nil {
			t.Fatal(err)
		}
		got, n := c.Done.Load(), int64(in.G.N())
		if _, rounds := eng.(Rounds); got > 2*n || rounds && got != 2*n {
			t.Errorf("%s counted %d vertices settled of 2·%d", eng.Name(), got, n)
		}
	}
}
