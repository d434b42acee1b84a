package check

import (
	"context"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/graphdp/graphdp/graph"
)

// Checked block by block during the build (HitBlocks as the Builder's Visit, rows
// added from several goroutines), the hitting check is Hitting's on the graph built,
// field for field: boundary and uncovered counts and the first uncovered edges in CSR
// order. Graphs of one block and of several (a few hundred thousand arcs), answers
// and sets that leave some boundary edges uncovered or none, self-loops and
// duplicate rows, a set with repeats, and limits 0, 1, 3 and unbounded.
func TestHitBlocksIsHitting(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 4))
	for trial := range 24 {
		n := 1 + r.IntN(60_000)
		if trial%3 == 0 {
			n = 1 + r.IntN(50)
		}
		m := r.IntN(6 * n)
		src, dst := make([]int32, m), make([]int32, m)
		for i := range src {
			src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
		}
		answer := make([]bool, n)
		for v := range answer {
			answer[v] = r.IntN(2) == 0
		}
		var hit []int32
		share := []int{0, 2, 10, 95}[trial%4] // percent of vertices in the set
		for v := range n {
			if r.IntN(100) < share {
				hit = append(hit, int32(v))
				if r.IntN(20) == 0 {
					hit = append(hit, int32(v)) // repeats are allowed
				}
			}
		}
		r.Shuffle(len(hit), func(i, j int) { hit[i], hit[j] = hit[j], hit[i] })
		limit := []int{0, 1, 3, 1 << 30}[r.IntN(4)]

		workers := 1 + r.IntN(3)
		b := graph.NewBuilder(n, int64(m), workers)
		hb := NewHitBlocks(answer, hit, limit, b.Blocks())
		b.Visit = hb.Visit
		var wg sync.WaitGroup
		for k := range workers {
			lo, hi := m*k/workers, m*(k+1)/workers
			wg.Go(func() {
				if err := b.Add(src[lo:hi], dst[lo:hi]); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		g, _, err := b.Finish(workers)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Hitting(context.Background(), g, answer, hit, limit)
		if err != nil {
			t.Fatal(err)
		}
		if got := hb.Result(); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (n=%d, %d rows, %d blocks, limit %d): during the build %+v, Hitting %+v",
				trial, n, m, b.Blocks(), limit, summary(got), summary(want))
		}
		if trial == 5 && b.Blocks() < 2 {
			t.Fatalf("trial %d: %d blocks, the test wants several", trial, b.Blocks())
		}
	}
}

// summary is a HitCheck without its long list.
func summary(h HitCheck) HitCheck {
	h.First = h.First[:min(len(h.First), 5)]
	return h
}

// A set naming a vertex outside the answers is not checked during the build: it
// is the engine's to reject.
func TestHitBlocksRefusesOutOfRange(t *testing.T) {
	if NewHitBlocks([]bool{true, false}, []int32{0, 2}, 3, 1) != nil {
		t.Error("a set with vertex 2 of 2 was accepted")
	}
	if NewHitBlocks([]bool{true, false}, []int32{-1}, 3, 1) != nil {
		t.Error("a set with vertex -1 was accepted")
	}
}
