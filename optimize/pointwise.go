package optimize

import (
	"context"
	"math"
)

// pointwiseUpper is a certified upper bound on the utility of every DP mechanism
// meeting the floors f, from a bound on each dataset's p_true alone: an answer-1
// dataset w has p_one(w) ≤ U*^d(p_one(b)) for every answer-0 dataset b at distance
// d (the DP inequalities along a shortest path), and p_one(b) ≤ 1 − f[0]; so
// p_true(w) ≤ U*^{d0(w)}(1 − f[0]), d0 the distance to the nearest answer-0 dataset
// (U* is non-decreasing); likewise an answer-0 dataset's p_true = Pr[M = 0] ≤
// U*^{d1}(1 − f[1]). U* is replaced by uUp ≥ it (the lines' certificate ends,
// rounded up), and the sum is rounded up: Σ_v w(v)·ub(v) ≥ OPT.
//
// It is the exact optimum when the floors force the boundary: at f = (α, α) every
// boundary dataset has p_true α (Worst's certificate), and the balanced α on the
// hitting set, extended, reaches U*^{d}(1 − α) = U*^{d−1}(α) at every dataset (its
// nearest boundary dataset of its own answer is at distance d − 1): the cheap
// certificate that the balanced α is optimal, two BFS and a sum instead of an LP.
// Without floors it is Σ w (no information).
func pointwiseUpper(ctx context.Context, p *Problem, lines []line, f Floors) (float64, error) {
	g, n := p.G, p.G.N()
	var src [2][]int32
	for v := range n {
		c := 0
		if p.Answer[v] {
			c = 1
		}
		src[c] = append(src[c], int32(v))
	}
	// For colour c, the bound starts at the other answer's datasets: 1 − f[other].
	var start [2]float64
	var from [2][]int32 // colour c's distances are from the other answer's datasets
	for c := range 2 {
		o := 1 - c
		if start[c] = addUp(1, -f[o]); start[c] < 1 && len(src[o]) > 0 {
			from[c] = src[o]
		} // else no bound for colour c
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	dist := g.DistancesFrom(from[0], from[1])
	var ub [2][]float64 // ub[c][d]: U^d at the start, up to where it reaches 1
	for c := range 2 {
		if dist[c] == nil {
			continue
		}
		ub[c] = []float64{start[c]}
		for a := start[c]; a < 1 && len(ub[c]) < n+1; {
			a = uUp(lines, a)
			ub[c] = append(ub[c], a)
		}
	}
	sum := 0.0
	for v, w := range p.Weight {
		if w == 0 {
			continue
		}
		c := 0
		if p.Answer[v] {
			c = 1
		}
		b := 1.0
		if dist[c] != nil {
			if d := dist[c][v]; d >= 0 && int(d) < len(ub[c]) {
				b = ub[c][d]
			}
		}
		sum = addUp(sum, mulUp(w, b))
	}
	return sum, nil
}

// uUp is an upper bound on U*(a) for a in [0, 1], rounded up: the minimum, over the
// certificate's lines c·a + d (c ≤ eHi, d ≤ dUp: for μ-GDP the tangents above U*),
// of both rows an arc gives (lines.go): x_u ≤ c·x_v + d and 1 − x_v ≤ c·(1 − x_u) + d,
// that is x_u ≤ 1 − (1 − x_v − d)/c; each is largest at c = eHi (for the second,
// when 1 − a − d ≥ 0; otherwise it bounds nothing below 1), d = dUp. Capped at 1.
func uUp(lines []line, a float64) float64 {
	u := 1.0
	for _, l := range lines {
		u = min(u, addUp(mulUp(l.eHi, a), l.dUp))
		if r := subDown(subDown(1, a), l.dUp); r >= 0 {
			u = min(u, addUp(1, -divDown(r, l.eHi)))
		}
	}
	return u
}

// divDown is a/b rounded down, for a ≥ 0 and b > 0 (FMA gives the residual of q·b).
func divDown(a, b float64) float64 {
	q := a / b
	if q > 0 && math.FMA(q, b, -a) > 0 || q != 0 && q < 0x1p-960 {
		return math.Nextafter(q, 0)
	}
	return q
}
