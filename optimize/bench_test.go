package optimize

import (
	"context"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/graphgen"
)

// genProblem builds a graphgen instance in memory with uniform weights, or, when
// skew > 0, answer-1 datasets weighing skew times the others.
func genProblem(tb testing.TB, spec graphgen.Spec, skew float64) *Problem {
	tb.Helper()
	gen, err := graphgen.New(spec)
	if err != nil {
		tb.Fatal(err)
	}
	var src, dst []int32
	if err := gen.Edges(func(s, d []int32) error {
		src, dst = append(src, s...), append(dst, d...)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	n := int(gen.N())
	g, _ := graph.Build(n, src, dst)
	answer := make([]bool, n)
	weight := make([]float64, n)
	for v := range answer {
		answer[v] = gen.Answer(int64(v))
		weight[v] = 1
		if skew > 0 && answer[v] {
			weight[v] = skew
		}
	}
	pair, err := dp.New(spec.Epsilon, spec.Delta)
	if err != nil {
		tb.Fatal(err)
	}
	return &Problem{G: g, Answer: answer, Weight: weight, Pair: pair}
}

// benchmarkOptimize runs Optimize to a relative gap and reports the certified
// relative gap, the iterations and the utility gained over the balanced α.
func benchmarkOptimize(b *testing.B, spec graphgen.Spec, skew, gap float64) {
	p := genProblem(b, spec, skew)
	b.ReportAllocs()
	b.ResetTimer()
	var res *Result
	for b.Loop() {
		var err error
		if res, err = Optimize(context.Background(), p, Options{Gap: gap, Explicit: lowered}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(res.Gap/res.Utility, "relgap")
	b.ReportMetric(float64(res.Iterations), "iterations")
	b.ReportMetric((res.Utility-res.Balanced)/res.Balanced, "gain")
	if !res.Converged {
		b.Errorf("gap %g not reached: %g", gap, res.Gap/res.Utility)
	}
}

// The targets: hypercube n = 16 to 1e-5 in ≤ 2 minutes (uniform and skewed
// weights), uniform random 1M datasets / 10M edges to 1e-3 in ≤ 10 minutes.
func BenchmarkOptimizeHypercube16Uniform(b *testing.B) {
	benchmarkOptimize(b, graphgen.Spec{Kind: "hypercube", Dim: 16, Epsilon: 0.5, Delta: 1e-6}, 0, 1e-5)
}

func BenchmarkOptimizeHypercube16Skewed(b *testing.B) {
	benchmarkOptimize(b, graphgen.Spec{Kind: "hypercube", Dim: 16, Epsilon: 0.5, Delta: 1e-6}, 5, 1e-5)
}

func BenchmarkOptimizeUniform100k(b *testing.B) {
	benchmarkOptimize(b, graphgen.Spec{Kind: "uniform", N: 100_000, M: 1_000_000, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, 0, 1e-3)
}

func BenchmarkOptimizeUniform1M(b *testing.B) {
	benchmarkOptimize(b, graphgen.Spec{Kind: "uniform", N: 1_000_000, M: 10_000_000, Seed: 1, Epsilon: 0.5, Delta: 1e-6}, 0, 1e-3)
}

// The cohort graph of a dataset sacrificed for nothing (defaultfloor_test.go's
// cohorts: gates of answer 0 each joined to a clique of answer-1 datasets, and a
// long answer-0 path) at 50,000 and 200,000 datasets, ε = 1, δ = 1e-7, under each
// objective with the default floor and with the floors lowered (where the optimum
// sacrifices the gates):
//
//	go test ./optimize -run '^$' -bench Cohorts -benchtime 3x
func BenchmarkOptimizeCohorts(b *testing.B) {
	for _, c := range []struct {
		name          string
		k, size, path int
	}{{"50k-clique5", 400, 5, 47_600}, {"50k-clique10", 2_000, 10, 28_000}, {"200k-clique10", 8_000, 10, 112_000}} {
		p := cohorts(b, c.k, c.size, c.path, 1, 1e-7)
		for _, obj := range Objectives {
			for _, low := range []bool{false, true} {
				opt := Options{Objective: obj}
				name := c.name + "/" + string(obj)
				if low {
					opt.Explicit, name = lowered, name+"-lowered"
				}
				b.Run(name, func(b *testing.B) {
					var res *Result
					for b.Loop() {
						var err error
						if res, err = Optimize(context.Background(), p, opt); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(res.Gap/res.Utility, "relgap")
					b.ReportMetric(float64(res.Iterations), "iterations")
					b.ReportMetric((res.Utility-res.Balanced)/res.Balanced, "gain")
					if !res.Converged {
						b.Errorf("%s: not certified to the default gap (%g, method %s)", name, res.Gap/res.Utility, res.Method)
					}
				})
			}
		}
	}
}
