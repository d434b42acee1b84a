package bfs

import (
	"math"
	"slices"
	"sort"

	"github.com/graphdp/graphdp/dp"
)

// EdgeViolation is one (ε,δ)-DP inequality broken on one edge for one output.
type EdgeViolation struct {
	U, V   int32
	Output bool
	PU, PV float64 // Pr[M(U) = Output], Pr[M(V) = Output] (for output 0, 1 − p_one rounded, for display)
	Excess float64 // the exact excess, rounded to nearest (Pair.Excess)
}

// Audit is the result of checking a mechanism on every edge.
type Audit struct {
	Edges      int64           // undirected edges checked
	Violations int64           // (edge, output) pairs with Excess > tolerance
	Worst      EdgeViolation   // the most violated (edge, output), else the tightest (Auditor.Edge); Excess exact
	First      []EdgeViolation // the first `limit` violations in CSR order

	worstBad bool // Worst breaks an inequality (its Excess is then already exact)
}

// better reports whether a candidate (bad, ex) should replace the worst so far: any
// broken inequality beats a holding one, then the larger excess.
func (a *Audit) better(bad bool, ex float64) bool {
	if bad != a.worstBad {
		return bad
	}
	return ex > a.Worst.Excess
}

// Verify checks the four (ε,δ)-DP inequalities (docs/DESIGN.md §1.4) on every edge of
// the mechanism pone (p_one per vertex) exactly: an edge passes when
// pair.Lower(p_one(u)) ≤ p_one(v) ≤ pair.Upper(p_one(u)), which for the DP pair is the
// exact real test with Pr[M = 0] = 1 − p_one and the true e^ε (package dp, invariant
// 3). With tol > 0, a failing (edge, output) counts only when its exact excess is above
// tol. Worst is ranked by an approximate excess and then reported exactly.
// Vertex ranges of about equal arc counts are checked in parallel and merged in CSR
// order, so the result (counts, the first violations, the first worst edge) is the
// same as one pass in CSR order.
func Verify(g *Graph, pone []float64, pair Pair, tol float64, limit int) Audit {
	a := verifyPass(g, pone, pair, tol, limit, false)
	if a.Worst.U < 0 && a.Edges > 0 {
		// Every edge was clearly inside its bounds: rank them all for the tightest.
		a = verifyPass(g, pone, pair, tol, limit, true)
	}
	if w := &a.Worst; w.U >= 0 && !a.worstBad {
		w.Excess = exactExcess(pair, pone[w.U], pone[w.V], w.Output)
	}
	return a
}

// verifyPass is one parallel pass of Verify (rankAll: Auditor.RankAll).
func verifyPass(g *Graph, pone []float64, pair Pair, tol float64, limit int, rankAll bool) Audit {
	parts := vertexRanges(g, workersFor(len(g.Adj)))
	res := make([]Audit, len(parts))
	parallel(len(parts), len(parts), func(k, _, _ int) {
		res[k] = verifyRange(g, pone, pair, tol, limit, rankAll, parts[k])
	})
	a := Audit{Worst: EdgeViolation{Excess: math.Inf(-1), U: -1, V: -1}}
	for _, r := range res {
		a.Edges += r.Edges
		a.Violations += r.Violations
		if a.better(r.worstBad, r.Worst.Excess) {
			a.Worst, a.worstBad = r.Worst, r.worstBad
		}
		for _, v := range r.First {
			if len(a.First) < limit {
				a.First = append(a.First, v)
			}
		}
	}
	return a
}

// exactExcess is pair.Excess with NaN read as a violation.
func exactExcess(pair Pair, pu, pv float64, one bool) float64 {
	if math.IsNaN(pu) || math.IsNaN(pv) {
		return math.Inf(1) // a NaN probability fails the audit; it never passes it
	}
	return pair.Excess(pu, pv, one)
}

// verifyRange is Verify over the vertices [r[0], r[1]).
func verifyRange(g *Graph, pone []float64, pair Pair, tol float64, limit int, rankAll bool, r [2]int32) Audit {
	x := NewAuditor(pair, tol, limit)
	x.RankAll = rankAll
	for u := r[0]; u < r[1]; u++ {
		x.Vertex(u, pone[u])
		for _, v := range above(g, u) {
			x.Edge(v, pone[v])
		}
	}
	return x.Audit
}

