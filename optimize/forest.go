package optimize

import (
	"context"
	"math"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/cover"
)

// forestTol is how near the float64 extension's values come to a row's end or a
// box's end when they are at it, within rounding.
const forestTol = 1e-12

// tight reports whether a row's value is at its end e.
func tight(row, e float64) bool { return row-e <= forestTol && e-row <= forestTol }

// forestDual is LP multipliers built from a candidate mechanism x (p_one) and its
// binding distances dist, without iterating on the LP: a dual that certifies x when
// x is optimal, as the balanced α often is with the floors lowered (docs/OPTIMIZE.md,
// "Method"). Any multipliers give a certified bound (certifiedUpper), so this is a
// cheap first try before PDHG; nil when the framework has several lines.
//
// Stationarity asks that every dataset's coefficient s_v + (Kᵀy)_v be 0 at an
// interior optimum, with y_p ≥ 0 only on rows at their lower end and ≤ 0 only on rows
// at their upper end. Three steps:
//
//  1. The forest. A dataset off the boundary (all its neighbours share its answer)
//     holds its value because rows to neighbours nearer its binding dataset are
//     tight; in decreasing distance, multipliers on those rows cancel the
//     dataset's coefficient (its weight and what its subtree carried to it) and
//     carry it on, scaled by the rows' slopes, until it reaches the boundary. An
//     answer-1 dataset sends it over its first tight row; an answer-0 dataset
//     splits its deficit among its tight rows as step 2's flow routes it
//     (newRouting), so that it reaches the answer-1 datasets that need it.
//  2. The boundary. At the balanced α every boundary edge t ~ b (t answers 1, b 0)
//     is tight in both its rows (α is the kink of U*), which move coefficient from
//     t to b at a ratio in [b/a, a/b] (line.a, line.b). The answer-0 deficits
//     (minus the coefficients) go over the tight edges so that every answer-1
//     boundary dataset receives F_t in [S_t·b/a, S_t·a/b] (S_t its coefficient,
//     which it then pays exactly at one ratio): one flow with bounds
//     (boundaryFlow) from every answer-0 dataset's own deficit, over its tight
//     rows to parents, then over the edges; the ratio is then realised by mixing
//     the two rows.
//  3. The boxes (toBox). Coefficient still left over passes over tight rows: a
//     dataset held at an end of its box against its coefficient takes what cancels
//     it from its neighbours, then what is left goes to neighbours at an end of
//     their box, as far as their own coefficients keep them there. Where even that
//     fails (x not optimal) the coefficients left over widen the bound.
func forestDual(ctx context.Context, m *lp, x []float64, dist []int32) ([]float64, error) {
	if len(m.lines) != 1 {
		return nil, nil
	}
	g, l := m.g, m.lines[0]
	n := g.N()
	boundary := make([]bool, n)
	for _, v := range cover.BoundaryVertices(g, m.ans) {
		boundary[v] = true
	}
	var byDist [][]int32
	for v := range n {
		if d := dist[v]; d > 0 && !boundary[v] {
			for int(d) >= len(byDist) {
				byDist = append(byDist, nil)
			}
			byDist[d] = append(byDist[d], int32(v))
		}
	}
	// parent: u is nearer v's binding dataset than v (at distance d).
	parent := func(u int32, d int32) bool { return dist[u] == d-1 || boundary[u] }
	es, ends, err := tightBoundary(ctx, m, x, boundary, g.Workers())
	if err != nil {
		return nil, err
	}

	// 1. The forest, in decreasing distance: each dataset's coefficient goes to its
	// parents over tight rows, in the routing flow's proportions where one leaves
	// it, else to its first parent.
	route, err := newRouting(ctx, m, x, dist, boundary, byDist, parent, ends)
	if err != nil {
		return nil, err
	}
	y := make([]float64, len(g.Adj))
	coef := slices.Clone(m.s)
	if err := carry(ctx, m, x, byDist, parent, route, false, coef, y); err != nil {
		return nil, err
	}

	// 2. The boundary: its edges tight in both rows (tightBoundary), split as the
	// routing's flow split them.
	f := route.edge
	share := make([]float64, n)
	for i, e := range es {
		share[e.t] += f[i]
	}
	if a, b := l.a, l.b; a > b { // ε > 0: room between the rows
		det := a*a - b*b
		paid := make([]float64, len(es))
		for i, e := range es {
			f, F := f[i], share[e.t]
			if f <= 0 || F <= 0 {
				continue
			}
			c := min(max(f*coef[e.t]/F, f*b/a), f*a/b) // what t pays for what b receives
			// b gains a·Y1 + b·Y2 = f and t pays b·Y1 + a·Y2 = c, Y1, Y2 ≥ 0.
			y[e.p1] += max((a*f-b*c)/det, 0)
			y[e.p2] -= max((a*c-b*f)/det, 0)
			paid[i] = c
		}
		for i, e := range es {
			coef[e.b] += f[i]
			coef[e.t] -= paid[i]
		}
	}
	if err := toBox(ctx, m, x, y, coef); err != nil {
		return nil, err
	}
	return y, nil
}

