package optimize

import (
	"context"
	"math"

	"github.com/graphdp/graphdp/internal/words"
)

// Directed rounding in float64 with error-free transformations: the rounded result
// is moved one ulp outward exactly when the exact result lies beyond it, so each
// function returns the exact result rounded up (down).

func addUp(a, b float64) float64 {
	s := a + b
	if twoSumErr(a, b, s) > 0 {
		return math.Nextafter(s, math.Inf(1))
	}
	return s
}

func addDown(a, b float64) float64 {
	s := a + b
	if twoSumErr(a, b, s) < 0 {
		return math.Nextafter(s, math.Inf(-1))
	}
	return s
}

// twoSumErr is (a + b) − s exactly, for s = fl(a + b) (Knuth's TwoSum).
func twoSumErr(a, b, s float64) float64 {
	bb := s - a
	return (a - (s - bb)) + (b - bb)
}

// mulUp is a·b rounded up. FMA gives the exact residual a·b − p, except where p
// underflows: there the product is bumped outward unconditionally (still a bound).
func mulUp(a, b float64) float64 {
	p := a * b
	if p != 0 && math.Abs(p) < 0x1p-960 || p == 0 && a != 0 && b != 0 {
		return math.Nextafter(p, math.Inf(1))
	}
	if math.FMA(a, b, -p) > 0 {
		return math.Nextafter(p, math.Inf(1))
	}
	return p
}

func mulDown(a, b float64) float64 { return -mulUp(-a, b) }

// certifiedUpper is UB(y) of doc.go (y on PDHG's scaled rows, line.b, taken as y·b on
// the real ones: any multipliers give a bound, so the product's rounding is harmless), every operation rounded up, with each line's
// slope replaced by the end of its certified enclosure [eLo, eHi] that makes each
// term larger and its intercept by the certificate's dUp (lines.go: for μ-GDP the
// tangent above U*, so the bound is on the outer polytope, which contains every
// μ-GDP mechanism): for any y it is at least the LP's optimum (weak duality for the
// box-constrained LP: for every feasible x, s·x ≤ (s + Kᵀy)·x − (the rows' support
// term) ≤ Σ max over the box of (s + Kᵀy)_v·x_v + …). The box is the real one: the
// answer-0 end 1 − Floor[0] rounded up (lp.certHi0), the answer-1 floor exact.
func certifiedUpper(ctx context.Context, m *lp, y []float64) (float64, error) {
	g := m.g
	arcs := int64(len(g.Adj))
	parts := make([]float64, len(m.parts))
	err := m.each(ctx, func(k int, lo, hi int32) {
		ub := 0.0
		for u := lo; u < hi; u++ {
			t := m.s[u]
			for j, l := range m.lines {
				yj := y[int64(j)*arcs : int64(j+1)*arcs]
				// hi = c − 1 + d, rounded up at the upper ends of c and d.
				hiUp := addUp(addUp(l.eHi, -1), l.dUp)
				for p := g.Off[u]; p < g.Off[u+1]; p++ {
					// A multiplier 0 adds nothing (most rows of the forest's dual).
					yr := yj[m.rev[p]] * l.b // PDHG's scaled row's multiplier, on the real row
					// c·yr is at most eHi·yr for yr ≥ 0 and eLo·yr for yr < 0.
					if yr > 0 {
						t = addUp(t, mulUp(l.eHi, yr))
					} else if yr < 0 {
						t = addUp(t, mulUp(l.eLo, yr))
					}
					yp := yj[p] * l.b
					if yp != 0 {
						t = addUp(t, -yp)
					}
					if yp > 0 {
						ub = addUp(ub, mulUp(yp, l.dUp))
					} else if yp < 0 {
						ub = addUp(ub, mulUp(-yp, hiUp))
					}
				}
			}
			// max over the box of t·x_v, rounded up (t is above the exact
			// coefficient, and the maximum grows with it as x_v ≥ 0).
			switch c := words.Bit(m.ans[u]); {
			case t > 0 && c == 1:
				ub = addUp(ub, t)
			case t > 0:
				ub = addUp(ub, mulUp(t, m.certHi0))
			case t < 0 && c == 1:
				ub = addUp(ub, mulUp(t, m.boxLo[1]))
			}
		}
		parts[k] = ub
	})
	if err != nil {
		return 0, err
	}
	ub := sumUp(m.s, m.c0)
	for _, p := range parts {
		ub = addUp(ub, p)
	}
	return ub, nil
}

// sumUp is c0 rounded up (c0 is the sum of the answer-0 weights, recomputed here
// with upward rounding: the float64 sum in newLP may be below it).
func sumUp(s []float64, _ float64) float64 {
	c0 := 0.0
	for _, sv := range s {
		if sv < 0 {
			c0 = addUp(c0, -sv)
		}
	}
	return c0
}

// certifiedUtility is Σ w(v)·p_true(v) of a mechanism given by p_one, rounded down:
// p_true is p_one for answer 1 and the real number 1 − p_one for answer 0.
func certifiedUtility(p *Problem, pone []float64) float64 {
	u := 0.0
	for v, w := range p.Weight {
		if w == 0 {
			continue
		}
		pt := pone[v]
		if !p.Answer[v] {
			pt = addDown(1, -pone[v])
		}
		u = addDown(u, mulDown(w, pt))
	}
	return u
}
