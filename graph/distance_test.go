package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Distances is the least number of hops to a source, found by relaxing every edge
// until nothing changes (−1: unreachable), whether its levels go top-down or
// bottom-up (sparse and dense graphs, a few sources to nine in ten); DistancesFrom
// is Distances per source set, nil for a nil one, whatever the order the searches
// finish in.
func TestDistancesFromMatchesRelaxation(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := range 100 {
		n := 1 + r.IntN(60)
		m := r.IntN(2 * n)
		if trial%4 == 3 { // dense: the searches go bottom-up and back
			n = 100 + r.IntN(400)
			m = n * (2 + r.IntN(20))
		}
		src, dst := make([]int32, m), make([]int32, m)
		for i := range src {
			src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
		}
		g, _ := Build(n, src, dst)
		var sets [][]int32
		for _, one := range []int{8, 100, 2, 1} { // a vertex in one of each: sparse to almost all
			var s []int32
			for v := range n {
				if r.IntN(one) == 0 || one == 1 && r.IntN(10) != 0 {
					s = append(s, int32(v))
				}
			}
			sets = append(sets, s)
		}
		sets = append(sets, nil, []int32{}) // no search; a search from nothing
		got := g.DistancesFrom(sets...)
		for k, s := range sets {
			if s == nil {
				if got[k] != nil {
					t.Fatalf("trial %d: a nil source set got distances %v", trial, got[k])
				}
				continue
			}
			want := relaxed(n, src, dst, s)
			if !slices.Equal(got[k], want) || !slices.Equal(g.Distances(s), want) {
				t.Fatalf("trial %d, sources %v: DistancesFrom %v, Distances %v, relaxation %v", trial, s, got[k], g.Distances(s), want)
			}
		}
	}
}

func relaxed(n int, src, dst, from []int32) []int32 {
	d := make([]int32, n)
	for i := range d {
		d[i] = -1
	}
	for _, s := range from {
		d[s] = 0
	}
	for changed := true; changed; {
		changed = false
		for i := range src {
			for _, e := range [2][2]int32{{src[i], dst[i]}, {dst[i], src[i]}} {
				if u, v := e[0], e[1]; d[u] >= 0 && (d[v] < 0 || d[u]+1 < d[v]) {
					d[v], changed = d[u]+1, true
				}
			}
		}
	}
	return d
}
