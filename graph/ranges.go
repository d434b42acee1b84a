package graph

import "slices"

// Above is the part of u's sorted list above u: each edge once, without a branch
// per arc that goes either way at random.
func (g *Graph) Above(u int32) []int32 {
	list := g.Adj[g.Off[u]:g.Off[u+1]]
	i, _ := slices.BinarySearch(list, u)
	return list[i:]
}

// Workers is how many goroutines a pass over g's arcs is worth: one per
// GOMAXPROCS, one for a small graph (the checks' scan uses it).
func (g *Graph) Workers() int { return workersFor(len(g.Adj)) }
