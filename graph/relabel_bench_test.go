package graph

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkRelabel times the renaming's parts (invariant 6) on 10^6 vertices with 10
// uniform random rows each (the cost bfs.Rounds' relabel auto pays on every graph:
// the order and both cut counts; and where it renames, the renamed graph too):
//
//	go test ./graph -run '^$' -bench Relabel
func BenchmarkRelabel(b *testing.B) {
	const n = 1_000_000
	r := rand.New(rand.NewPCG(1, 2))
	src, dst := make([]int32, 10*n), make([]int32, 10*n)
	for i := range src {
		src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
	}
	g, _ := Build(n, src, dst)
	perm := g.BFSOrder()
	l := Layout{N: n, Size: 4096}
	b.Run("BFSOrder", func(b *testing.B) {
		for b.Loop() {
			g.BFSOrder()
		}
	})
	b.Run("CutArcs", func(b *testing.B) {
		for b.Loop() {
			g.CutArcs(l, perm)
		}
	})
	b.Run("Relabel", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := g.Relabel(perm); err != nil {
				b.Fatal(err)
			}
		}
	})
}
