package optimize

import (
	"context"
	"math"
	"slices"
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
//     holds its value because a row to a neighbour nearer its binding dataset is
//     tight; in decreasing distance, the multiplier on that row cancels the
//     dataset's coefficient (its weight and what its own subtree carried to it) and
//     carries it on, scaled by the row's slope, until it reaches the boundary.
//  2. The boundary. At the balanced α every boundary edge t ~ b (t answers 1, b 0)
//     is tight in both its rows (α is the kink of U*), which move coefficient from
//     t to b at a ratio in [b/a, a/b] (line.a, line.b). Each answer-0 boundary
//     dataset's deficit D_b (minus its coefficient) is sent over its tight edges so
//     that every answer-1 boundary dataset receives F_t in [S_t·b/a, S_t·a/b] (S_t
//     its coefficient, which it then pays exactly at one ratio): a flow with bounds
//     (boundaryFlow); the ratio is then realised by mixing the two rows.
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
	y := make([]float64, len(g.Adj))
	coef := slices.Clone(m.s)
	boundary := make([]bool, n)
	for v := range n {
		for _, u := range g.Neighbours(int32(v)) {
			if m.ans[u] != m.ans[v] {
				boundary[v] = true
				break
			}
		}
	}

	// 1. The forest, in decreasing distance.
	var byDist [][]int32
	for v := range n {
		if d := dist[v]; d > 0 && !boundary[v] {
			for int(d) >= len(byDist) {
				byDist = append(byDist, nil)
			}
			byDist[d] = append(byDist[d], int32(v))
		}
	}
	for d := int32(len(byDist)) - 1; d > 0; d-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, v := range byDist[d] {
			gv := coef[v]
			if gv == 0 {
				continue
			}
			for p := g.Off[v]; p < g.Off[v+1]; p++ {
				u := g.Adj[p]
				if dist[u] != d-1 && !boundary[u] {
					continue
				}
				// Row p (v→u), a·x_u − b·x_v: −b·y_p at v cancels gv.
				if yp, row := gv/l.b, l.a*x[u]-l.b*x[v]; yp > 0 && tight(row, l.slo) || yp < 0 && tight(row, l.shi) {
					y[p] += yp
					coef[u] += l.a * yp
					coef[v] = 0
					break
				}
				// Row q (u→v), a·x_v − b·x_u: a·y_q at v cancels gv.
				q := int64(m.rev[p])
				if yq, row := -gv/l.a, l.a*x[v]-l.b*x[u]; yq > 0 && tight(row, l.slo) || yq < 0 && tight(row, l.shi) {
					y[q] += yq
					coef[u] -= l.b * yq
					coef[v] = 0
					break
				}
			}
		}
	}

	// 2. The boundary: its edges tight in both rows (row 1: arc t→b at its lower
	// end; row 2: arc b→t at its upper end).
	type edge struct {
		t, b   int32
		p1, p2 int64
	}
	var es []edge
	var ends [][2]int32 // each edge's (answer-0 end, answer-1 end)
	for t := range int32(n) {
		if !boundary[t] || !m.ans[t] {
			continue
		}
		for p := g.Off[t]; p < g.Off[t+1]; p++ {
			b := g.Adj[p]
			q := int64(m.rev[p])
			if !m.ans[b] && tight(l.a*x[b]-l.b*x[t], l.slo) && tight(l.a*x[t]-l.b*x[b], l.shi) {
				es = append(es, edge{t, b, p, q})
				ends = append(ends, [2]int32{b, t})
			}
		}
	}
	// The split is a flow: each answer-0 end sends its deficit D_b over its edges, each
	// answer-1 end t receives between S_t·b/a and S_t·a/b (it then pays exactly S_t, at
	// one ratio). Found by a max-flow in two phases: the lower bounds first, then the
	// rest up to the upper ones (an augmenting path never lowers a sink arc's flow).
	ratio := l.a / l.b
	f, err := boundaryFlow(ctx, n, ends, coef, ratio)
	if err != nil {
		return nil, err
	}
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
	toBox(m, x, y, coef)
	return y, nil
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
func toBox(m *lp, x, y, coef []float64) {
	g, l := m.g, m.lines[0]
	// over is v's full coefficient passed over a tight row on arc p (v→u): the row's
	// multiplier and what it adds to u's coefficient; ok false when no row of the
	// arc is tight in that direction.
	over := func(v int32, p int64, gv float64) (row int64, yr, d float64, ok bool) {
		u := g.Adj[p]
		// Row p (v→u), a·x_u − b·x_v: y_p = gv/b cancels gv at v, a·y_p reaches u.
		if yp, r := gv/l.b, l.a*x[u]-l.b*x[v]; yp > 0 && tight(r, l.slo) || yp < 0 && tight(r, l.shi) {
			return p, yp, l.a * yp, true
		}
		// Row q (u→v), a·x_v − b·x_u: y_q = −gv/a cancels gv at v, −b·y_q reaches u.
		if yq, r := -gv/l.a, l.a*x[v]-l.b*x[u]; yq > 0 && tight(r, l.slo) || yq < 0 && tight(r, l.shi) {
			return int64(m.rev[p]), yq, -l.b * yq, true
		}
		return 0, 0, 0, false
	}
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
		if free(t, coef[t]) || !atEnd(t) {
			continue
		}
		for p := g.Off[t]; p < g.Off[t+1] && !free(t, coef[t]); p++ {
			v := g.Adj[p]
			gv := coef[v]
			if gv == 0 || atEnd(v) {
				continue
			}
			row, yr, d, ok := over(v, int64(m.rev[p]), gv)
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
		gv := coef[v]
		if free(v, gv) {
			continue
		}
		for p := g.Off[v]; p < g.Off[v+1] && gv != 0; p++ {
			row, yr, d, ok := over(v, p, gv)
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
}

// boundaryFlow is the flow on each edge (b, t) of es: every b (an answer-0 end)
// sends D_b = −coef[b] (when positive) and every t (an answer-1 end) receives
// between S_t/ratio and S_t·ratio, S_t = coef[t] (0 when not positive), as far as a
// float64 max-flow (Dinic's, in two phases) finds; what it cannot place widens the
// bound.
func boundaryFlow(ctx context.Context, n int, es [][2]int32, coef []float64, ratio float64) ([]float64, error) {
	if len(es) == 0 {
		return nil, nil
	}
	// Nodes: 0 the source, 1 the sink, then the ends, numbered as met.
	id := make([]int32, n)
	var nodes int32 = 2
	node := func(v int32) int32 {
		if id[v] == 0 {
			id[v] = nodes
			nodes++
		}
		return id[v]
	}
	type arc struct {
		to   int32
		cap  float64
		next int32
	}
	var arcs []arc
	var head []int32
	add := func(u, v int32, c float64) int {
		for int(max(u, v)) >= len(head) {
			head = append(head, -1)
		}
		arcs = append(arcs, arc{v, c, head[u]})
		head[u] = int32(len(arcs) - 1)
		arcs = append(arcs, arc{u, 0, head[v]})
		head[v] = int32(len(arcs) - 1)
		return len(arcs) - 2
	}
	var scale float64
	edgeArc := make([]int, len(es))
	top := make([]bool, n) // an answer-1 end
	for i, e := range es {
		edgeArc[i] = add(node(e[0]), node(e[1]), math.Inf(1))
		top[e[1]] = true
	}
	sinkArc := make([]int, n) // an answer-1 end's arc to the sink
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
	eps := scale * 1e-13
	level := make([]int32, nodes)
	it := make([]int32, nodes)
	var queue []int32
	bfs := func() bool {
		for i := range level {
			level[i] = -1
		}
		level[0] = 0
		queue = append(queue[:0], 0)
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for a := head[u]; a >= 0; a = arcs[a].next {
				if v := arcs[a].to; arcs[a].cap > eps && level[v] < 0 {
					level[v] = level[u] + 1
					queue = append(queue, v)
				}
			}
		}
		return level[1] >= 0
	}
	var dfs func(u int32, push float64) float64
	dfs = func(u int32, push float64) float64 {
		if u == 1 {
			return push
		}
		for ; it[u] >= 0; it[u] = arcs[it[u]].next {
			a := it[u]
			v := arcs[a].to
			if arcs[a].cap <= eps || level[v] != level[u]+1 {
				continue
			}
			if got := dfs(v, min(push, arcs[a].cap)); got > 0 {
				arcs[a].cap -= got
				arcs[a^1].cap += got
				return got
			}
		}
		return 0
	}
	run := func() error {
		for bfs() {
			if err := ctx.Err(); err != nil {
				return err
			}
			copy(it, head)
			for dfs(0, math.Inf(1)) > 0 {
			}
		}
		return nil
	}
	if err := run(); err != nil { // the lower bounds
		return nil, err
	}
	for v, a := range sinkArc { // then the rest, up to the upper ones
		if top[v] {
			S := max(coef[v], 0)
			arcs[a].cap += S*ratio - S/ratio
		}
	}
	if err := run(); err != nil {
		return nil, err
	}
	f := make([]float64, len(es))
	for i, a := range edgeArc {
		f[i] = arcs[a^1].cap // the flow is the reverse arc's capacity
	}
	return f, nil
}
