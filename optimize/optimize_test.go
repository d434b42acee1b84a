package optimize

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/graphgen"
	"github.com/graphdp/graphdp/internal/words"
)

// instance is a small random problem with its exact data for exactLP.
type instance struct {
	p       *Problem
	edges   [][2]int32
	e, dlt  *big.Rat
	weights []*big.Rat
}

// rationals for e^ε (ε = ln of it) and δ: exact in both solvers up to the rounding
// of ln and of δ, far below the 1e-9 compared.
var (
	testE     = [][2]int64{{1, 1}, {11, 10}, {5, 4}, {3, 2}, {2, 1}, {3, 1}}
	testDelta = [][2]int64{{0, 1}, {1, 1000}, {1, 100}, {1, 10}}
)

func randomInstance(t testing.TB, r *rand.Rand, n int) instance {
	t.Helper()
	var edges [][2]int32
	density := 0.15 + 0.5*r.Float64()
	for u := range n {
		for v := u + 1; v < n; v++ {
			if r.Float64() < density*3/float64(n) || v == u+1 && r.Float64() < 0.7 {
				edges = append(edges, [2]int32{int32(u), int32(v)})
			}
		}
	}
	answer := make([]bool, n)
	frac := r.Float64()
	for v := range answer {
		answer[v] = r.Float64() < frac
	}
	weights := make([]*big.Rat, n)
	wf := make([]float64, n)
	skew := r.IntN(3)
	for v := range n {
		var w int64
		switch skew {
		case 0:
			w = 1
		case 1:
			w = r.Int64N(10)
		default:
			w = 1 + r.Int64N(3)
			if answer[v] {
				w *= 20
			}
		}
		weights[v], wf[v] = big.NewRat(w, 1), float64(w)
	}
	E := testE[r.IntN(len(testE))]
	D := testDelta[r.IntN(len(testDelta))]
	eps := math.Log(float64(E[0]) / float64(E[1]))
	delta := float64(D[0]) / float64(D[1])
	pair, err := dp.New(eps, delta)
	if err != nil {
		t.Fatal(err)
	}
	src, dst := make([]int32, len(edges)), make([]int32, len(edges))
	for i, e := range edges {
		src[i], dst[i] = e[0], e[1]
	}
	g, _ := graph.Build(n, src, dst)
	return instance{p: &Problem{G: g, Answer: answer, Weight: wf, Pair: pair}, edges: edges,
		e: big.NewRat(E[0], E[1]), dlt: big.NewRat(D[0], D[1]), weights: weights}
}

func ratFloat(x *big.Rat) float64 { f, _ := x.Float64(); return f }

// TestOptimumMatchesExactLP: on hundreds of random small instances the optimised
// mechanism's utility equals the exact LP optimum (exactLP, an independent rational
// simplex) within 1e-9 of the total weight; the certified bounds enclose it; the
// mechanism passes the exact DP audit; and solving its written hitting-set values
// again gives the same mechanism bit for bit (what `graphdp run` does).
func TestOptimumMatchesExactLP(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	count := 300
	if testing.Short() {
		count = 60
	}
	for i := range count {
		n := 2 + r.IntN(11)
		in := randomInstance(t, r, n)
		exact, _ := newExactLP(n, in.edges, in.p.Answer, in.weights, in.e, in.dlt).solve()
		opt := ratFloat(exact)
		res, err := Optimize(context.Background(), in.p, Options{Gap: 1e-11, Explicit: lowered})
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		scale := max(1, res.TotalWeight)
		if math.Abs(res.Utility-opt) > 1e-9*scale {
			t.Errorf("instance %d (n=%d, e=%v, δ=%v): utility %.15g, exact optimum %.15g (method %s, gap %g, iterations %d)",
				i, n, in.e, in.dlt, res.Utility, opt, res.Method, res.Gap, res.Iterations)
		}
		if res.Upper < opt-1e-12*scale || res.Utility > opt+1e-12*scale {
			t.Errorf("instance %d: certified [%.17g, %.17g] does not enclose the exact optimum %.17g", i, res.Utility, res.Upper, opt)
		}
		checkMechanism(t, in.p, res)
	}
}

