package optimize

import (
	"context"
)

// exactPure solves ε = δ = 0 exactly: every edge forces p_one(u) = p_one(v), so a
// mechanism is one value c per connected component, and the best c is 1 when the
// component's answer-1 weight is at least its answer-0 weight, else 0. The optimum
// is Σ over components of the larger weight (rounded up: the certified bound).
func exactPure(ctx context.Context, p *Problem, r *Result, bound bool, finish func(string) (*Result, error)) (*Result, error) {
	g := p.G
	n := g.N()
	comp := make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	var w0, w1 []float64
	queue := make([]int32, 0, 64)
	for s := int32(0); int(s) < n; s++ {
		if comp[s] >= 0 {
			continue
		}
		c := int32(len(w0))
		w0, w1 = append(w0, 0), append(w1, 0)
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
		if p.Answer[v] {
			w1[comp[v]] = addUp(w1[comp[v]], w)
		} else {
			w0[comp[v]] = addUp(w0[comp[v]], w)
		}
	}
	ub := 0.0
	for c := range w0 {
		ub = addUp(ub, max(w0[c], w1[c]))
	}
	pt := make([]float64, len(r.Hit))
	for i, h := range r.Hit {
		one := w1[comp[h]] >= w0[comp[h]]
		pt[i] = b2f(one == p.Answer[h]) // p_one = 1 where answer 1 wins
	}
	sol, pt, err := extend(ctx, p, r.Hit, pt)
	if err != nil {
		return nil, err
	}
	if u := certifiedUtility(p, sol.POne); u > r.Utility {
		r.Solution, r.PTrue, r.Utility = sol, pt, u
	}
	if bound {
		r.Upper = min(r.Upper, ub)
	}
	return finish("exact")
}
