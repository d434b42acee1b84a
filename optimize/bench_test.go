package optimize

import (
	"testing"

	"github.com/graphdp/graphdp/bfs"
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
	g, _ := bfs.BuildOwned(n, &src, &dst)
	answer := make([]bool, n)
	weight := make([]float64, n)
	for v := range answer {
		answer[v] = gen.Answer(int64(v))
		weight[v] = 1
		if skew > 0 && answer[v] {
			weight[v] = skew
		}
	}
	pair, err := bfs.NewDP(spec.Epsilon, spec.Delta)
	if err != nil {
		tb.Fatal(err)
	}
	return &Problem{G: g, Answer: answer, Weight: weight, Pair: pair}
}
