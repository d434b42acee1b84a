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
// new position. One pass over the CSR: O(n + m) time, 4 bytes a vertex and a bit
// besides the result.
func (g *Graph) BFSOrder() []int32 {
	n := g.N()
	// The test per arc reads a bitmap (n/8 bytes: in cache far longer than a
	// 4-byte number a vertex would be); the queue, every vertex once, is the
	// inverse of the order.
	seen := make([]uint64, (n+63)/64)
	queue := make([]int32, 0, n)
	for s := range int32(n) {
		if seen[s>>6]&(1<<(s&63)) != 0 {
			continue
		}
		seen[s>>6] |= 1 << (s & 63)
		queue = append(queue, s)
		for head := len(queue) - 1; head < len(queue); head++ {
			for _, v := range g.Neighbours(queue[head]) {
				if seen[v>>6]&(1<<(v&63)) == 0 {
					seen[v>>6] |= 1 << (v & 63)
					queue = append(queue, v)
				}
			}
		}
	}
	order := make([]int32, n)
	for i, v := range queue {
		order[v] = int32(i)
	}
	return order
}

// ProbeCut is a sample of CutArcs for the breadth-first order, for a decision
// that should cost far less than the order itself: it numbers vertices as
// BFSOrder does until limit are numbered (all of them when limit ≥ n, and then
// the counts are CutArcs' exactly), and counts, over the arcs between numbered
// vertices (arcs), those the shards of l cut in g's own positions (given) and in
// the breadth-first numbers (renamed). It costs the sample's arcs and n bytes'
// worth of zeroed memory (4 bytes a vertex), not a pass over the graph.
func (g *Graph) ProbeCut(l Layout, limit int) (arcs, given, renamed int64) {
	n := g.N()
	limit = min(limit, n)
	num := make([]int32, n) // breadth-first number + 1; 0: not numbered
	queue := make([]int32, 0, limit)
	for s := int32(0); int(s) < n && len(queue) < limit; s++ {
		if num[s] != 0 {
			continue
		}
		queue = append(queue, s)
		num[s] = int32(len(queue))
		for head := len(queue) - 1; head < len(queue) && len(queue) < limit; head++ {
			for _, v := range g.Neighbours(queue[head]) {
				if num[v] == 0 && len(queue) < limit {
					queue = append(queue, v)
					num[v] = int32(len(queue))
				}
			}
		}
	}
	for _, u := range queue {
		su, pu := l.Of(u), l.Of(num[u]-1)
		for _, v := range g.Neighbours(u) {
			if num[v] == 0 {
				continue
			}
			arcs++
			if l.Of(v) != su {
				given++
			}
			if l.Of(num[v]-1) != pu {
				renamed++
			}
		}
	}
	return arcs, given, renamed
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
	// g's lists are read in order (a stream) and each is written, renamed and
	// sorted, at its new place: one random access a list, not one an arc.
	Parallel(workersFor(len(g.Adj)), n, func(_, lo, hi int) {
		for u := lo; u < hi; u++ {
			p := perm[u]
			list := h.Adj[h.Off[p]:h.Off[p+1]]
			for i, x := range g.Neighbours(int32(u)) {
				list[i] = perm[x]
			}
			sortList(list)
		}
	})
	return h, inverse, nil
}

// sortList sorts a neighbour list: by insertion up to 32 entries (most lists:
// BenchmarkRelabel's graph of degree 20 took 0.7–0.9 s with it, 1.2 s with
// slices.Sort alone, on a shared machine), else slices.Sort.
func sortList(list []int32) {
	if len(list) > 32 {
		slices.Sort(list)
		return
	}
	for i := 1; i < len(list); i++ {
		x, j := list[i], i
		for ; j > 0 && list[j-1] > x; j-- {
			list[j] = list[j-1]
		}
		list[j] = x
	}
}

// CutArcs counts g's arcs (each edge twice) whose ends lie in different shards of
// l: given, in g's own positions, and renamed, once vertex v is renamed perm[v]
// (0 when perm is nil). One pass over the arcs counts both.
func (g *Graph) CutArcs(l Layout, perm []int32) (given, renamed int64) {
	n := g.N()
	w := workersFor(len(g.Adj))
	counts := make([][2]int64, w)
	Parallel(w, n, func(k, lo, hi int) {
		var c [2]int64
		for u := lo; u < hi; u++ {
			su := l.Of(int32(u))
			for _, v := range g.Neighbours(int32(u)) {
				if l.Of(v) != su {
					c[0]++
				}
			}
			if perm == nil {
				continue
			}
			pu := l.Of(perm[u])
			for _, v := range g.Neighbours(int32(u)) {
				if l.Of(perm[v]) != pu {
					c[1]++
				}
			}
		}
		counts[k] = c
	})
	for _, c := range counts {
		given, renamed = given+c[0], renamed+c[1]
	}
	return given, renamed
}