// edge is a boundary edge tight in both rows: t answers 1, b 0; row 1 (arc t→b)
// at its lower end, row 2 (arc b→t) at its upper end.
type edge struct {
	t, b   int32
	p1, p2 int64
}

// tightBoundary is x's boundary edges tight in both rows, with each edge's
// (answer-0 end, answer-1 end), in arc order. The pass is split into k ranges of
// datasets (forestDual: g.Workers()), each listing its own, concatenated in range
// order: the lists do not depend on k.
func tightBoundary(ctx context.Context, m *lp, x []float64, boundary []bool, k int) ([]edge, [][2]int32, error) {
	g, l := m.g, m.lines[0]
	ranges := byArcs(g, k)
	es, ends := make([][]edge, len(ranges)), make([][][2]int32, len(ranges))
	var eg errgroup.Group
	for i, r := range ranges {
		eg.Go(func() error {
			check := pace(ctx)
			for t := r[0]; t < r[1]; t++ {
				if err := check(); err != nil {
					return err
				}
				if !boundary[t] || !m.ans[t] {
					continue
				}
				for p := g.Off[t]; p < g.Off[t+1]; p++ {
					b := g.Adj[p]
					if !m.ans[b] && tight(l.a*x[b]-l.b*x[t], l.slo) && tight(l.a*x[t]-l.b*x[b], l.shi) {
						es[i] = append(es[i], edge{t, b, p, int64(m.rev[p])})
						ends[i] = append(ends[i], [2]int32{b, t})
					}
				}
			}
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, nil, err
	}
	return slices.Concat(es...), slices.Concat(ends...), nil
}

// over is coefficient gv at v passed in full over a tight row of arc p (v→u, row
// p: a·x_u − b·x_v, or the reverse arc's row q: a·x_v − b·x_u): the row, its
// multiplier (of the sign the row's tight end allows) and what it adds to u's
// coefficient; ok false when neither row is tight in that direction.
func over(m *lp, x []float64, v int32, p int64, gv float64) (row int64, yr, d float64, ok bool) {
	l := m.lines[0]
	u := m.g.Adj[p]
	// Row p: y_p = gv/b cancels gv at v, a·y_p reaches u.
	if yp, r := gv/l.b, l.a*x[u]-l.b*x[v]; yp > 0 && tight(r, l.slo) || yp < 0 && tight(r, l.shi) {
		return p, yp, l.a * yp, true
	}
	// Row q: y_q = −gv/a cancels gv at v, −b·y_q reaches u.
	if yq, r := -gv/l.a, l.a*x[v]-l.b*x[u]; yq > 0 && tight(r, l.slo) || yq < 0 && tight(r, l.shi) {
		return int64(m.rev[p]), yq, -l.b * yq, true
	}
	return 0, 0, 0, false
}

// carry is forestDual's first step on coef and y: in decreasing distance, every
// dataset off the boundary passes its coefficient on to its parents (parent) over
// tight rows: to the first, or in route's proportions where route has a flow out
// of it. With hold, route's datasets keep theirs (newRouting's view before its
// flow).
func carry(ctx context.Context, m *lp, x []float64, byDist [][]int32, parent func(u, d int32) bool, route *routing, hold bool, coef, y []float64) error {
	g := m.g
	check := pace(ctx)
	for d := int32(len(byDist)) - 1; d > 0; d-- {
		for _, v := range byDist[d] {
			if err := check(); err != nil {
				return err
			}
			gv := coef[v]
			if gv == 0 {
				continue
			}
			if route != nil && route.idx[v] >= 0 {
				if hold {
					continue
				}
				if route.spread(m, x, v, gv, coef, y) {
					continue
				}
			}
			for p := g.Off[v]; p < g.Off[v+1]; p++ {
				if !parent(g.Adj[p], d) {
					continue
				}
				if row, yr, dd, ok := over(m, x, v, p, gv); ok {
					y[row] += yr
					coef[g.Adj[p]] += dd
					coef[v] = 0
					break
				}
			}
		}
	}
	return nil
}

// routing is how the answer-0 datasets off the boundary split their deficit among
// their parents: the forest sends each to its first parent, which may leave an
// answer-1 boundary dataset without the deficit its coefficient needs (step 2's
// bounds) while another has more than enough; a flow over every tight arc to a
// parent, together with the boundary edges, sends it where it is needed.
// Coefficients are counted in boundary units (κ: what a unit at v becomes at the
// boundary; the same over every arc kept, as where a distance's datasets share a
// value), so the arcs carry a plain flow.
type routing struct {
	idx  []int32   // v's index among the routed datasets, −1 for none (not routed)
	off  []int32   // routed dataset i's arcs are at[off[i]:off[i+1]]
	at   []int64   // an arc's CSR position
	flow []float64 // its flow
	edge []float64 // the flow on each tight boundary edge (tightBoundary's order)
}

// spread passes the deficit gv (< 0) over v's arcs in the flow's proportions;
// false when no flow leaves v.
func (r *routing) spread(m *lp, x []float64, v int32, gv float64, coef, y []float64) bool {
	i := r.idx[v]
	if i < 0 || !(gv < 0) {
		return false
	}
	lo, hi := r.off[i], r.off[i+1]
	total := 0.0
	for k := lo; k < hi; k++ {
		total += r.flow[k]
	}
	if !(total > 0) {
		return false
	}
	left := 0.0 // what no tight row takes (none: the arcs were kept tight for a deficit)
	for k := lo; k < hi; k++ {
		if r.flow[k] <= 0 {
			continue
		}
		p := r.at[k]
		piece := gv * r.flow[k] / total
		if row, yr, dd, ok := over(m, x, v, p, piece); ok {
			y[row] += yr
			coef[m.g.Adj[p]] += dd
		} else {
			left += piece
		}
	}
	coef[v] = left
	return true
}

// newRouting builds the flow network of routing and solves it with boundaryFlow:
// the answer-0 datasets off the boundary and their tight arcs to parents, then the
// boundary edges ends; the answer-1 ends' coefficients are the forest's.
func newRouting(ctx context.Context, m *lp, x []float64, dist []int32, boundary []bool, byDist [][]int32, parent func(u, d int32) bool, ends [][2]int32) (*routing, error) {
	g, l := m.g, m.lines[0]
	n := g.N()
	r := &routing{idx: make([]int32, n)}
	for v := range r.idx {
		r.idx[v] = -1
	}
	kappa := make([]float64, n)
	for v := range n {
		if boundary[v] {
			kappa[v] = 1
		}
	}
	// κ in increasing distance, from the first parent; the arcs kept agree with it.
	var inner [][2]int32
	r.off = []int32{0}
	check := pace(ctx)
	for d := 1; d < len(byDist); d++ {
		for _, v := range byDist[d] {
			if err := check(); err != nil {
				return nil, err
			}
			if m.ans[v] {
				continue
			}
			start := len(r.at)
			for p := g.Off[v]; p < g.Off[v+1]; p++ {
				u := g.Adj[p]
				if !parent(u, int32(d)) || kappa[u] == 0 {
					continue
				}
				_, _, dd, ok := over(m, x, v, p, -1)
				if !ok {
					continue
				}
				k := -dd * kappa[u] // a unit deficit at v is k at the boundary
				if kappa[v] == 0 {
					kappa[v] = k
				} else if math.Abs(k-kappa[v]) > 1e-9*kappa[v] {
					continue
				}
				r.at = append(r.at, p)
				inner = append(inner, [2]int32{v, u})
			}
			if len(r.at) > start {
				r.idx[v] = int32(len(r.off) - 1)
				r.off = append(r.off, int32(len(r.at)))
			}
		}
	}
	// The coefficients the flow places: the forest's with the routed datasets
	// holding their own, in boundary units.
	coef := slices.Clone(m.s)
	if err := carry(ctx, m, x, byDist, parent, r, true, coef, make([]float64, len(g.Adj))); err != nil {
		return nil, err
	}
	for v := range n {
		if r.idx[v] >= 0 {
			coef[v] *= kappa[v]
		}
	}
	var err error
	r.edge, r.flow, err = boundaryFlow(ctx, n, ends, inner, coef, l.a/l.b)
	return r, err
}

// toBox is forestDual's third step: a dataset whose coefficient is left over (it
// would widen the bound: it is not at the end of its box the coefficient pulls
// towards) passes it over a tight row to a neighbour at an end of its box, as far
// as that neighbour's own coefficient keeps pulling it there. Such a neighbour's
// coefficient costs the bound nothing while its sign holds: the box's end is its
// value. First each dataset held at an end of its box against its coefficient
// takes what it needs from its neighbours' coefficients over tight rows (so that a
// neighbour tight to several is shared among them), then the rest is passed on.
// This is what certifies a candidate whose boundary rows are tight in one row
// only: the near-constant answer of --objective accuracy with the floor lowered
// (an answer-1 dataset at p_one δ, its answer-0 neighbours at 0), or the floors
// themselves (answer-1 datasets at their floor, their neighbours inside).
func toBox(ctx context.Context, m *lp, x, y, coef []float64) error {
	g := m.g
	check := pace(ctx)
	// ends: v is at the lower, the upper end of its box.
	ends := func(v int32) (atLo, atHi bool) {
		lo, hi := m.box(v)
		return x[v] <= lo+forestTol, x[v] >= hi-forestTol
	}
	// free: coefficient c at v costs the bound nothing (0, or pulling v to the end
	// of its box where v is).
	free := func(v int32, c float64) bool {
		atLo, atHi := ends(v)
		return c == 0 || c > 0 && atHi || c < 0 && atLo
	}
	// room is how much u's coefficient may change by d (its sign) and still pull u
	// to the end of its box where it is; 0 when u is inside.
	room := func(u int32, d float64) float64 {
		switch atLo, atHi := ends(u); {
		case free(u, d):
			return math.Inf(1)
		case atLo && coef[u] < 0:
			return -coef[u]
		case atHi && coef[u] > 0:
			return coef[u]
		}
		return 0
	}
	atEnd := func(v int32) bool {
		atLo, atHi := ends(v)
		return atLo || atHi
	}
	n := int32(g.N())
	// Pull: t at an end of its box, its coefficient pulling it out, takes from its
	// neighbours inside their boxes what cancels it.
	for t := range n {
		if err := check(); err != nil {
			return err
		}
		if free(t, coef[t]) || !atEnd(t) {
			continue
		}
		for p := g.Off[t]; p < g.Off[t+1] && !free(t, coef[t]); p++ {
			v := g.Adj[p]
			gv := coef[v]
			if gv == 0 || atEnd(v) {
				continue
			}
			row, yr, d, ok := over(m, x, v, int64(m.rev[p]), gv)
			if !ok || d*coef[t] >= 0 {
				continue
			}
			k := min(1, math.Abs(coef[t]/d))
			y[row] += k * yr
			coef[t] += k * d
			coef[v] -= k * gv
		}
	}
	// Push: what is left inside a box goes to neighbours at an end of theirs.
	for v := range n {
		if err := check(); err != nil {
			return err
		}
		gv := coef[v]
		if free(v, gv) {
			continue
		}
		for p := g.Off[v]; p < g.Off[v+1] && gv != 0; p++ {
			row, yr, d, ok := over(m, x, v, p, gv)
			if !ok {
				continue
			}
			u := g.Adj[p]
			k := min(1, room(u, d)/math.Abs(d))
			y[row] += k * yr
			coef[u] += k * d
			gv -= k * gv
		}
		coef[v] = gv
	}
	return nil
}

// boundaryFlow is the flow on each edge (b, t) of es and on each arc of inner:
// every b (an answer-0 end) and every tail of an inner arc sends −coef[v] (when
// positive), inner arcs carry any amount to their heads, and every t (an answer-1
// end) receives between S_t/ratio and S_t·ratio, S_t = coef[t] (0 when not
// positive), as far as a float64 max-flow (Dinic's, in two phases) finds; what it
// cannot place widens the bound.
func boundaryFlow(ctx context.Context, n int, es, inner [][2]int32, coef []float64, ratio float64) (edges, inners []float64, err error) {
	if len(es) == 0 {
		return nil, make([]float64, len(inner)), nil
	}
	// Nodes: 0 the source, 1 the sink, then the datasets, numbered as met; the
	// arcs are counted as the ends are numbered.
	net := newFlowNet(n + 2)
	id := make([]int32, n)
	var nodes int32 = 2
	node := func(v int32) int32 {
		if id[v] == 0 {
			id[v] = nodes
			nodes++
		}
		return id[v]
	}
	for _, e := range es {
		net.count(node(e[0]), node(e[1]), 0)
	}
	check := pace(ctx)
	for _, e := range inner {
		if err := check(); err != nil {
			return nil, nil, err
		}
		net.count(node(e[0]), node(e[1]), 0)
	}
	top := make([]bool, n) // an answer-1 end
	for _, e := range es {
		top[e[1]] = true
	}
	var scale float64
	sinkArc := make([]int32, n) // an answer-1 end's arc to the sink
	// ends are the arcs to the sink and from the source, counted, then added.
	ends := func(add func(u, v int32, c float64) int32) {
		for v, k := range id {
			switch {
			case k == 0:
			case top[v]:
				sinkArc[v] = add(k, 1, max(coef[v], 0)/ratio) // the lower bound first
			case -coef[v] > 0:
				add(0, k, -coef[v])
				scale = max(scale, -coef[v])
			}
		}
	}
	ends(net.count)
	net.place(int(nodes))
	edgeArc, innerArc := make([]int32, len(es)), make([]int32, len(inner))
	for i, e := range es {
		edgeArc[i] = net.add(id[e[0]], id[e[1]], math.Inf(1))
	}
	for i, e := range inner {
		if err := check(); err != nil {
			return nil, nil, err
		}
		innerArc[i] = net.add(id[e[0]], id[e[1]], math.Inf(1))
	}
	ends(net.add)
	net.eps = scale * 1e-13
	if err := net.run(ctx); err != nil { // the lower bounds
		return nil, nil, err
	}
	for v, a := range sinkArc { // then the rest, up to the upper ones
		if top[v] {
			S := max(coef[v], 0)
			net.raise(a, S*ratio-S/ratio)
		}
	}
	if err := net.run(ctx); err != nil {
		return nil, nil, err
	}
	// The flow is the reverse arc's capacity.
	edges, inners = make([]float64, len(es)), make([]float64, len(inner))
	for i, a := range edgeArc {
		edges[i] = net.flow(a)
	}
	for i, a := range innerArc {
		inners[i] = net.flow(a)
	}
	return edges, inners, nil
}
