package optimize

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/graphdp/graphdp/bfs"
)

// mixMargin is added to the measured largest violation before mixing: it covers the
// float64 error of measuring it with the rounded e^ε (a few ulps of values ≤ e^ε).
const mixMargin = 1e-13

// mix returns x moved towards the uniform mechanism ½ just far enough that every
// arc row holds: x_t = (1 − t)·x + t/2. Every row has slack s0 = (e − 1)/2 + δ at ½
// and excess at most viol at x, so t = viol/(viol + s0) suffices (the rows are
// linear). With s0 = 0 (ε = δ = 0) nothing is mixed: the caller solves that case
// exactly. The extension of x_t's restriction (extend) then repairs what float
// rounding leaves (bfs.Solve's tolerance, docs/DESIGN.md §8.2).
func mix(m *lp, x []float64, viol float64) (xt []float64, t float64) {
	s0 := (m.e-1)/2 - m.lo
	xt = slices.Clone(x)
	if viol <= 0 || s0 <= 0 {
		return xt, 0
	}
	viol += mixMargin
	t = min(1, viol/(viol+s0)*(1+1e-9))
	for v, xv := range x {
		xt[v] = (1-t)*xv + t*0.5
	}
	return xt, t
}

// maxViolation is the largest row excess of x over all arcs (float64, nearest e^ε).
func maxViolation(ctx context.Context, m *lp, x []float64) (float64, error) {
	parts := make([]float64, len(m.parts))
	err := m.each(ctx, func(k int, lo, hi int32) {
		w := 0.0
		for u := lo; u < hi; u++ {
			for p := m.g.Off[u]; p < m.g.Off[u+1]; p++ {
				w = max(w, m.violation(x, u, p))
			}
		}
		parts[k] = w
	})
	return slices.Max(parts), err
}

// restrict is x's p_true on the hitting set: x_h for answer 1, 1 − x_h for answer 0.
func restrict(p *Problem, hit []int32, x []float64) []float64 {
	pt := make([]float64, len(hit))
	for i, h := range hit {
		pt[i] = bfs.OutputPTrue(p.Answer[h], x[h], math.NaN())
	}
	return pt
}

// maxExtendRounds bounds extend's rounds: each is a bfs.Solve whose repair (if any)
// moves values by at most the tolerance; one or two rounds settle in practice.
const maxExtendRounds = 8

// extend solves the optimal extension of the hitting-set values (the paper's main
// theorem, docs/DESIGN.md §3.2) with the propagation engine, and returns the values
// that solve it without any repair, so that `graphdp run` on them computes this same
// mechanism bit for bit: when bfs.Solve moves a value onto its bound, the moved
// value (as the mechanism's p_true) is solved again until nothing moves.
func extend(ctx context.Context, p *Problem, hit []int32, ptrue []float64) (*bfs.Solution, []float64, error) {
	for range maxExtendRounds {
		in, err := bfs.NewInstance(p.G, p.Answer, hit, ptrue, p.Pair)
		if err != nil {
			return nil, nil, err
		}
		sol, err := bfs.Solve(ctx, in, bfs.Propagate{}, 3)
		if err != nil {
			return nil, nil, err
		}
		if sol.Infeasible > 0 {
			v := sol.Violations[0]
			return nil, nil, fmt.Errorf("optimize: hitting-set values not consistent (vertex %d over its bound %v from vertex %d); the mixing step should prevent this", v.H, v.Bound, v.By)
		}
		next := make([]float64, len(hit))
		for i, h := range hit {
			next[i] = sol.PTrue[h]
		}
		if sol.Repairs == 0 && slices.Equal(next, ptrue) {
			return sol, ptrue, nil
		}
		ptrue = next
	}
	return nil, nil, fmt.Errorf("optimize: the hitting-set values did not settle in %d rounds of repair", maxExtendRounds)
}
