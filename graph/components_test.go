package graph

import (
	"math/rand/v2"
	"testing"
)

// Components counted per shard (LocalRoots) and joined along the cut arcs (Spanning
// over the links between the ends' local roots, each cut edge once, in shuffled
// order) are the whole graph's components (Components, the BFS reference), for
// shards of every size, on sparse random graphs with many components; and every
// local root is the smallest position of its local component (invariant 5).
func TestShardComponentsJoinToWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 8))
	for trial := range 300 {
		n := 1 + r.IntN(120)
		m := r.IntN(n + n/2) // below and around the giant component's threshold
		src, dst := make([]int32, m), make([]int32, m)
		for i := range src {
			src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
		}
		g, _ := Build(n, src, dst)
		_, want := g.Components()
		l := Layout{N: int32(n), Size: int32(1 + r.IntN(n))}
		roots := make([]int32, 0, n)
		total := 0
		for s := range int32(l.Shards()) {
			sh := g.ShardOf(l, s)
			root, k := sh.LocalRoots()
			total += k
			for i, x := range root {
				if x > sh.Lo+int32(i) || l.Of(x) != s || root[x-sh.Lo] != x {
					t.Fatalf("trial %d: shard %d vertex %d has root %d", trial, s, sh.Lo+int32(i), x)
				}
			}
			roots = append(roots, root...)
		}
		var links []Link
		for u := range int32(n) {
			for _, v := range g.Neighbours(u) {
				if v > u && l.Of(u) != l.Of(v) {
					links = append(links, Link{roots[u], roots[v]})
				}
			}
		}
		r.Shuffle(len(links), func(i, j int) { links[i], links[j] = links[j], links[i] })
		kept := Spanning(links)
		if got := total - len(kept); got != want {
			t.Fatalf("trial %d (n=%d m=%d size=%d): %d local components − %d links = %d, want %d", trial, n, m, l.Size, total, len(kept), got, want)
		}
		if len(Spanning(kept)) != len(kept) {
			t.Fatalf("trial %d: Spanning of its own result dropped links", trial)
		}
	}
}
