package graph

import (
	"context"
	"math/rand/v2"
	"testing"
)

// The parallel count (countParallel, on 2 to 7 goroutines) is the reference count
// (Components, a BFS) on graphs of many shapes: sparse random ones below, around and
// above the giant component's threshold, isolated vertices, a path whose vertices are
// numbered at random (links race along it), a star, a graph of many small cycles, and
// a giant component with small ones beside it. The graphs span several countChunk
// chunks so that goroutines link the same sets at once.
func TestCountComponentsParallel(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 3))
	type shape struct {
		name     string
		n        int
		src, dst []int32
	}
	random := func(n, m int) shape {
		s := shape{name: "random", n: n, src: make([]int32, m), dst: make([]int32, m)}
		for i := range m {
			s.src[i], s.dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
		}
		return s
	}
	var shapes []shape
	for _, m := range []int{0, 20_000, 50_000, 60_000, 200_000} {
		shapes = append(shapes, random(100_000, m))
	}
	perm := r.Perm(70_000)
	path := shape{name: "path", n: 70_000}
	for i := 1; i < len(perm); i++ {
		path.src, path.dst = append(path.src, int32(perm[i-1])), append(path.dst, int32(perm[i]))
	}
	star := shape{name: "star", n: 50_000}
	for v := 1; v < star.n; v++ {
		star.src, star.dst = append(star.src, int32(star.n-1)), append(star.dst, int32(v-1))
	}
	cycles := shape{name: "cycles", n: 60_000}
	for v := range cycles.n {
		cycles.src, cycles.dst = append(cycles.src, int32(v)), append(cycles.dst, int32(v/6*6+(v+1)%6))
	}
	giant := random(80_000, 120_000)
	giant.name = "giant and small"
	for v := 80_000 - 3000; v < 80_000; v += 3 { // triangles beside the giant component
		giant.src = append(giant.src, int32(v), int32(v+1), int32(v+2))
		giant.dst = append(giant.dst, int32(v+1), int32(v+2), int32(v))
	}
	shapes = append(shapes, path, star, cycles, giant)
	for _, s := range shapes {
		g, _ := Build(s.n, s.src, s.dst)
		_, want := g.Components()
		for _, w := range []int{2, 3, 4, 7} {
			got, err := g.countParallel(context.Background(), w)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s (n=%d, %d edges), %d goroutines: %d components, want %d", s.name, s.n, g.M(), w, got, want)
			}
		}
	}
}

// A cancelled context stops the parallel count and is its error.
func TestCountParallelStopsOnCancel(t *testing.T) {
	g, _ := Build(100_000, []int32{0, 5}, []int32{1, 99_999})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.countParallel(ctx, 2); err != context.Canceled {
		t.Errorf("countParallel on a cancelled context: %v, want context.Canceled", err)
	}
}
