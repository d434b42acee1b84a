package graph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// BenchmarkBuild times the CSR build alone on uniform random rows (10 per vertex),
// at 10^6 vertices and, with GRAPHDP_BENCH_LARGE=1, 10^7:
//
//	go test ./graph -run '^$' -bench Build -benchmem
//	GRAPHDP_BENCH_LARGE=1 go test ./graph -run '^$' -bench 'Build/n=10000000' -benchtime 3x
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

// BenchmarkBuilder times the streaming Builder's pass over uniform random rows
// (10 per vertex) generated in chunks of 2^20, never all held, on
// GRAPHDP_BENCH_UNIFORM vertices: add-s is the pass (the generation plus Add's
// writes), finish-s putting the chunks in order and building the lists.
//
//	GRAPHDP_BENCH_UNIFORM=100000000 go test ./graph -run '^$' -bench Builder -benchtime 1x
func BenchmarkBuilder(b *testing.B) {
	s := os.Getenv("GRAPHDP_BENCH_UNIFORM")
	if s == "" {
		b.Skip("GRAPHDP_BENCH_UNIFORM not set")
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		b.Fatal(err)
	}
	const chunk = 1 << 20
	rows := 10 * n
	src, dst := make([]int32, chunk), make([]int32, chunk)
	each := func(fn func(src, dst []int32) error) error {
		for lo := 0; lo < rows; lo += chunk {
			r := rand.New(rand.NewPCG(1, uint64(lo)))
			k := min(chunk, rows-lo)
			for i := range k {
				x := r.Uint64()
				src[i], dst[i] = int32((x>>32)*uint64(n)>>32), int32((x&0xffffffff)*uint64(n)>>32)
			}
			if err := fn(src[:k], dst[:k]); err != nil {
				return err
			}
		}
		return nil
	}
	var add, finish time.Duration
	for b.Loop() {
		t0 := time.Now()
		bld := NewBuilder(n, int64(rows), 1)
		if err := each(bld.Add); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, _, err := bld.Finish(context.Background(), 0); err != nil {
			b.Fatal(err)
		}
		add, finish = add+t1.Sub(t0), finish+time.Since(t1)
	}
	k := float64(b.N)
	b.ReportMetric(add.Seconds()/k, "add-s")
	b.ReportMetric(finish.Seconds()/k, "finish-s")
}
