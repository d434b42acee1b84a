package bfs

import (
	"context"
	"testing"

	"github.com/graphdp/graphdp/internal/testgraph"
)

// BenchmarkNewCut builds every shard's cut of the large uniform graph (default
// shards) on one scratch, as one of the rounds engine's workers does its share:
//
//	GRAPHDP_BENCH_UNIFORM=1000000 go test ./bfs -run '^$' -bench NewCut -benchtime 8x
func BenchmarkNewCut(b *testing.B) {
	in := largeInstance(b)
	l, err := Rounds{}.layout(in.G.N())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var cs cutScratch
		for s := range int32(l.Shards()) {
			if _, err := cs.cut(l, in.G.ShardOf(l, s), true); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRoundsPath is one pass of the rounds engine on one worker over a path of
// 2·10^6 vertices with δ = 0 (no value reaches the top: 489 rounds of one offer each),
// where the floor's marking, a read of every value, must not run every round:
//
//	go test ./bfs -run '^$' -bench RoundsPath -benchtime 5x
func BenchmarkRoundsPath(b *testing.B) {
	const n = 2_000_000
	e := make([][2]int32, n-1)
	for i := range e {
		e[i] = [2]int32{int32(i), int32(i + 1)}
	}
	in, err := NewInstance(testgraph.FromEdges(n, e), make([]bool, n), []int32{0}, []float64{0.6}, testgraph.MustDP(0.5, 0))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := (Rounds{Workers: 1}).Pass(context.Background(), in, true); err != nil {
			b.Fatal(err)
		}
	}
}
