package cover

import (
	"context"
	"math"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/words"
)

// Cover is a minimum boundary-hitting set: a minimum vertex cover of the
// boundary graph, whose edges are the boundary edges and which is bipartite (answer
// 0 on one side, answer 1 on the other). König's theorem makes the cover's size equal
// to a maximum matching's, which Hopcroft–Karp finds in O(E·√V) (docs/DESIGN.md §7).
type Cover struct {
	Vertices      []int32 // the cover, ascending positions
	Matching      int     // size of the maximum matching (= len(Vertices), König)
	Mate          []int32 // Mate[v]: v's partner in the matching, or -1
	Boundary      int     // vertices with at least one boundary edge
	BoundaryEdges int64
}

// Boundary computes a minimum vertex cover of g's boundary graph.
func Boundary(ctx context.Context, g *graph.Graph, answer []bool) (*Cover, error) {
	return boundaryFrom(ctx, g, answer, nil)
}

// boundaryFrom is Boundary with the matching grown from the boundary datasets of
// answer *from, or of the smaller side when from is nil (each phase's search
// starts at the side's free vertices, and from the larger side most stay free).
// The cover is read off in one orientation whichever side the matching grew from
// (konig), and it is the same for every maximum matching.
func boundaryFrom(ctx context.Context, g *graph.Graph, answer []bool, from *bool) (*Cover, error) {
	n := g.N()
	bc := &Cover{Mate: make([]int32, n), Vertices: []int32{}}
	mate := bc.Mate
	for u := range mate {
		mate[u] = -1
	}
	boundary, edges := boundaryOf(g, answer)
	bc.Boundary, bc.BoundaryEdges = len(boundary), edges
	var side [2][]int32 // the boundary vertices of each answer, ascending
	for _, u := range boundary {
		side[words.Bit(answer[u])] = append(side[words.Bit(answer[u])], u)
	}
	if from == nil {
		small := len(side[1]) < len(side[0])
		from = &small
	}
	left := side[words.Bit(*from)]
	// A greedy matching first: Hopcroft–Karp then has fewer phases to run.
	for _, u := range left {
		for _, v := range g.Neighbours(u) {
			if answer[v] != *from && mate[v] < 0 {
				mate[u], mate[v] = v, u
				bc.Matching++
				break
			}
		}
	}
	hk := &hopcroftKarp{g: g, answer: answer, from: *from, mate: mate, left: left,
		dist: make([]int32, n), it: make([]int64, n), via: make([]int32, n)}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !hk.layer() {
			break
		}
		bc.Matching += hk.augment()
	}
	bc.Vertices = hk.konig(boundary, side[0], side[1])
	return bc, nil
}

// hopcroftKarp is the state of the matching phases. Left vertices are the boundary
// vertices of answer from; a boundary edge joins vertices with different answers.
type hopcroftKarp struct {
	g      *graph.Graph
	answer []bool
	from   bool // the left side's answer
	mate   []int32
	left   []int32
	dist   []int32 // layer of a left vertex in the current phase (unreached: inf)
	it     []int64 // next adjacency entry a left vertex tries in the current phase
	via    []int32 // the right vertex a left vertex on the DFS stack goes through
	limit  int32   // length (in left layers) of the shortest augmenting paths
	queue  []int32
	stack  []int32
}

const inf = math.MaxInt32

// layer is the BFS of a phase: alternating layers from the free left vertices, up to
// the first layer that reaches a free right vertex. It reports whether one was reached.
func (h *hopcroftKarp) layer() bool {
	g := h.g
	h.queue = h.queue[:0]
	for _, u := range h.left {
		if h.mate[u] < 0 {
			h.dist[u] = 0
			h.queue = append(h.queue, u)
		} else {
			h.dist[u] = inf
		}
	}
	h.limit = inf
	for k := 0; k < len(h.queue); k++ {
		x := h.queue[k]
		if h.dist[x] >= h.limit {
			break // the queue is in layer order: nothing shorter remains
		}
		for _, y := range g.Neighbours(x) {
			if h.answer[y] == h.from {
				continue
			}
			w := h.mate[y]
			switch {
			case w < 0:
				h.limit = min(h.limit, h.dist[x]+1)
			case h.dist[w] == inf:
				h.dist[w] = h.dist[x] + 1
				h.queue = append(h.queue, w)
			}
		}
	}
	return h.limit != inf
}

