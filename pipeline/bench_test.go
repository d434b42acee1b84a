package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/graphgen"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/sink"
)

// Per-phase benchmarks on uniform random graphs with 10 edge rows per vertex
// (graphgen, ε = 0.5, δ = 1e-6): 10^5 and 10^6 vertices, and 10^7 when
// GRAPHDP_BENCH_LARGE=1 (its input files take ~2 GB and a minute to make).
//
//	go test ./pipeline -run '^$' -bench . -benchmem
//	GRAPHDP_BENCH_LARGE=1 go test ./pipeline -run '^$' -bench 'Phase/.*/n=10000000' -benchtime 3x -timeout 60m

func benchSizes() []int64 {
	s := []int64{100_000, 1_000_000}
	if os.Getenv("GRAPHDP_BENCH_LARGE") != "" {
		s = append(s, 10_000_000)
	}
	return s
}

// benchJob is one size's input files and its loaded, solved state, made on
// first use (never at init, never in tests).
type benchJob struct {
	job  job.Job
	l    *load.Loaded
	g    *graph.Graph
	in   *bfs.Instance
	sol  *bfs.Solution
	err  error
	once sync.Once
}

var (
	benchMu   sync.Mutex
	benchJobs = map[int64]*benchJob{}
	benchDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func getBenchJob(b *testing.B, n int64) *benchJob {
	b.Helper()
	benchMu.Lock()
	j, ok := benchJobs[n]
	if !ok {
		j = &benchJob{}
		benchJobs[n] = j
	}
	if benchDir == "" {
		var err error
		if benchDir, err = os.MkdirTemp("", "graphdp-bench-"); err != nil {
			b.Fatal(err)
		}
	}
	dir := filepath.Join(benchDir, fmt.Sprint(n))
	benchMu.Unlock()
	j.once.Do(func() {
		g, err := graphgen.New(graphgen.Spec{Kind: "uniform", N: n, M: 10 * n, Seed: 1, Epsilon: 0.5, Delta: 1e-6})
		if err != nil {
			j.err = err
			return
		}
		f, err := graphgen.WriteDir(dir, g, graphgen.Options{})
		if err != nil {
			j.err = err
			return
		}
		j.job = job.DefaultJob()
		j.job.Vertices, j.job.Edges, j.job.HittingSet = filepath.Join(dir, f.Vertices), filepath.Join(dir, f.Edges), filepath.Join(dir, f.HittingSet)
		j.job.Out = filepath.Join(dir, "out.parquet")
		j.job.SetEpsilon(0.5)
		j.job.Delta = 1e-6
		ctx := context.Background()
		if j.l, j.err = load.Load(ctx, &j.job, runRequest(j.job)); j.err != nil {
			return
		}
		if j.g, _, j.err = j.l.BuildGraph(ctx, 0); j.err != nil {
			return
		}
		pair, _ := dp.New(0.5, 1e-6)
		if j.in, j.err = bfs.NewInstance(j.g, j.l.Vertices.Answer, j.l.Hit.Vertex, j.l.Hit.PTrue, pair); j.err != nil {
			return
		}
		j.sol, j.err = bfs.Solve(ctx, j.in, bfs.Propagate{}, 10)
	})
	if j.err != nil {
		b.Fatal(j.err)
	}
	return j
}

func BenchmarkPhase(b *testing.B) {
	ctx := context.Background()
	for _, n := range benchSizes() {
		b.Run(fmt.Sprintf("read/n=%d", n), func(b *testing.B) {
			j := getBenchJob(b, n)
			b.ReportAllocs()
			for b.Loop() {
				l, err := load.Load(ctx, &j.job, runRequest(j.job))
				if err != nil {
					b.Fatal(err)
				}
				l.Close()
			}
			b.ReportMetric(float64(j.l.Edges.Rows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
		b.Run(fmt.Sprintf("csr/n=%d", n), func(b *testing.B) {
			j := getBenchJob(b, n)
			b.ReportAllocs()
			// The build's Finish and the component count (the edges' pass is read's).
			for b.Loop() {
				b.StopTimer()
				l, err := load.Load(ctx, &j.job, runRequest(j.job))
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				g, _, err := l.BuildGraph(ctx, 0)
				if err != nil {
					b.Fatal(err)
				}
				g.CountComponents(context.Background())
			}
		})
		b.Run(fmt.Sprintf("propagate/n=%d", n), func(b *testing.B) {
			j := getBenchJob(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bfs.Solve(ctx, j.in, bfs.Propagate{}, 10); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(j.sol.Relaxations)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrelax/s")
		})
		b.Run(fmt.Sprintf("check+audit/n=%d", n), func(b *testing.B) {
			j := getBenchJob(b, n)
			b.ReportAllocs()
			for b.Loop() {
				check.Hitting(context.Background(), j.g, j.in.Answer, j.in.Hit, 10)
				check.Verify(context.Background(), j.g, j.sol.POne, j.in.Pair, 0, 3)
			}
		})
		b.Run(fmt.Sprintf("write/n=%d", n), func(b *testing.B) {
			j := getBenchJob(b, n)
			b.ReportAllocs()
			for b.Loop() {
				rec, err := buildRecord(nil, j.l, j.job.OutputNames(), j.sol)
				if err != nil {
					b.Fatal(err)
				}
				if err := sink.Write(ctx, j.job.Out, rec, Metadata(j.l, j.sol.Instance.Pair, "propagate", nil)); err != nil {
					b.Fatal(err)
				}
				rec.Release()
			}
		})
		b.Run(fmt.Sprintf("run/n=%d", n), func(b *testing.B) {
			j := getBenchJob(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(ctx, j.job, slog.New(slog.DiscardHandler)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRunJob runs the whole pipeline on the job file named by
// GRAPHDP_BENCH_JOB (e.g. one scripts/gen wrote), for profiling:
//
//	GRAPHDP_BENCH_JOB=bench-out/data/hypercube20/job.yaml go test ./pipeline -run '^$' -bench RunJob -benchtime 3x -cpuprofile cpu.prof
func BenchmarkRunJob(b *testing.B) {
	job := envJob(b)
	job.Out = filepath.Join(b.TempDir(), "out.parquet")
	b.ReportAllocs()
	for b.Loop() {
		s, err := Run(context.Background(), job, slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range s.Phases {
			b.ReportMetric(p.Seconds, p.Name+"-s")
		}
	}
}

// BenchmarkLoadGraph is the read and csr phases alone (Load, BuildGraph) on the job
// file named by GRAPHDP_BENCH_JOB, for profiling the pass over the edges and the build:
//
//	GRAPHDP_BENCH_JOB=bench-out/data/uniform10M/job.yaml go test ./pipeline -run '^$' -bench LoadGraph -benchtime 2x -cpuprofile cpu.prof
func BenchmarkLoadGraph(b *testing.B) {
	job := envJob(b)
	for b.Loop() {
		t := time.Now()
		l, err := load.Load(context.Background(), &job, runRequest(job))
		if err != nil {
			b.Fatal(err)
		}
		read := time.Since(t)
		g, _, err := l.BuildGraph(context.Background(), 0)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(read.Seconds(), "read-s")
		b.ReportMetric((time.Since(t) - read).Seconds(), "csr-s")
		b.ReportMetric(float64(g.M()), "edges")
	}
}

// envJob is the job file named by GRAPHDP_BENCH_JOB; the benchmark is skipped
// without one.
func envJob(b *testing.B) job.Job {
	path := os.Getenv("GRAPHDP_BENCH_JOB")
	if path == "" {
		b.Skip("GRAPHDP_BENCH_JOB not set")
	}
	j := job.DefaultJob()
	if _, err := j.LoadConfig(path); err != nil {
		b.Fatal(err)
	}
	return j
}
