package graph

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// BenchmarkBuild times the CSR build alone on uniform random rows (10 per vertex),
// at 10^6 vertices and, with GRAPHDP_BENCH_LARGE=1, 10^7:
//
//	go test ./bfs -run '^$' -bench Build -benchmem
//	GRAPHDP_BENCH_LARGE=1 go test ./bfs -run '^$' -bench 'Build/n=10000000' -benchtime 3x
func BenchmarkBuild(b *testing.B) {
	sizes := []int{1_000_000}
	if os.Getenv("GRAPHDP_BENCH_LARGE") != "" {
		sizes = append(sizes, 10_000_000)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			src, dst := make([]int32, 10*n), make([]int32, 10*n)
			for i := range src {
				src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
			}
			b.ReportAllocs()
			for b.Loop() {
				Build(n, src, dst)
			}
			b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}