// checkMechanism: exactly DP, and re-solving the written values reproduces it.
func checkMechanism(t *testing.T, p *Problem, res *Result) {
	t.Helper()
	if a, _ := check.Verify(context.Background(), p.G, dp.ExactValues(p.Answer, res.Solution.POne, res.Solution.PTrue), p.Pair, 0, 1); a.Violations > 0 {
		t.Fatalf("mechanism fails the DP audit: %+v", a.First[0])
	}
	in, err := bfs.NewInstance(p.G, p.Answer, res.Hit, res.PTrue, p.Pair)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := bfs.Solve(context.Background(), in, bfs.Propagate{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if sol.Infeasible > 0 || sol.Repairs > 0 {
		t.Fatalf("written values: %d infeasible, %d repairs", sol.Infeasible, sol.Repairs)
	}
	if !slices.Equal(sol.POne, res.Solution.POne) || !slices.Equal(sol.PTrue, res.Solution.PTrue) {
		t.Fatalf("re-solving the written hitting set changes the mechanism")
	}
	if got := certifiedUtility(p, sol.POne); got != res.Utility {
		t.Fatalf("utility of the re-solved mechanism %v, reported %v", got, res.Utility)
	}
}

// TestGeneratedGraphsCertified: graphdp's generated families (internal/graphgen) up
// to 200 datasets, random ε, δ and weightings. The certificate itself proves the
// utility within 1e-9 of the exact LP optimum (Utility ≤ OPT ≤ Upper, doc.go
// invariant 1, checked against exactLP on the small instances above); the
// mechanism passes the exact audit and re-solves bit for bit.
func TestGeneratedGraphsCertified(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2))
	count := 200
	if testing.Short() {
		count = 30
	}
	for i := range count {
		kind := graphgen.Kinds[r.IntN(4)] // uniform, rmat, grid, hypercube
		n := int64(20 + r.IntN(181))
		spec := graphgen.Spec{Kind: kind, N: n, M: n * int64(1+r.IntN(4)), Dim: 3 + r.IntN(5), Seed: r.Uint64(),
			Frac: 0.1 + 0.8*r.Float64(), Epsilon: []float64{0.05, 0.3, 0.5, 1, 2}[r.IntN(5)], Delta: []float64{0, 1e-6, 1e-3, 0.05}[r.IntN(4)]}
		p := genProblem(t, spec, []float64{0, 3, 0.2}[r.IntN(3)])
		if r.IntN(2) == 0 { // random weights, some zero
			for v := range p.Weight {
				p.Weight[v] = float64(r.IntN(5))
			}
		}
		res, err := Optimize(context.Background(), p, Options{Gap: 1e-10, MaxIterations: 1 << 17, Explicit: lowered})
		if err != nil {
			t.Fatalf("instance %d (%+v): %v", i, spec, err)
		}
		if res.Gap > 1e-9*max(1, res.TotalWeight) {
			t.Errorf("instance %d (%s, n=%d, ε=%v, δ=%v): certified gap %g (utility %v, upper %v, %d iterations)",
				i, kind, p.G.N(), spec.Epsilon, spec.Delta, res.Gap, res.Utility, res.Upper, res.Iterations)
		}
		if res.Utility < res.Balanced || res.Utility < res.Homogeneous.Utility {
			t.Errorf("instance %d: utility %v below a candidate (balanced %v, homogeneous %v)", i, res.Utility, res.Balanced, res.Homogeneous.Utility)
		}
		checkMechanism(t, p, res)
	}
}

// lowered is Options.Explicit for both answers: the floors as given, 0 none, so
// that the tests against the exact LP solve the LP of every DP mechanism (the
// default floor, randomized response's α, would narrow it).
var lowered = [2]bool{true, true}

// The reverse arcs do not depend on how their pass is split: for every split into
// 1 to 7 ranges, rev[q] of arc u→v is v's arc to u (the whole list searched), and
// the answer pairs seen are those of the arcs.
func TestReverseSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 43))
	for trial := range 30 {
		spec := graphgen.Spec{Kind: "uniform", N: 50 + r.Int64N(400), Seed: uint64(trial), Frac: 0.3, Epsilon: 1, Delta: 1e-3}
		spec.M = spec.N * (1 + r.Int64N(8))
		p := genProblem(t, spec, 1)
		g := p.G
		var arcs [2][2]bool
		for u := range int32(g.N()) {
			for _, v := range g.Neighbours(u) {
				arcs[words.Bit(p.Answer[u])][words.Bit(p.Answer[v])] = true
			}
		}
		for k := 1; k <= 7; k++ {
			m := &lp{g: g, ans: p.Answer, rev: make([]uint32, len(g.Adj))}
			if err := m.reverse(context.Background(), k); err != nil {
				t.Fatal(err)
			}
			for u := range int32(g.N()) {
				for q := g.Off[u]; q < g.Off[u+1]; q++ {
					v := g.Adj[q]
					at, ok := slices.BinarySearch(g.Neighbours(v), u)
					if want := uint32(g.Off[v]) + uint32(at); !ok || m.rev[q] != want {
						t.Fatalf("trial %d, %d ranges: rev of arc %d→%d is %d, want %d", trial, k, u, v, m.rev[q], want)
					}
				}
			}
			if m.arcs != arcs {
				t.Fatalf("trial %d, %d ranges: answer pairs %v, want %v", trial, k, m.arcs, arcs)
			}
		}
	}
}
