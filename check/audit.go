package check

import (
	"context"
	"math"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/prefetch"
	"github.com/graphdp/graphdp/internal/progress"
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
	Worst      EdgeViolation   // the most violated (edge, output), else the tightest (Auditor.Edge); U < 0: none ranked
	First      []EdgeViolation // the first `limit` violations in CSR order
	// WorstBad reports that Worst breaks an inequality: its Excess is then exact.
	// Otherwise its Excess is the float64 estimate that ranked it until Exact.
	WorstBad bool
}

// NewAudit is the audit of no edges: nothing ranked (Worst.U < 0).
func NewAudit() Audit {
	return Audit{Worst: EdgeViolation{Excess: math.Inf(-1), U: -1, V: -1}}
}

// better reports whether a candidate (bad, ex) should replace the worst so far: any
// broken inequality beats a holding one, then the larger excess; a tie keeps the
// earlier (invariant 1).
func (a *Audit) better(bad bool, ex float64) bool {
	if bad != a.WorstBad {
		return bad
	}
	return ex > a.Worst.Excess
}

// Merge adds b, the audit of edges that all come after a's in CSR order, to a: the
// result is the audit of one pass over both (invariant 1), with at most limit
// violations listed. It reports whether b's Worst became a's. Verify merges its
// vertex ranges with it, and a cluster runner its shards (in position order).
func (a *Audit) Merge(b *Audit, limit int) bool {
	a.Edges += b.Edges
	a.Violations += b.Violations
	for _, v := range b.First {
		if len(a.First) < limit {
			a.First = append(a.First, v)
		}
	}
	if b.Worst.U < 0 || !a.better(b.WorstBad, b.Worst.Excess) {
		return false
	}
	a.Worst, a.WorstBad = b.Worst, b.WorstBad
	return true
}

// Unranked reports that edges were audited but none was ranked for Worst: every one
// lay clearly inside its bounds. The tightest is then found by auditing them all
// again with Auditor.RankAll (Verify's second pass).
func (a *Audit) Unranked() bool { return a.Worst.U < 0 && a.Edges > 0 }

// Exact makes Worst's Excess exact (invariant 3), given pu and pv, the exact values of
// its ends Worst.U and Worst.V (dp.ExactValue): Verify's last step, and a cluster
// runner's once its shards' audits are merged. A violation's excess is exact
// already, and so is an edge with a tail ranked as tailEdge ranks it.
func (a *Audit) Exact(pair dp.Pair, pu, pv float64) {
	if w := &a.Worst; w.U >= 0 && !a.WorstBad && !dp.Tail(pu) && !dp.Tail(pv) {
		w.Excess = exactExcess(pair, pu, pv, w.Output)
	}
}

// Verify checks the four (ε,δ)-DP inequalities (docs/DESIGN.md §1.4) on every edge of
// the mechanism pone (p_one per vertex) exactly: an edge passes when
// pair.Lower(p_one(u)) ≤ p_one(v) ≤ pair.Upper(p_one(u)), which is the
// exact real test with Pr[M = 0] = 1 − p_one and the true e^ε (package dp, invariant
// 3). With tol > 0, a failing (edge, output) counts only when its exact excess is above
// tol. Worst is ranked by an approximate excess and then reported exactly.
// Vertex ranges of about equal arc counts are checked in parallel and merged in CSR
// order, so the result (counts, the first violations, the first worst edge) is the
// same as one pass in CSR order. ctx's progress counter (internal/progress) counts
// the vertices audited (up to g.N()); the error is ctx's, when it is cancelled.
func Verify(ctx context.Context, g *graph.Graph, pone []float64, pair dp.Pair, tol float64, limit int) (Audit, error) {
	a, err := verifyPass(ctx, g, pone, pair, tol, limit, false)
	if err == nil && a.Unranked() {
		// The second pass is not counted: the display ended at g.N() with the first.
		a, err = verifyPass(progress.With(ctx, nil), g, pone, pair, tol, limit, true)
	}
	if err != nil {
		return Audit{}, err
	}
	if w := a.Worst; w.U >= 0 {
		a.Exact(pair, pone[w.U], pone[w.V])
	}
	return a, nil
}

// verifyPass is one parallel pass of Verify (rankAll: Auditor.RankAll).
func verifyPass(ctx context.Context, g *graph.Graph, pone []float64, pair dp.Pair, tol float64, limit int, rankAll bool) (Audit, error) {
	a := NewAudit()
	parts, err := scan(ctx, g, func(lo, hi int32) Audit { return verifyRange(g, pone, pair, tol, limit, rankAll, lo, hi) })
	for _, r := range parts {
		a.Merge(&r, limit)
	}
	return a, err
}

// exactExcess is pair.Excess with NaN read as a violation.
func exactExcess(pair dp.Pair, pu, pv float64, one bool) float64 {
	if math.IsNaN(pu) || math.IsNaN(pv) {
		return math.Inf(1) // a NaN probability fails the audit; it never passes it
	}
	return pair.Excess(pu, pv, one)
}

// verifyRange is Verify over the vertices [lo, hi).
func verifyRange(g *graph.Graph, pone []float64, pair dp.Pair, tol float64, limit int, rankAll bool, lo, hi int32) Audit {
	x := NewAuditor(pair, tol, limit)
	x.RankAll = rankAll
	eachAbove(g, lo, hi, func(l []int32) { prefetch.Each(pone, l) }, func(u int32, above []int32) {
		x.Vertex(u, pone[u])
		for _, v := range above {
			x.Edge(v, pone[v])
		}
	})
	return x.Audit
}

