package optimize

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"

	"github.com/graphdp/graphdp/internal/words"
)

// mixMargin is added to the measured largest violation before mixing: it covers the
// float64 error of measuring it with the rounded e^ε (a few ulps of values ≤ e^ε).
const mixMargin = 1e-13

// reference is the point the rounding mixes towards (mix): p_one z[c] on every
// answer-c dataset, inside the box (the floors), with slack s0 > 0 in every arc row
// when one exists. Without floors it is the uniform mechanism ½, whose every row has
// slack (e^ε − 1)/2 + δ, the most any point has. With floors it maximises the
// smallest slack over the box: a concave piecewise-linear function of two numbers,
// maximised by a grid and a pattern search. s0 ≤ 0 means the floors leave no room
// (at their largest feasible values): then no rounding is tried, and the candidates
// of Optimize (one of which meets the floors exactly) are the mechanisms.
func reference(m *lp) (z [2]float64, s0 float64) {
	slack := func(z [2]float64) float64 {
		s := math.Inf(1)
		for a := range 2 {
			for b := range 2 {
				if !m.arcs[a][b] {
					continue
				}
				for _, l := range m.lines {
					r := l.e*z[b] - z[a] // the row of an arc from an answer-a to an answer-b dataset
					s = min(s, r-l.lo, l.hi-r)
				}
			}
		}
		return s
	}
	in := func(z [2]float64) bool {
		return z[0] >= m.boxLo[0] && z[0] <= m.boxHi[0] && z[1] >= m.boxLo[1] && z[1] <= m.boxHi[1]
	}
	z = [2]float64{0.5, 0.5}
	if in(z) {
		return z, slack(z)
	}
	z = [2]float64{m.boxLo[0], m.boxLo[1]}
	s0 = slack(z)
	try := func(c [2]float64) bool {
		c[0] = min(max(c[0], m.boxLo[0]), m.boxHi[0])
		c[1] = min(max(c[1], m.boxLo[1]), m.boxHi[1])
		if v := slack(c); v > s0 {
			z, s0 = c, v
			return true
		}
		return false
	}
	const grid = 32
	for i := 0; i <= grid; i++ {
		for j := 0; j <= grid; j++ {
			try([2]float64{m.boxLo[0] + (m.boxHi[0]-m.boxLo[0])*float64(i)/grid, m.boxLo[1] + (m.boxHi[1]-m.boxLo[1])*float64(j)/grid})
		}
	}
	for step := 1.0 / grid; step > 1e-15; {
		moved := false
		for _, d := range directions {
			if try([2]float64{z[0] + d[0]*step, z[1] + d[1]*step}) {
				moved = true
			}
		}
		if !moved {
			step /= 2
		}
	}
	return z, s0
}

// mix returns x moved towards the reference point z (reference) just far enough
// that every arc row holds: x_t = (1 − t)·x + t·z. Every row has slack s0 at z and
// excess at most viol at x, so t = viol/(viol + s0) suffices (the rows are linear);
// x and z lie in the box, so x_t does (clamped against float64 rounding). With
// s0 ≤ 0 nothing is mixed: ε = δ = 0 is solved exactly (pure.go), and floors at
// their limit leave the candidates. The extension of x_t's restriction (extend)
// then repairs what float rounding leaves (bfs.Solve's tolerance, docs/DESIGN.md
// §8.2).
func mix(m *lp, x []float64, viol float64, z [2]float64, s0 float64) (xt []float64, t float64) {
	xt = slices.Clone(x)
	if viol <= 0 || s0 <= 0 {
		return xt, 0
	}
	viol += mixMargin
	t = min(1, viol/(viol+s0)*(1+1e-9))
	for v, xv := range x {
		c := words.Bit(m.ans[v])
		xt[v] = min(max((1-t)*xv+t*z[c], m.boxLo[c]), m.boxHi[c])
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
		pt[i] = x[h]
		if !p.Answer[h] {
			pt[i] = 1 - x[h]
		}
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

// pairs extends homogeneous hitting-set values on one problem and hitting set:
// p_true a0 on every answer-0 dataset of hit and a1 on every answer-1 one. The
// balanced pair (α, α) is extended once: under the default floors the first floor
// seed and the best homogeneous pair are that pair, and each extension is a
// bfs.Solve over the whole graph. Extensions depend on the graph, answers and privacy pair
// only, not on the weights.
type pairs struct {
	p     *Problem
	hit   []int32
	alpha float64
	bal   *bfs.Solution // the extension of (α, α), once made
	balPT []float64
}

func newPairs(p *Problem, hit []int32) *pairs {
	return &pairs{p: p, hit: hit, alpha: p.Pair.Balanced()}
}

// extend is the extension of the pair (a0, a1) and the hitting-set values that
// solve it without repair (the function extend).
func (e *pairs) extend(ctx context.Context, a0, a1 float64) (*bfs.Solution, []float64, error) {
	balanced := a0 == e.alpha && a1 == e.alpha
	if balanced && e.bal != nil {
		return e.bal, e.balPT, nil
	}
	pt := make([]float64, len(e.hit))
	for i, v := range e.hit {
		pt[i] = a0
		if e.p.Answer[v] {
			pt[i] = a1
		}
	}
	sol, pt, err := extend(ctx, e.p, e.hit, pt)
	if err == nil && balanced {
		e.bal, e.balPT = sol, pt
	}
	return sol, pt, err
}

// floorSeeds are the homogeneous hitting-set values (p_true of answer 0, of answer
// 1) of two mechanisms meeting feasible floors (floorsFeasible's construction): (A)
// answer-0 datasets at their floor, p_one = h = RD(1 − Floor[0]), and answer-1 ones
// at the most a neighbour allows, Upper(h) ≥ Floor[1]; (B) answer-1 datasets at
// their floor and answer-0 ones at the least p_one a neighbour allows,
// Lower(Floor[1]) ≤ h. Every other dataset's value is a bound from these through U,
// hence meets the floor too (U^d(a) ≥ a, and across the boundary
// U*(1 − Upper(h)) = 1 − L*(Upper(h)) ≥ 1 − h). The answer-0 value is p_true rounded
// up, so that 1 − p_true rounds to at most the intended p_one. Extensions that miss
// a floor after float64 rounding are left out by the caller (Floors.meets).
func floorSeeds(pair dp.Pair, f Floors) [2][2]float64 {
	h := f.hi0()
	return [2][2]float64{
		{addUp(1, -h), pair.Upper(h)},
		{addUp(1, -pair.Lower(f[1])), f[1]},
	}
}
