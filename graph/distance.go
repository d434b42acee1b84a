package graph

import "sync"

// Distances is every vertex's hop distance to the nearest vertex of src, -1 where
// its component holds none: one breadth-first search from all of src at once,
// level by level, each level either top-down (the frontier's arcs are scanned for
// unseen vertices) or bottom-up (each unseen vertex scans its arcs for one in the
// frontier and stops at the first), whichever touches fewer arcs (Beamer, Asanović
// and Patterson's direction-optimising search). Sources that are most of the
// graph, like every dataset of one answer, are then settled by a short scan of the
// few vertices left, not by a pass over every source's arcs. The distances are the
// same either way: they are the graph's.
func (g *Graph) Distances(src []int32) []int32 {
	n := g.N()
	d := make([]int32, n)
	for i := range d {
		d[i] = -1
	}
	frontier := make([]int32, 0, len(src))
	var arcsF int64 // the frontier's arcs
	for _, s := range src {
		if d[s] < 0 {
			d[s] = 0
			frontier = append(frontier, s)
			arcsF += g.degree(s)
		}
	}
	arcsU := int64(len(g.Adj)) - arcsF // the unseen vertices' arcs
	var next, unseen []int32
	bottomUp := false
	for level := int32(0); len(frontier) > 0; level++ {
		// Switch as Beamer et al. do: bottom-up once the frontier has more than a
		// 14th of the unseen arcs, top-down again once it holds under a 24th of the
		// vertices.
		if !bottomUp && arcsF > arcsU/14 {
			bottomUp = true
		} else if bottomUp && int64(len(frontier)) < int64(n)/24 {
			bottomUp = false
		}
		next, arcsF = next[:0], 0
		if bottomUp {
			if unseen == nil {
				unseen = make([]int32, 0, n-len(frontier))
				for v := range int32(n) {
					if d[v] < 0 {
						unseen = append(unseen, v)
					}
				}
			}
			kept := unseen[:0]
			for _, v := range unseen {
				if d[v] >= 0 { // seen top-down since the list was made
					continue
				}
				for _, u := range g.Neighbours(v) {
					if d[u] == level {
						d[v] = level + 1
						break
					}
				}
				if d[v] < 0 {
					kept = append(kept, v)
				} else {
					next = append(next, v)
				}
			}
			unseen = kept
		} else {
			for _, u := range frontier {
				for _, v := range g.Neighbours(u) {
					if d[v] < 0 {
						d[v] = level + 1
						next = append(next, v)
					}
				}
			}
		}
		for _, v := range next {
			arcsF += g.degree(v)
		}
		arcsU -= arcsF
		frontier, next = next, frontier
	}
	return d
}

func (g *Graph) degree(v int32) int64 { return g.Off[v+1] - g.Off[v] }

// DistancesFrom is Distances from each of srcs, the searches run concurrently
// (each is sequential); a nil source set gets nil, no search.
func (g *Graph) DistancesFrom(srcs ...[]int32) [][]int32 {
	out := make([][]int32, len(srcs))
	var wg sync.WaitGroup
	for i, src := range srcs {
		if src != nil {
			wg.Go(func() { out[i] = g.Distances(src) })
		}
	}
	wg.Wait()
	return out
}
