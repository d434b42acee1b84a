package bfs

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/graphgen"
)

// The uniform random graph of GRAPHDP_BENCH_UNIFORM vertices (10 edge rows a
// vertex, scripts/gen's "uniform" family), built in memory by graphgen's Graph
// (the streaming Builder the run uses), without Parquet: the engine at sizes where
// its random accesses leave the caches, in a fraction of a full run's time.
//
//	GRAPHDP_BENCH_UNIFORM=50000000 go test ./bfs -run '^$' -bench Uniform -benchtime 1x
var large struct {
	once  sync.Once
	in    *Instance
	build time.Duration
	err   error
}

func largeInstance(b *testing.B) *Instance {
	b.Helper()
	s := os.Getenv("GRAPHDP_BENCH_UNIFORM")
	if s == "" {
		b.Skip("GRAPHDP_BENCH_UNIFORM not set")
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		b.Fatalf("GRAPHDP_BENCH_UNIFORM: %v", err)
	}
	large.once.Do(func() {
		gen, err := graphgen.New(graphgen.Spec{Kind: "uniform", N: n, M: 10 * n, Seed: 1, Epsilon: 0.5, Delta: 1e-6})
		if err != nil {
			large.err = err
			return
		}
		t := time.Now()
		g, _, err := gen.Graph()
		if err != nil {
			large.err = err
			return
		}
		large.build = time.Since(t)
		hit, ptrue, err := gen.HittingSet()
		if err != nil {
			large.err = err
			return
		}
		answer := make([]bool, n)
		for v := range answer {
			answer[v] = gen.Answer(int64(v))
		}
		pair, err := dp.New(gen.Epsilon, gen.Delta)
		if err != nil {
			large.err = err
			return
		}
		large.in, large.err = NewInstance(g, answer, hit, ptrue, pair)
	})
	if large.err != nil {
		b.Fatal(large.err)
	}
	return large.in
}

// BenchmarkUniformPropagate times Propagate's two passes, run as Solve runs them
// (in parallel), on the large uniform graph; the build's time (generation
// included) is reported once as build-s.
func BenchmarkUniformPropagate(b *testing.B) {
	in := largeInstance(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := passes(ctx, in, Propagate{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(in.G.M())*2*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
	b.ReportMetric(large.build.Seconds(), "build-s")
}
