package bfs

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
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

// BenchmarkUniformRoundsCPU runs Propagate's and Rounds' two passes alternately on the
// large uniform graph and reports the process CPU time (user + system, getrusage: GC
// and every goroutine included) of each a solve, and their ratio: on a shared machine
// wall times follow the load, CPU times much less. GRAPHDP_BENCH_SHARD sets Rounds'
// shard size, as in BenchmarkUniformRounds.
//
//	GRAPHDP_BENCH_UNIFORM=1000000 go test ./bfs -run '^$' -bench UniformRoundsCPU -benchtime 3x
func BenchmarkUniformRoundsCPU(b *testing.B) {
	in := largeInstance(b)
	ctx := context.Background()
	rounds := Rounds{}
	if s := os.Getenv("GRAPHDP_BENCH_SHARD"); s != "" {
		rounds.ShardSize, _ = strconv.Atoi(s)
	}
	var cpu [2]time.Duration
	for b.Loop() {
		for k, eng := range []Engine{Propagate{}, rounds} {
			t := processCPU()
			if _, err := passes(ctx, in, eng); err != nil {
				b.Fatal(err)
			}
			cpu[k] += processCPU() - t
		}
	}
	n := float64(b.N)
	b.ReportMetric(cpu[0].Seconds()/n, "propagate-cpu-s/op")
	b.ReportMetric(cpu[1].Seconds()/n, "rounds-cpu-s/op")
	b.ReportMetric(cpu[1].Seconds()/cpu[0].Seconds(), "rounds/propagate-cpu")
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
