package bfs

import "math"

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

// Verify checks both DP inequalities for both outputs on every edge of the mechanism
// pone (p_one per vertex; Pr[M = 0] is 1 − p_one in float64, as Pair.Excess is told).
func Verify(g *Graph, pone []float64, pair Pair, tol float64, limit int) Audit {
	a := Audit{Worst: EdgeViolation{Excess: math.Inf(-1), U: -1, V: -1}}
	for u := int32(0); int(u) < g.N(); u++ {
		for _, v := range g.Neighbours(u) {
			if v < u {
				continue
			}
			a.Edges++
			for _, j := range []bool{false, true} {
				pu, pv := pone[u], pone[v]
				if !j {
					pu, pv = 1-pu, 1-pv
				}
				ex := pair.Excess(pu, pv)
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
