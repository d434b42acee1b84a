package bfs

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
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

// BenchmarkGenSolve times Solve with Propagate on a scripts/gen graph in memory,
// named by GRAPHDP_BENCH_GEN as scripts/gen's flags would (kind, n, m, dim, hit,
// epsilon; ε = 0.5, δ = 1e-6 unless given), e.g.
//
//	GRAPHDP_BENCH_GEN=kind=hypercube,dim=20 go test ./bfs -run '^$' -bench GenSolve -benchtime 5x
//	GRAPHDP_BENCH_GEN=kind=path,n=1000000,hit=100000,epsilon=0.001 go test ./bfs -run '^$' -bench GenSolve
func BenchmarkGenSolve(b *testing.B) {
	s := os.Getenv("GRAPHDP_BENCH_GEN")
	if s == "" {
		b.Skip("GRAPHDP_BENCH_GEN not set")
	}
	spec := graphgen.Spec{Epsilon: 0.5, Delta: 1e-6, Seed: 1, Frac: 0.1}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		x, _ := strconv.ParseFloat(v, 64)
		switch k {
		case "kind":
			spec.Kind = v
		case "n":
			spec.N = int64(x)
		case "m":
			spec.M = int64(x)
		case "dim":
			spec.Dim = int(x)
		case "hit":
			spec.Hit = int64(x)
		case "epsilon":
			spec.Epsilon = x
		default:
			b.Fatalf("GRAPHDP_BENCH_GEN: unknown key %q", k)
		}
	}
	if spec.M == 0 {
		spec.M = 10 * spec.N
	}
	g, answer, hit, ptrue, pair := generated(b, spec)
	in, err := NewInstance(g, answer, hit, ptrue, pair)
	if err != nil {
		b.Fatal(err)
	}
	var sources, pass time.Duration
	for b.Loop() {
		t := time.Now()
		in.sources(NewPass(pair, true))
		sources += time.Since(t)
		t = time.Now()
		if _, err := passes(context.Background(), in, Propagate{}); err != nil {
			b.Fatal(err)
		}
		pass += time.Since(t)
		if _, err := Solve(context.Background(), in, Propagate{}, 3); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(sources.Seconds()/float64(b.N), "sources-s")
	b.ReportMetric(pass.Seconds()/float64(b.N), "passes-s")
}

// generated is spec's graph with its answers, hitting set and (ε,δ) pair.
func generated(b testing.TB, spec graphgen.Spec) (*graph.Graph, []bool, []int32, []float64, dp.Pair) {
	b.Helper()
	gen, err := graphgen.New(spec)
	if err != nil {
		b.Fatal(err)
	}
	g, _, err := gen.Graph()
	if err != nil {
		b.Fatal(err)
	}
	hit, ptrue, err := gen.HittingSet()
	if err != nil {
		b.Fatal(err)
	}
	answer := make([]bool, g.N())
	for v := range answer {
		answer[v] = gen.Answer(int64(v))
	}
	pair, err := dp.New(gen.Epsilon, gen.Delta)
	if err != nil {
		b.Fatal(err)
	}
	return g, answer, hit, ptrue, pair
}