// An Auditor accumulates the exact audit of edges given one vertex at a time: Vertex
// names u and its p_one, then Edge each neighbour v (each undirected edge once).
// u's bounds are computed once, and only the one an edge needs (Upper towards a
// larger neighbour, Lower towards a smaller), so an edge costs a comparison. Verify
// and the Beam runner's finish stage both audit through it.
type Auditor struct {
	Audit
	pair    dp.Pair
	tol     float64
	limit   int
	u       int32
	pu      float64
	up, low float64 // NaN until needed
	// upA, lowA are the pair's safe bounds (dp.Pair.SafeBounds): a neighbour inside
	// them passes without the certified bound (which most vertices then never
	// compute).
	upA, lowA float64
	// RankAll ranks every edge for Worst, not only those not clearly inside their
	// bounds (Verify's second pass when every edge was clearly inside).
	RankAll bool
	// The certified bounds of the values seen last (dp.Memo: exactly the bound of
	// that value): where values repeat (a value per distance from a balanced
	// hitting set) a vertex's bound is a lookup, not a certified computation.
	upper, lower func(float64) float64
	ups, lows    dp.Memo
	// The last edge's values and approximate excesses (a pure function of the
	// two): u's neighbours above it often share a value (a hypercube's next layer,
	// the next distance from a balanced hitting set).
	exU, exV   uint64
	ex0, ex1   float64
	exRemember bool
}

// NewAuditor starts an empty audit (Verify's tol and limit).
func NewAuditor(pair dp.Pair, tol float64, limit int) *Auditor {
	return &Auditor{Audit: NewAudit(), pair: pair, tol: tol, limit: limit, upper: pair.Upper, lower: pair.Lower}
}

// Vertex starts the edges of u, whose exact value (dp.ExactValue) is pu.
func (x *Auditor) Vertex(u int32, pu float64) {
	x.u, x.pu, x.up, x.low = u, pu, math.NaN(), math.NaN()
	x.upA, x.lowA = math.Inf(-1), math.Inf(1) // nothing is clearly inside
	if !x.RankAll && !dp.Tail(pu) {
		x.lowA, x.upA = x.pair.SafeBounds(pu)
		x.lowA = max(x.lowA, 0) // a tail's value is below 0: never clearly inside
	}
}

// Edge audits the edge from the current vertex to v, whose exact value is pv. A
// value clearly inside both float64 bounds costs two comparisons (this part inlines).
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
	if dp.Tail(pu) || dp.Tail(pv) {
		x.tailEdge(v, pv)
		return
	}
	ok := true
	switch {
	case pv > pu:
		if pv <= x.upA {
			break
		}
		if x.up != x.up {
			x.up = x.ups.Get(pu, x.upper)
		}
		ok = pv <= x.up
	case pv < pu:
		if pv >= x.lowA {
			break
		}
		if x.low != x.low {
			x.low = x.lows.Get(pu, x.lower)
		}
		ok = pv >= x.low
	case pv != pu: // NaN
		ok = false
	}
	// Rank by an approximate excess (Verify makes the winner's exact). Edges clearly
	// inside their bounds are not ranked (unless RankAll): where any edge comes within
	// dp.ApproxMargin of a bound, the tightest is among those.
	ex0, ex1 := x.approxExcess(pu, pv)
	if ok && (a.WorstBad || ex0 <= a.Worst.Excess && ex1 <= a.Worst.Excess) {
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
			a.Worst, a.WorstBad = edgeViolation(x.u, v, j, pu, pv, ex), bad
		}
	}
}

// approxExcess is x.pair.ApproxExcess(pu, pv), the last edge's when its values
// were the same, bit for bit.
func (x *Auditor) approxExcess(pu, pv float64) (float64, float64) {
	bu, bv := math.Float64bits(pu), math.Float64bits(pv)
	if !x.exRemember || bu != x.exU || bv != x.exV {
		x.ex0, x.ex1 = x.pair.ApproxExcess(pu, pv)
		x.exU, x.exV, x.exRemember = bu, bv, true
	}
	return x.ex0, x.ex1
}

func edgeViolation(u, v int32, one bool, pu, pv, ex float64) EdgeViolation {
	if !one {
		pu, pv = 1-pu, 1-pv
	}
	return EdgeViolation{U: u, V: v, Output: one, PU: pu, PV: pv, Excess: ex}
}

// tailEdge audits an edge with a tail at one end at least (dp.Tail): exactly, with
// dp.Pair.AllowedExact, and ranked for Worst by the distance of Pr[M = 0] from its
// allowed interval (the excess of Pair.Excess on Pr[M = 0] where both ends are
// tails), which Exact leaves as it is.
func (x *Auditor) tailEdge(v int32, pv float64) {
	pu := x.pu
	ok := x.pair.AllowedExact(pu, pv)
	q0u, q0v := dp.ExactProb(pu, false), dp.ExactProb(pv, false)
	var ex float64
	switch tu, tv := dp.Tail(pu), dp.Tail(pv); {
	case tu && tv:
		ex = x.pair.Excess(q0u, q0v, true)
	case tu:
		lo, hi := x.pair.Across(pv)
		ex = max(lo-q0u, q0u-hi)
	default:
		lo, hi := x.pair.Across(pu)
		ex = max(lo-q0v, q0v-hi)
	}
	switch {
	case !ok:
		ex = max(ex, math.SmallestNonzeroFloat64)
	case ex > 0:
		ex = 0
	}
	a := &x.Audit
	if !ok && ex > x.tol {
		a.Violations++
		if len(a.First) < x.limit {
			a.First = append(a.First, EdgeViolation{U: x.u, V: v, PU: q0u, PV: q0v, Excess: ex})
		}
	}
	if a.better(!ok, ex) {
		a.Worst, a.WorstBad = EdgeViolation{U: x.u, V: v, PU: q0u, PV: q0v, Excess: ex}, !ok
	}
}
