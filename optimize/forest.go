package optimize

import (
	"context"
	"math"
	"slices"
)

// forestDual is LP multipliers built from a candidate mechanism x (p_one) and its
// binding distances dist, without iterating on the LP: a dual that certifies x when
// x is optimal, as the balanced α often is with the floors lowered (docs/OPTIMIZE.md,
// "Method"). Any multipliers give a certified bound (certifiedUpper), so this is a
// cheap first try before PDHG; nil when the framework has several lines.
//
// Stationarity asks that every dataset's coefficient s_v + (Kᵀy)_v be 0 at an
// interior optimum, with y_p ≥ 0 only on rows at their lower end and ≤ 0 only on rows
// at their upper end. Two steps:
//
//  1. The forest. A dataset off the boundary (all its neighbours share its answer)
//     holds its value because a row to a neighbour nearer its binding dataset is
//     tight; in decreasing distance, the multiplier on that row cancels the
//     dataset's coefficient (its weight and what its own subtree carried to it) and
//     carries it on, scaled by the row's slope, until it reaches the boundary.
//  2. The boundary. At the balanced α every boundary edge t ~ b (t answers 1, b 0)
//     is tight in both its rows (α is the kink of U*), which move coefficient from
//     t to b at a ratio in [b/a, a/b] (line.a, line.b). Each answer-0 boundary
//     dataset's deficit D_b (minus its coefficient) is split over its tight edges in
//     proportion to weights λ_t, which are scaled until every answer-1 boundary
//     dataset's share F_t lies in [S_t·b/a, S_t·a/b] (S_t its coefficient, which it
//     then pays exactly at one ratio); the ratio is then realised by mixing the two
//     rows. Where that fails (x not optimal) the coefficients left over widen the bound.
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
	// A row is tight at its end e: the float64 extension's values, within rounding.
	const tol = 1e-12
	tight := func(row, e float64) bool { return row-e <= tol && e-row <= tol }

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
	for t := range int32(n) {
		if !boundary[t] || !m.ans[t] {
			continue
		}
		for p := g.Off[t]; p < g.Off[t+1]; p++ {
			b := g.Adj[p]
			q := int64(m.rev[p])
			if !m.ans[b] && tight(l.a*x[b]-l.b*x[t], l.slo) && tight(l.a*x[t]-l.b*x[b], l.shi) {
				es = append(es, edge{t, b, p, q})
			}
		}
	}
	ratio := l.a / l.b
	lam := make([]float64, n)
	for _, e := range es {
		if coef[e.t] > 0 {
			lam[e.t] = 1
		}
	}
	share, sum := make([]float64, n), make([]float64, n)
	shares := func() {
		clear(share)
		clear(sum)
		for _, e := range es {
			sum[e.b] += lam[e.t]
		}
		for _, e := range es {
			if s := sum[e.b]; s > 0 {
				share[e.t] += -coef[e.b] * lam[e.t] / s
			}
		}
	}
	for range forestScalings {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		shares()
		out := false
		for _, e := range es {
			t := e.t
			S, F := coef[t], share[t]
			if lam[t] == 0 || F == 0 || F <= S*ratio && F >= S/ratio {
				continue
			}
			out = true
			// Half the step (a square root), so that tops sharing bottoms settle
			// instead of overshooting together.
			if F > S*ratio {
				lam[t] *= math.Sqrt(S * ratio / F)
			} else {
				lam[t] *= math.Sqrt(S / ratio / F)
			}
			share[t] = S // scaled once per round
		}
		if !out {
			break
		}
	}
	shares()
	a, b := l.a, l.b
	det := a*a - b*b
	if det <= 0 {
		return y, nil // ε = 0: no room between the rows
	}
	for _, e := range es {
		s, F := sum[e.b], share[e.t]
		if s == 0 || F == 0 {
			continue
		}
		f := -coef[e.b] * lam[e.t] / s             // what b receives over this edge
		c := min(max(f*coef[e.t]/F, f*b/a), f*a/b) // what t pays for it
		// b gains a·Y1 + b·Y2 = f and t pays b·Y1 + a·Y2 = c, Y1, Y2 ≥ 0.
		y[e.p1] += max((a*f-b*c)/det, 0)
		y[e.p2] -= max((a*c-b*f)/det, 0)
	}
	return y, nil
}

// forestScalings bounds step 2's rounds of scaling.
const forestScalings = 200
