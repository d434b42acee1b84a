package main

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"
)

// gatherTable prints how long one bare random sweep over m arcs of an n-vertex
// graph takes on this machine: for every arc, load the float64 of its head
// (x[adj[i]], adj uniform random, x warm and touched), on every core. The run's
// audit makes at least this one random load an arc (the far end's p_one), and so does
// the count of components (its union-find array), so it is a floor under each of
// them on this machine; sweeps that read a cache-resident bitmap instead can go
// below it (docs/PERFORMANCE.md, "What the targets would take").
func gatherTable(n, m int64, reps int) {
	adj := make([]int32, m)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range adj {
		adj[i] = int32(r.Int64N(n))
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i)
	}
	w := runtime.GOMAXPROCS(0)
	fmt.Printf("| vertices | arcs | cores | one random sweep, s (best of %d) | ns an arc a core |\n|---|---|---|---|---|\n", reps)
	for _, cores := range []int{1, w} {
		best := 0.0
		for range reps {
			s := gather(x, adj, cores)
			if best == 0 || s < best {
				best = s
			}
		}
		fmt.Printf("| %d | %d | %d | %.3f | %.2f |\n", n, m, cores, best, best*1e9*float64(cores)/float64(m))
	}
}

// gathered keeps the sums alive, so the compiler cannot drop the loads.
var gathered float64

// gather sums x[adj[i]] over adj on w goroutines and returns the seconds it took.
func gather(x []float64, adj []int32, w int) float64 {
	start := time.Now()
	sums := make([]float64, w)
	var wg sync.WaitGroup
	per := (len(adj) + w - 1) / w
	for k := range w {
		part := adj[min(k*per, len(adj)):min((k+1)*per, len(adj))]
		wg.Go(func() {
			s := 0.0
			for _, v := range part {
				s += x[v]
			}
			sums[k] = s
		})
	}
	wg.Wait()
	for _, s := range sums {
		gathered += s
	}
	return time.Since(start).Seconds()
}
