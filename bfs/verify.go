package bfs

import (
	"math"
	"slices"
	"sort"
)

// EdgeViolation is one (ε,δ)-DP inequality broken on one edge for one output.
type EdgeViolation struct {
	U, V   int32
	Output bool
	PU, PV float64 // Pr[M(U) = Output], Pr[M(V) = Output]
	Excess float64
}

// Audit is the result of checking a mechanism on every edge.
type Audit struct {
	Edges      int64           // undirected edges checked
	Violations int64           // (edge, output) pairs with Excess > tolerance
	Worst      EdgeViolation   // largest Excess seen (also when ≤ tolerance)
	First      []EdgeViolation // the first `limit` violations in CSR order
}

// Verify checks both DP inequalities for both outputs on every edge (the four of
// docs/DESIGN.md §1.4) of the mechanism pone (p_one per vertex; Pr[M = 0] is
// 1 − p_one in float64, as Pair.Excess is told).
// Vertex ranges of about equal arc counts are checked in parallel and merged in CSR
// order, so the result (counts, the first violations, the first worst edge) is the
// same as one pass in CSR order.
func Verify(g *Graph, pone []float64, pair Pair, tol float64, limit int) Audit {
	parts := vertexRanges(g, workersFor(len(g.Adj)))
	res := make([]Audit, len(parts))
	parallel(len(parts), len(parts), func(k, _, _ int) {
		res[k] = verifyRange(g, pone, pair, tol, limit, parts[k])
	})
	a := Audit{Worst: EdgeViolation{Excess: math.Inf(-1), U: -1, V: -1}}
	for _, r := range res {
		a.Edges += r.Edges
		a.Violations += r.Violations
		if r.Worst.Excess > a.Worst.Excess {
			a.Worst = r.Worst
		}
		for _, v := range r.First {
			if len(a.First) < limit {
				a.First = append(a.First, v)
			}
		}
	}
	return a
}

// verifyRange is Verify over the vertices [r[0], r[1]). The DP pair's Excess is
// called directly (inlined), other pairs through the interface.
func verifyRange(g *Graph, pone []float64, pair Pair, tol float64, limit int, r [2]int32) Audit {
	a := Audit{Worst: EdgeViolation{Excess: math.Inf(-1), U: -1, V: -1}}
	dp, isDP := pair.(DP)
	for u := r[0]; u < r[1]; u++ {
		pu1 := pone[u]
		pu0 := 1 - pu1
		for _, v := range above(g, u) {
			a.Edges++
			pv1 := pone[v]
			var ex0, ex1 float64
			if isDP {
				ex0, ex1 = dp.Excess(pu0, 1-pv1), dp.Excess(pu1, pv1)
			} else {
				ex0, ex1 = pair.Excess(pu0, 1-pv1), pair.Excess(pu1, pv1)
			}
			if ex0 <= a.Worst.Excess && ex1 <= a.Worst.Excess && ex0 <= tol && ex1 <= tol {
				continue // the common case: nothing to record
			}
			for _, j := range []bool{false, true} {
				pu, pv, ex := pu0, 1-pv1, ex0
				if j {
					pu, pv, ex = pu1, pv1, ex1
				}
				if math.IsNaN(ex) {
					ex = math.Inf(1) // a NaN probability fails the audit; it never passes it
				}
				if ex > a.Worst.Excess {
					a.Worst = EdgeViolation{U: u, V: v, Output: j, PU: pu, PV: pv, Excess: ex}
				}
				if ex > tol {
					a.Violations++
					if len(a.First) < limit {
						a.First = append(a.First, EdgeViolation{U: u, V: v, Output: j, PU: pu, PV: pv, Excess: ex})
					}
				}
			}
		}
	}
	return a
}

// above is the part of u's sorted list above u: each edge once, without a branch
// per arc that goes either way at random.
func above(g *Graph, u int32) []int32 {
	list := g.Adj[g.Off[u]:g.Off[u+1]]
	i, _ := slices.BinarySearch(list, u)
	return list[i:]
}

// vertexRanges splits 0..n−1 into at most parts contiguous ranges of about equal
// arc counts.
func vertexRanges(g *Graph, parts int) [][2]int32 {
	n := g.N()
	arcs := int64(len(g.Adj))
	var out [][2]int32
	lo := 0
	for k := 1; k <= parts && lo < n; k++ {
		hi := n
		if k < parts {
			target := arcs * int64(k) / int64(parts)
			hi = max(lo, sort.Search(n, func(v int) bool { return g.Off[v] >= target }))
		}
		if hi > lo || k == parts {
			out = append(out, [2]int32{int32(lo), int32(hi)})
		}
		lo = hi
	}
	if len(out) == 0 {
		out = append(out, [2]int32{0, int32(n)})
	}
	return out
}
