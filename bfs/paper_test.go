package bfs

import (
	"context"
	"math"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/testgraph"
)

var engines = []Engine{Propagate{}, PerSource{Workers: 2}}

// Test vector 1 (docs/DESIGN.md §10.1, the paper's path example): v2 is bound by the farther v4.
func TestPaperPath(t *testing.T) {
	g := testgraph.FromEdges(4, [][2]int32{{0, 1}, {1, 2}, {2, 3}})
	answer := []bool{false, true, true, false}
	pair := testgraph.MustDP(math.Ln2, 0)
	// Pr[M(v1)=1] = 0.3 and Pr[M(v4)=1] = 0.1; both answer 0, so p_true = 0.7, 0.9.
	in, err := NewInstance(g, answer, []int32{0, 3}, []float64{0.7, 0.9}, pair)
	if err != nil {
		t.Fatal(err)
	}
	if got := pair.Iterate(3, 0.1); math.Abs(got-0.7) > 1e-12 {
		t.Errorf("U^3(0.1) = %v, paper says 0.7", got)
	}
	if got := pair.Iterate(3, 0.3); math.Abs(got-0.9) > 1e-12 {
		t.Errorf("U^3(0.3) = %v, paper says 0.9", got)
	}
	for _, eng := range engines {
		sol, err := Solve(context.Background(), in, eng, 10)
		if err != nil {
			t.Fatal(err)
		}
		if sol.Infeasible != 0 {
			t.Fatalf("%s: feasible input rejected: %+v", eng.Name(), sol.Violations)
		}
		want := []struct {
			pone       float64
			bind, dist int32
		}{{0.3, 0, 0}, {0.4, 3, 2}, {0.2, 3, 1}, {0.1, 3, 0}}
		for v, w := range want {
			pone := sol.POne[v]
			if math.Abs(pone-w.pone) > 1e-12 || sol.Bind[v] != w.bind || sol.Dist[v] != w.dist {
				t.Errorf("%s: v%d: Pr[M=1] = %v bound by v%d at %d, want %v by v%d at %d",
					eng.Name(), v+1, pone, sol.Bind[v]+1, sol.Dist[v], w.pone, w.bind+1, w.dist)
			}
		}
		a, _ := check.Verify(context.Background(), g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), pair, 0, 5)
		if a.Violations != 0 {
			t.Errorf("%s: output not dp.Pair: %+v", eng.Name(), a.First)
		}
	}
}

// Test vector 2 (docs/DESIGN.md §10.2): H = {v3} misses the boundary edge v1–v2.
func TestPaperNotHittingSet(t *testing.T) {
	g := testgraph.FromEdges(4, [][2]int32{{0, 1}, {1, 2}, {2, 3}})
	answer := []bool{false, true, true, false}
	in, _ := NewInstance(g, answer, []int32{2}, []float64{0.8}, testgraph.MustDP(math.Ln2, 0))
	hc, _ := check.Hitting(context.Background(), g, answer, in.Hit, 10)
	if hc.Uncovered != 1 || len(hc.First) != 1 || hc.First[0] != (graph.Edge{U: 0, V: 1}) || hc.Boundary != 2 {
		t.Fatalf("check = %+v, want v1–v2 of 2 boundary edges uncovered", hc)
	}
}

// Test vector 3 (docs/DESIGN.md §10.3): the balanced corollary's closed form at
// distance d from the boundary, on a path with one boundary edge in the middle (the
// threshold hypercube is pipeline/hypercube_test.go).
func TestBalancedCorollary(t *testing.T) {
	for _, pair := range testgraph.Pairs {
		e, delta := pair.E(), pair.Delta
		if e == 1 {
			continue // the formula divides by e^ε − 1
		}
		alpha := (e + delta) / (e + 1)
		want := func(d int) float64 {
			ed := math.Pow(e, float64(d))
			return min(1, 1-(e-1-delta*(e*ed+ed-2))/(ed*(e+1)*(e-1)))
		}
		// path 0..2L−1, answers flip between L−1 and L; H = {L−1, L}
		const L = 40
		var edges [][2]int32
		answer := make([]bool, 2*L)
		for i := 0; i < 2*L; i++ {
			answer[i] = i >= L
			if i > 0 {
				edges = append(edges, [2]int32{int32(i - 1), int32(i)})
			}
		}
		g := testgraph.FromEdges(2*L, edges)
		in, _ := NewInstance(g, answer, []int32{L - 1, L}, []float64{alpha, alpha}, pair)
		for _, eng := range engines {
			sol, err := Solve(context.Background(), in, eng, 10)
			if err != nil || sol.Infeasible != 0 {
				t.Fatalf("%s ε=%v δ=%v: balanced α rejected: %v %+v", eng.Name(), pair.Epsilon, delta, err, sol.Violations)
			}
			for v := 0; v < 2*L; v++ {
				d := L - 1 - v
				if v >= L {
					d = v - L
				}
				if got, w := sol.PTrue[v], want(d); math.Abs(got-w) > 1e-9 {
					t.Errorf("%s ε=%v δ=%v: d=%d: p_true %v, corollary %v", eng.Name(), pair.Epsilon, delta, d, got, w)
				}
			}
			if a, _ := check.Verify(context.Background(), g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), pair, 0, 3); a.Violations != 0 {
				t.Errorf("%s ε=%v δ=%v: output not dp.Pair: %+v", eng.Name(), pair.Epsilon, delta, a.First)
			}
		}
	}
}

func TestFigure1(t *testing.T) {
	names, g, answer := testgraph.Figure1()
	set := func(s string) []int32 {
		var h []int32
		for _, c := range s {
			h = append(h, int32(c-'a'))
		}
		return h
	}
	// all six boundary edges are uncovered by the empty set
	hc, _ := check.Hitting(context.Background(), g, answer, nil, 10)
	got := map[string]bool{}
	for _, e := range hc.First {
		got[string([]byte{names[e.U], names[e.V]})] = true
	}
	for _, b := range []string{"lq", "hn", "hi", "rs", "rt", "fu"} {
		if !got[b] {
			t.Errorf("boundary edge %s not found in %v", b, got)
		}
	}
	if hc.Uncovered != 6 || hc.Boundary != 6 {
		t.Errorf("%+v, want 6 boundary edges, all uncovered", hc)
	}
	for _, hs := range []string{"lhust", "aqnistuv"} {
		if hc, _ := check.Hitting(context.Background(), g, answer, set(hs), 10); hc.Uncovered != 0 {
			t.Errorf("{%s} should be a hitting set, %d edges uncovered", hs, hc.Uncovered)
		}
	}
	if hc, _ := check.Hitting(context.Background(), g, answer, set("alnstju"), 10); hc.Uncovered != 1 || hc.First[0] != (graph.Edge{U: 7, V: 8}) {
		t.Errorf("{a,l,n,s,t,j,u} should miss exactly h–i, got %+v", hc)
	}
	// dist(a, d) = 5: with {a} answering 1 for sure (p_one = 1) under ε = 0, δ = 0.01,
	// Pr[M = 0] may grow by 0.01 a hop, so d (answer 0) gets p_true = 0.05.
	in, _ := NewInstance(g, answer, []int32{0}, []float64{1}, testgraph.MustDP(0, 0.01))
	sol, _ := Solve(context.Background(), in, Propagate{}, 1)
	if sol.Dist[3] != 5 || math.Abs(sol.PTrue[3]-0.05) > 1e-12 {
		t.Errorf("dist(a,d) = %d (p_true %v), want 5 (0.05)", sol.Dist[3], sol.PTrue[3])
	}
}
