package cover

import (
	"fmt"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/words"
)

// A Policy gives every hitting-set vertex its p_true by its answer (graphdp
// hitting-set): the same value everywhere, or one per answer (boundary-homogeneous).
type Policy struct {
	PTrue [2]float64 // p_true on answer-0 and on answer-1 vertices
	Name  string     // what the output's metadata (graphdp.policy) says
}

// Balanced is the paper's balanced value α = (e^ε+δ)/(e^ε+1) on every vertex
// (dp.Pair.Balanced, rounded down): feasible on any hitting set, since two vertices
// with different answers meet the DP bound with equality at distance 1
// (docs/DESIGN.md §10.3).
func Balanced(pair dp.Pair) Policy {
	a := pair.Balanced()
	if pair.Framework() != dp.EpsilonDelta {
		return Policy{PTrue: [2]float64{a, a}, Name: fmt.Sprintf("p_true = %s on every vertex (balanced α, the fixed point α = U(1 − α) of %s)", words.Num(a), pair)}
	}
	return Policy{PTrue: [2]float64{a, a}, Name: fmt.Sprintf("p_true = %s on every vertex (balanced α = (e^ε+δ)/(e^ε+1))", words.Num(a))}
}

// Uniform is p_true = a on every vertex.
func Uniform(a float64) Policy {
	return Policy{PTrue: [2]float64{a, a}, Name: fmt.Sprintf("p_true = %s on every vertex (--alpha)", words.Num(a))}
}

// ByAnswer is p_true = a0 on answer-0 vertices and a1 on answer-1 vertices.
func ByAnswer(a0, a1 float64) Policy {
	return Policy{PTrue: [2]float64{a0, a1}, Name: fmt.Sprintf("p_true = %s on answer 0, %s on answer 1 (--alpha-0, --alpha-1)", words.Num(a0), words.Num(a1))}
}

// Values is the policy's p_true for each vertex of set.
func (p Policy) Values(set []int32, answer []bool) []float64 {
	ptrue := make([]float64, len(set))
	for i, v := range set {
		if answer[v] {
			ptrue[i] = p.PTrue[1]
		} else {
			ptrue[i] = p.PTrue[0]
		}
	}
	return ptrue
}

// BoundaryVertices lists, ascending, the vertices with at least one boundary edge: a
// boundary-hitting set, not a minimum one (graphdp hitting-set -all-boundary).
func BoundaryVertices(g *graph.Graph, answer []bool) []int32 {
	vs, _ := boundaryOf(g, answer)
	return vs
}

// boundaryOf lists the boundary vertices, ascending, and counts the boundary edges:
// one scan of the arcs, split into g.Workers() ranges of vertices run concurrently
// and joined in order (the result does not depend on the split).
func boundaryOf(g *graph.Graph, answer []bool) (vertices []int32, edges int64) {
	w := g.Workers()
	parts, counts := make([][]int32, w), make([]int64, w)
	graph.Parallel(w, g.N(), func(k, lo, hi int) {
		parts[k], counts[k] = boundaryIn(g, answer, int32(lo), int32(hi))
	})
	vertices = []int32{}
	for k := range w {
		vertices = append(vertices, parts[k]...)
		edges += counts[k]
	}
	return vertices, edges
}

// boundaryIn is boundaryOf on the vertices [lo, hi), each edge counted at its
// smaller end.
func boundaryIn(g *graph.Graph, answer []bool, lo, hi int32) (vertices []int32, edges int64) {
	for u := lo; u < hi; u++ {
		on := false
		for _, v := range g.Neighbours(u) {
			if answer[v] != answer[u] {
				on = true
				if v > u {
					edges++
				}
			}
		}
		if on {
			vertices = append(vertices, u)
		}
	}
	return vertices, edges
}
