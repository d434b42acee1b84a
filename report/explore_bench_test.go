package report

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"testing"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/graphgen"
)

// largeInput is a uniform random graph of n datasets and 10·n edge rows with its
// optimal mechanism (graphgen's hitting set at the balanced α), as run computes it.
func largeInput(b testing.TB, n int64) Input {
	b.Helper()
	gen, err := graphgen.New(graphgen.Spec{Kind: "uniform", N: n, M: 10 * n, Seed: 1, Epsilon: 0.5, Delta: 1e-6})
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
	sol, err := bfs.Solve(context.Background(), &bfs.Instance{G: g, Answer: answer, Hit: hit, PTrue: ptrue, Pair: pair}, bfs.Propagate{}, 2)
	if err != nil {
		b.Fatal(err)
	}
	inHit := make([]bool, g.N())
	for _, h := range hit {
		inHit[h] = true
	}
	return Input{Graph: g, Answer: answer, POne: sol.POne, Distance: sol.Dist, Binding: sol.Bind, InHit: inHit, Pair: pair,
		List: 10, ID: func(v int32) string { return strconv.Itoa(int(v)) }}
}

// Writing the page of a graph too large to draw whole: encoding the neighbourhood
// view's data (ids, the graph's gaps, gzip, base64) and the template. The page's
// size is reported as MB/op.
//
//	go test ./report -run '^$' -bench HTMLLarge -benchtime 3x
func BenchmarkHTMLLarge(b *testing.B) {
	for _, n := range []int64{100_000, 1_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := mustCompute(b, largeInput(b, n))
			b.ReportAllocs()
			var size int64
			for b.Loop() {
				var c countWriter
				if err := r.HTML(&c); err != nil {
					b.Fatal(err)
				}
				size = c.n
			}
			b.ReportMetric(float64(size)/1e6, "MB/page")
		})
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)