// An Auditor accumulates the exact audit of edges given one vertex at a time: Vertex
// names u and its p_one, then Edge each neighbour v (each undirected edge once).
// u's bounds are computed once, and only the one an edge needs (Upper towards a
// larger neighbour, Lower towards a smaller), so an edge costs a comparison. Verify
// and the Beam runner's finish stage both audit through it.
type Auditor struct {
	Audit
	pair    Pair
	dp      DP
	isDP    bool
	tol     float64
	limit   int
	u       int32
	pu      float64
	up, low float64 // NaN until needed
	// upA, lowA are the DP pair's float64 bounds (dp.Pair.ApproxBounds), within
	// dp.ApproxMargin of the real ones: a neighbour clearly inside them passes without
	// the certified bound (which most vertices then never compute).
	upA, lowA float64
	// RankAll ranks every edge for Worst, not only those not clearly inside their
	// bounds (Verify's second pass when every edge was clearly inside).
	RankAll bool
}

// NewAuditor starts an empty audit (Verify's tol and limit).
func NewAuditor(pair Pair, tol float64, limit int) *Auditor {
	x := &Auditor{pair: pair, tol: tol, limit: limit}
	x.dp, x.isDP = pair.(DP)
	x.Worst = EdgeViolation{Excess: math.Inf(-1), U: -1, V: -1}
	return x
}

// Vertex starts the edges of u, whose p_one is pu.
func (x *Auditor) Vertex(u int32, pu float64) {
	x.u, x.pu, x.up, x.low = u, pu, math.NaN(), math.NaN()
	x.upA, x.lowA = math.Inf(-1), math.Inf(1) // nothing is clearly inside
	if x.isDP && !x.RankAll {
		lo, up := x.dp.ApproxBounds(pu)
		x.upA, x.lowA = up-dp.ApproxMargin, lo+dp.ApproxMargin
	}
}

// Edge audits the edge from the current vertex to v, whose p_one is pv. A value
// clearly inside both float64 bounds costs two comparisons (this part inlines).
func (x *Auditor) Edge(v int32, pv float64) {
	x.Edges++
	if x.lowA <= pv && pv <= x.upA {
		return
	}
	x.edge(v, pv)
}

// edge is Edge's slow path: the certified bound, and the ranking for Worst.
func (x *Auditor) edge(v int32, pv float64) {
	a, pu := &x.Audit, x.pu
	ok := true
	switch {
	case pv > pu:
		if pv <= x.upA {
			break
		}
		if x.up != x.up {
			x.up = x.pair.Upper(pu)
		}
		ok = pv <= x.up
	case pv < pu:
		if pv >= x.lowA {
			break
		}
		if x.low != x.low {
			x.low = x.pair.Lower(pu)
		}
		ok = pv >= x.low
	case pv != pu: // NaN
		ok = false
	}
	// Rank by an approximate excess (Verify makes the winner's exact). Edges clearly
	// inside their bounds are not ranked (unless RankAll): where any edge comes within
	// dp.ApproxMargin of a bound, the tightest is among those.
	var ex0, ex1 float64
	if x.isDP {
		ex0, ex1 = x.dp.ApproxExcess(pu, pv)
	} else {
		ex0, ex1 = x.pair.Excess(pu, pv, false), x.pair.Excess(pu, pv, true)
	}
	if ok && (a.worstBad || ex0 <= a.Worst.Excess && ex1 <= a.Worst.Excess) {
		return // the common case: nothing to record
	}
	for _, j := range []bool{false, true} {
		ex := ex0
		if j {
			ex = ex1
		}
		if math.IsNaN(ex) {
			ex = math.Inf(1)
		}
		bad := false
		if !ok {
			ex = exactExcess(x.pair, pu, pv, j)
			bad = ex > 0
			if ex > x.tol {
				a.Violations++
				if len(a.First) < x.limit {
					a.First = append(a.First, edgeViolation(x.u, v, j, pu, pv, ex))
				}
			}
		}
		if a.better(bad, ex) {
			a.Worst, a.worstBad = edgeViolation(x.u, v, j, pu, pv, ex), bad
		}
	}
}

func edgeViolation(u, v int32, one bool, pu, pv, ex float64) EdgeViolation {
	if !one {
		pu, pv = 1-pu, 1-pv
	}
	return EdgeViolation{U: u, V: v, Output: one, PU: pu, PV: pv, Excess: ex}
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
