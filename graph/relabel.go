package graph

import (
	"fmt"
	"slices"
)

// This file renames vertices so that a Layout's shards of consecutive positions hold
// connected pieces of the graph (doc.go invariant 6): the block-centric engines then
// cut fewer arcs and take fewer rounds where the graph has locality its positions
// hide (docs/BEAM.md, "Cuts that follow the graph").

// BFSOrder numbers the vertices in breadth-first order: from the lowest position not
// yet numbered, its component level by level, each vertex's neighbours in list order
// (ascending), then the next component. It returns the permutation old position →
// new position. One pass over the CSR: O(n + m) time, 8 bytes a vertex besides the
// result.
func (g *Graph) BFSOrder() []int32 {
	n := g.N()
	order := make([]int32, n)
	for v := range order {
		order[v] = -1
	}
	queue := make([]int32, 0, n) // every vertex is queued once: the queue is the inverse
	for s := range int32(n) {
		if order[s] >= 0 {
			continue
		}
		order[s] = int32(len(queue))
		queue = append(queue, s)
		for head := len(queue) - 1; head < len(queue); head++ {
			for _, v := range g.Neighbours(queue[head]) {
				if order[v] < 0 {
					order[v] = int32(len(queue))
					queue = append(queue, v)
				}
			}
		}
	}
	return order
}

// CheckPermutation reports whether perm is a bijection of 0..n−1 (old → new).
func CheckPermutation(perm []int32, n int) error {
	if len(perm) != n {
		return fmt.Errorf("graph: permutation of %d positions for %d vertices", len(perm), n)
	}
	seen := make([]uint64, (n+63)/64)
	for v, p := range perm {
		if p < 0 || int(p) >= n {
			return fmt.Errorf("graph: permutation maps %d to %d, outside [0, %d)", v, p, n)
		}
		if seen[p>>6]&(1<<(p&63)) != 0 {
			return fmt.Errorf("graph: permutation maps two positions to %d", p)
		}
		seen[p>>6] |= 1 << (p & 63)
	}
	return nil
}

// Relabel is g with vertex v renamed perm[v] (a permutation: CheckPermutation),
// itself a Graph of invariant 1. It returns the inverse (new → old) too. It costs
// O(n + m) and the arcs' sort within each list, and a new Off and Adj.
func (g *Graph) Relabel(perm []int32) (h *Graph, inverse []int32, err error) {
	n := g.N()
	if err := CheckPermutation(perm, n); err != nil {
		return nil, nil, err
	}
	inverse = make([]int32, n)
	for v, p := range perm {
		inverse[p] = int32(v)
	}
	h = &Graph{Off: make([]int64, n+1), Adj: make([]int32, len(g.Adj))}
	for p, v := range inverse {
		h.Off[p+1] = h.Off[p] + (g.Off[v+1] - g.Off[v])
	}
	parallel(workersFor(len(g.Adj)), n, func(_, lo, hi int) {
		for p := lo; p < hi; p++ {
			list := h.Adj[h.Off[p]:h.Off[p+1]]
			for i, x := range g.Neighbours(inverse[p]) {
				list[i] = perm[x]
			}
			slices.Sort(list)
		}
	})
	return h, inverse, nil
}

// CutArcs counts g's arcs (each edge twice) whose ends lie in different shards of l
// once vertex v is renamed perm[v] (nil: the identity, g's own positions).
func (g *Graph) CutArcs(l Layout, perm []int32) int64 {
	n := g.N()
	w := workersFor(len(g.Adj))
	counts := make([]int64, w)
	parallel(w, n, func(k, lo, hi int) {
		cut := int64(0)
		for u := lo; u < hi; u++ {
			su := l.Of(int32(u))
			if perm != nil {
				su = l.Of(perm[u])
			}
			for _, v := range g.Neighbours(int32(u)) {
				sv := l.Of(v)
				if perm != nil {
					sv = l.Of(perm[v])
				}
				if su != sv {
					cut++
				}
			}
		}
		counts[k] = cut
	})
	total := int64(0)
	for _, c := range counts {
		total += c
	}
	return total
}
