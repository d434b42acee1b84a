package bfs

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/graphdp/graphdp/graph"
	bigoracle "github.com/graphdp/graphdp/internal/oracle"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// The certified-arithmetic guarantees (doc.go, invariant 4) against an
// independent oracle (internal/oracle: math/big at 2400 bits, Algorithm 1 with no
// rounding between steps), over ε from 1e-6 to 700 and δ from 0 to 1 − 1e-9.

var oracleParams = func() [][2]float64 {
	var out [][2]float64
	for _, eps := range []float64{1e-6, 1e-3, 0.1, math.Nextafter(math.Ln2, 1), 1, 5, 20, 50, 300, 700} {
		for _, delta := range []float64{0, 1e-9, 1e-3, 0.3, 0.9, 1 - 1e-9} {
			out = append(out, [2]float64{eps, delta})
		}
	}
	return out
}()

// oracleCount is how many instances the oracle tests generate: 2000, 150 with -short
// (both scaled by GRAPHDP_TEST_SCALE), or exactly GRAPHDP_ORACLE_INSTANCES.
func oracleCount() int {
	if s := os.Getenv("GRAPHDP_ORACLE_INSTANCES"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	return testgraph.Instances(2000, 150)
}

// oracleInstance draws a graph, answers and a boundary-hitting set with values that
// are strictly feasible (p_true strictly inside (1 − α, α)), exactly on the edge (the
// balanced α, rounded down), or taken from an exactly-DP random mechanism.
func oracleInstance(r *rand.Rand, k int) (*Instance, string) {
	f := testgraph.Families[k%len(testgraph.Families)]
	prm := oracleParams[(k/len(testgraph.Families))%len(oracleParams)]
	pair := testgraph.MustDP(prm[0], prm[1])
	in := randomInstance(r, f, 1+r.IntN(30), pair)
	alpha := pair.Balanced()
	kind := "gibbs"
	switch r.IntN(3) {
	case 0:
		kind = "strict"
		for i := range in.PTrue {
			in.PTrue[i] = (1 - alpha) + (2*alpha-1)*(0.05+0.9*r.Float64())
		}
	case 1:
		kind = "balanced"
	default:
		// The restriction of an exactly-DP random mechanism. A hitting-set value is
		// given as p_true; for an answer-0 vertex p_one = 1 − p_true, which rounds unless
		// p_one ≥ 1/2 or so, and at large ε an ulp there is amplified past the
		// tolerance: use the mechanism only where its values survive the round trip.
		pone := make([]float64, in.G.N())
		for v := range pone {
			pone[v] = 0.5
		}
		testgraph.GibbsSteps(r, in.G, pair, pone, nil, 20*in.G.N(), r.IntN(2) == 0)
		for i, h := range in.Hit {
			x := pone[h]
			in.PTrue[i] = x
			if !in.Answer[h] {
				in.PTrue[i] = 1 - x
				if 1-(1-x) != x {
					kind = "balanced"
				}
			}
		}
	}
	if kind == "balanced" {
		for i := range in.PTrue {
			in.PTrue[i] = alpha
		}
	}
	return in, fmt.Sprintf("#%d %s %s n=%d ε=%v δ=%v", k, f.Name, kind, in.G.N(), prm[0], prm[1])
}

func adjacency(g *graph.Graph) [][]int32 {
	adj := make([][]int32, g.N())
	for v := range adj {
		adj[v] = g.Adj[g.Off[v]:g.Off[v+1]]
	}
	return adj
}

func TestEnginesAgainstExactOracle(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(2026, 11))
	engines := []Engine{Propagate{}, PerSource{Workers: 2}, Rounds{Workers: 2}}
	for k := range oracleCount() {
		in, name := oracleInstance(r, k)
		dp := in.Pair
		op := bigoracle.Pair{Epsilon: dp.Epsilon, Delta: dp.Delta}
		var first *Solution
		for _, eng := range engines {
			sol, err := Solve(ctx, in, eng, 3)
			if err != nil {
				t.Fatalf("%s %s: %v", name, eng.Name(), err)
			}
			if sol.Infeasible > 0 {
				t.Fatalf("%s %s: feasible input rejected: %+v", name, eng.Name(), sol.Violations)
			}
			if first == nil {
				first = sol
				continue
			}
			for v := range sol.POne {
				if math.Float64bits(sol.POne[v]) != math.Float64bits(first.POne[v]) || sol.Bind[v] != first.Bind[v] || sol.Dist[v] != first.Dist[v] {
					t.Fatalf("%s: %s differs from propagate at %d", name, eng.Name(), v)
				}
			}
		}
		sol := first
		// Exact DP on every edge, decided by the oracle.
		g, av := in.G, exactValues(in, sol)
		for u := range int32(g.N()) {
			for _, v := range g.Adj[g.Off[u]:g.Off[u+1]] {
				if v > u && !oracleAllowed(op, av[u], av[v]) {
					t.Fatalf("%s: edge %d–%d (p_one %v, %v) is not exactly (ε,δ)-dp.Pair", name, u, v, sol.POne[u], sol.POne[v])
				}
			}
		}
		// Within 1e-12 of the exact optimum of the values solved (the given ones when
		// nothing was repaired), and only on the safe side: p_one rounded down for
		// answer 1 (the pass bounds Pr[M = 1]), up for answer 0.
		hp := make([]*big.Float, len(in.Hit))
		for i := range hp {
			hp[i] = realPOne(sol.Instance.HitValue(i))
		}
		want := op.OptimumReal(adjacency(g), in.Answer, in.Hit, hp)
		for v, w := range want {
			got := realPOne(av[v])
			diff, _ := new(big.Float).Sub(got, w).Float64()
			if math.Abs(diff) > 1e-12 || (in.Answer[v] && diff > 0) || (!in.Answer[v] && diff < 0) {
				t.Fatalf("%s: vertex %d (answer %v): p_one %v, exact optimum %v (diff %g)", name, v, in.Answer[v], sol.POne[v], w.Text('g', 20), diff)
			}
		}
		// Algorithm 2 agrees at a vertex.
		if g.N() > 0 {
			w := int32(r.IntN(g.N()))
			q, err := NewQuery(sol.Instance).Vertex(ctx, w)
			if err != nil || q.POne != sol.POne[w] || q.Bind != sol.Bind[w] {
				t.Fatalf("%s: query at %d: %+v (err %v), solve p_one %v bind %d", name, w, q, err, sol.POne[w], sol.Bind[w])
			}
		}
	}
}
