package graph

import "sync"

// Distances is every vertex's hop distance to the nearest vertex of src, -1 where
// its component holds none: one breadth-first search from all of src at once.
func (g *Graph) Distances(src []int32) []int32 {
	d := make([]int32, g.N())
	for i := range d {
		d[i] = -1
	}
	q := make([]int32, 0, len(src))
	for _, s := range src {
		if d[s] < 0 {
			d[s] = 0
			q = append(q, s)
		}
	}
	for i := 0; i < len(q); i++ {
		u := q[i]
		for _, v := range g.Neighbours(u) {
			if d[v] < 0 {
				d[v] = d[u] + 1
				q = append(q, v)
			}
		}
	}
	return d
}

// DistancesFrom is Distances from each of srcs, the searches run concurrently
// (each is one sequential pass over the arcs it reaches); a nil source set gets
// nil, no search.
func (g *Graph) DistancesFrom(srcs ...[]int32) [][]int32 {
	out := make([][]int32, len(srcs))
	var wg sync.WaitGroup
	for i, src := range srcs {
		if src == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = g.Distances(src)
		}()
	}
	wg.Wait()
	return out
}
