package check_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// BenchmarkVerify is the exact audit alone on a solved uniform random graph (10 edges
// per vertex, a random boundary-hitting set at the balanced α): the cost of deciding
// every inequality exactly, without I/O.
//
//	go test ./check -run '^$' -bench Verify -cpuprofile cpu.prof
//
// GRAPHDP_BENCH_LARGE=1 adds 10^7 vertices, where p_one (80 MB) is larger than
// the cache and every edge's read of it is a miss unless prefetched.
func BenchmarkVerify(b *testing.B) {
	sizes := []int{100_000, 1_000_000}
	if os.Getenv("GRAPHDP_BENCH_LARGE") != "" {
		sizes = append(sizes, 10_000_000)
	}
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(1, uint64(n)))
		g, answer := benchGraph(r, n, 50)
		pair := testgraph.MustDP(0.5, 1e-6)
		hit := testgraph.BoundaryHittingSet(r, g, answer)
		ptrue := make([]float64, len(hit))
		alpha := pair.Balanced()
		for i := range ptrue {
			ptrue[i] = alpha - 0.1*r.Float64()
		}
		in, err := bfs.NewInstance(g, answer, hit, ptrue, pair)
		if err != nil {
			b.Fatal(err)
		}
		sol, err := bfs.Solve(context.Background(), in, bfs.Propagate{}, 3)
		if err != nil || sol.Infeasible > 0 {
			b.Fatal(err, sol.Infeasible)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if a, _ := check.Verify(context.Background(), g, sol.POne, pair, 0, 3); a.Violations != 0 {
					b.Fatal(a)
				}
			}
		})
	}
}

// BenchmarkHitting is the boundary-hitting check alone on a uniform random graph (10
// edges per vertex, 10% of vertices answering 1, a random boundary-hitting set): one
// pass over the arcs, a random read of the far end's answer on every edge and of both
// ends' membership on every boundary edge.
//
//	go test ./check -run '^$' -bench Hitting
//
// GRAPHDP_BENCH_LARGE=1 adds 10^7 vertices, as BenchmarkVerify.
func BenchmarkHitting(b *testing.B) {
	sizes := []int{1_000_000}
	if os.Getenv("GRAPHDP_BENCH_LARGE") != "" {
		sizes = append(sizes, 10_000_000)
	}
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(2, uint64(n)))
		g, answer := benchGraph(r, n, 10)
		hit := testgraph.BoundaryHittingSet(r, g, answer)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if hc, _ := check.Hitting(context.Background(), g, answer, hit, 10); hc.Uncovered != 0 || hc.Boundary == 0 {
					b.Fatal(hc)
				}
			}
		})
	}
}

// benchGraph is a uniform random graph of n vertices and 10n edge rows, with one
// vertex in every oneIn answering 1 (at random).
func benchGraph(r *rand.Rand, n, oneIn int) (*graph.Graph, []bool) {
	src, dst := make([]int32, 10*n), make([]int32, 10*n)
	for i := range src {
		src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
	}
	g, _ := graph.Build(n, src, dst)
	answer := make([]bool, n)
	for v := range answer {
		answer[v] = r.IntN(oneIn) == 0
	}
	return g, answer
}
