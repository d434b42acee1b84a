package optimize

import (
	"context"
	"math"

	"github.com/graphdp/graphdp/internal/words"
)

// exactPure solves ε = δ = 0 exactly: every edge forces p_one(u) = p_one(v), so a
// mechanism is one value c per connected component, in the box the floors leave:
// c ≥ Floor[1] if the component has an answer-1 dataset, c ≤ 1 − Floor[0] if it has
// an answer-0 one. The utility w1·c + w0·(1 − c) is linear in c, so the best c is
// an end of the box: the upper one when the component's answer-1 weight w1 is at
// least its answer-0 weight w0, else the lower one. The optimum is Σ over components
// of that value (rounded up, with the real box: the certified bound).
func exactPure(ctx context.Context, p *Problem, r *Result, f Floors, bound bool, finish func(string) (*Result, error)) (*Result, error) {
	g := p.G
	n := g.N()
	comp := make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	var w0, w1 []float64
	var has [][2]bool
	queue := make([]int32, 0, 64)
	for s := int32(0); int(s) < n; s++ {
		if comp[s] >= 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := int32(len(w0))
		w0, w1, has = append(w0, 0), append(w1, 0), append(has, [2]bool{})
		comp[s] = c
		queue = append(queue[:0], s)
		for len(queue) > 0 {
			u := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, v := range g.Neighbours(u) {
				if comp[v] < 0 {
					comp[v] = c
					queue = append(queue, v)
				}
			}
		}
	}
	for v, w := range p.Weight {
		c := comp[v]
		has[c][words.Bit(p.Answer[v])] = true
		if p.Answer[v] {
			w1[c] = addUp(w1[c], w)
		} else {
			w0[c] = addUp(w0[c], w)
		}
	}
	// The box of each component, as float64 values whose complement 1 − c is exact
	// (multiples of 2^−53), so that the hitting-set values, given as p_true, give
	// every dataset of the component the same p_one.
	box := func(c int32) (lo, hi float64) {
		lo, hi = 0, 1
		if has[c][1] {
			lo = math.Ceil(f[1]*0x1p53) / 0x1p53
		}
		if has[c][0] {
			hi = math.Floor(f.hi0()*0x1p53) / 0x1p53
		}
		return lo, min(max(lo, hi), 1) // lo ≤ hi but for floors within 2^−53 of each other
	}
	value := func(c int32, x float64) float64 { // w1·x + w0·(1 − x), rounded up
		return addUp(mulUp(w1[c], x), mulUp(w0[c], addUp(1, -x)))
	}
	ub := 0.0
	for c := range int32(len(w0)) {
		lo, hi := 0.0, 1.0
		if has[c][1] {
			lo = f[1]
		}
		if has[c][0] {
			hi = f.hi0Up()
		}
		ub = addUp(ub, max(value(c, lo), value(c, hi)))
	}
	pt := make([]float64, len(r.Hit))
	for i, h := range r.Hit {
		lo, hi := box(comp[h])
		x := lo
		if w1[comp[h]] >= w0[comp[h]] {
			x = hi
		}
		pt[i] = x // p_one = x on the whole component
		if !p.Answer[h] {
			pt[i] = 1 - x // exact
		}
	}
	sol, pt, err := extend(ctx, p, r.Hit, pt)
	if err != nil {
		return nil, err
	}
	if u := certifiedUtility(p, sol.POne); f.meets(p.Answer, sol.POne) && u > r.Utility {
		r.Solution, r.PTrue, r.Utility = sol, pt, u
	}
	if bound {
		r.Upper = min(r.Upper, ub)
	}
	return finish("exact")
}