// augment finds a maximal set of vertex-disjoint shortest augmenting paths along the
// layers (iterative DFS: no recursion depth limit) and flips them; it returns how many.
func (h *hopcroftKarp) augment() int {
	g := h.g
	for _, u := range h.left {
		h.it[u] = g.Off[u]
	}
	found := 0
	for _, u := range h.left {
		if h.mate[u] >= 0 || h.dist[u] != 0 {
			continue
		}
		h.stack = append(h.stack[:0], u)
		for len(h.stack) > 0 {
			x := h.stack[len(h.stack)-1]
			moved := false
			for h.it[x] < g.Off[x+1] {
				y := g.Adj[h.it[x]]
				h.it[x]++
				if h.answer[y] == h.from {
					continue
				}
				w := h.mate[y]
				if w < 0 {
					if h.dist[x]+1 != h.limit {
						continue
					}
					// Flip the path stack[0] → … → x → y.
					h.via[x] = y
					for _, s := range h.stack {
						t := h.via[s]
						h.mate[s], h.mate[t] = t, s
					}
					found++
					h.stack = h.stack[:0]
					moved = true
					break
				}
				if h.dist[w] == h.dist[x]+1 && h.dist[w] < h.limit {
					h.via[x] = y
					h.stack = append(h.stack, w)
					moved = true
					break
				}
			}
			if !moved {
				h.dist[x] = inf // a dead end for the rest of the phase
				h.stack = h.stack[:len(h.stack)-1]
			}
		}
	}
	return found
}

// konig turns the maximum matching into a minimum vertex cover, in the answer-0
// orientation whichever side the matching grew from: with L the answer-0 boundary
// vertices (left), R the answer-1 ones (right) and Z the vertices reachable from
// free left vertices by alternating paths (left to right along any boundary edge,
// right to left along the matching), the cover is (L \ Z) ∪ (R ∩ Z), listed in
// boundary's (ascending) order. Z is the same for every maximum matching (the
// Dulmage–Mendelsohn decomposition: L ∩ Z is the left vertices some maximum
// matching leaves free, R ∩ Z their neighbours), so the cover is too. Z's first
// step, the right vertices next to a free left one, is found from whichever side
// has fewer vertices to scan: from the larger side most vertices are free.
func (h *hopcroftKarp) konig(boundary, left, right []int32) []int32 {
	g, n := h.g, h.g.N()
	inZ := make([]bool, n)
	h.queue = h.queue[:0]
	reach := func(y int32) { // a right vertex; y is matched (else the matching would not be maximum)
		inZ[y] = true
		if w := h.mate[y]; w >= 0 && !inZ[w] {
			inZ[w] = true
			h.queue = append(h.queue, w)
		}
	}
	free := 0
	for _, u := range left {
		if h.mate[u] < 0 {
			inZ[u] = true
			free++
		}
	}
	if free > len(right) {
		for _, y := range right {
			for _, x := range g.Neighbours(y) {
				if !h.answer[x] && h.mate[x] < 0 {
					reach(y)
					break
				}
			}
		}
	} else {
		for _, u := range left {
			if h.mate[u] >= 0 {
				continue
			}
			for _, y := range g.Neighbours(u) {
				if h.answer[y] && !inZ[y] {
					reach(y)
				}
			}
		}
	}
	for k := 0; k < len(h.queue); k++ {
		x := h.queue[k]
		for _, y := range g.Neighbours(x) {
			// Going back along x's own matching edge is harmless: x was reached
			// through its mate.
			if h.answer[y] && !inZ[y] {
				reach(y)
			}
		}
	}
	cover := []int32{}
	for _, v := range boundary {
		if h.answer[v] == inZ[v] { // answer 0 outside Z, answer 1 inside
			cover = append(cover, v)
		}
	}
	return cover
}
