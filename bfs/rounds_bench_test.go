package bfs

import (
	"context"
	"os"
	"strconv"
	"testing"
)

// BenchmarkUniformRounds is BenchmarkUniformPropagate for the rounds engine (the
// shard kernel Beam runs, on one machine), on the same large uniform graph:
//
//	GRAPHDP_BENCH_UNIFORM=1000000 go test ./bfs -run '^$' -bench 'Uniform(Rounds|Propagate)' -benchtime 3x -benchmem
func BenchmarkUniformRounds(b *testing.B) {
	in := largeInstance(b)
	ctx := context.Background()
	eng := Rounds{}
	if s := os.Getenv("GRAPHDP_BENCH_SHARD"); s != "" {
		eng.ShardSize, _ = strconv.Atoi(s)
	}
	for b.Loop() {
		if _, err := passes(ctx, in, eng); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(in.G.M())*2*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
}
