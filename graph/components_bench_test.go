package graph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// BenchmarkCountComponents times the count of components (its sweeps prefetch the
// forest countAhead vertices ahead) on uniform random rows, 5 per vertex, at 10^6
// vertices and, with GRAPHDP_BENCH_LARGE=1, at 10^7 (5·10^7 rows: a forest of 40 MB,
// far larger than the cache):
//
//	GRAPHDP_BENCH_LARGE=1 go test ./graph -run '^$' -bench 'CountComponents' -benchtime 4x
func BenchmarkCountComponents(b *testing.B) {
	sizes := []int{1_000_000}
	if os.Getenv("GRAPHDP_BENCH_LARGE") != "" {
		sizes = append(sizes, 10_000_000)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 3))
			src, dst := make([]int32, 5*n), make([]int32, 5*n)
			for i := range src {
				src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
			}
			g, _ := Build(n, src, dst)
			src, dst = nil, nil
			for b.Loop() {
				if _, err := g.CountComponents(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
