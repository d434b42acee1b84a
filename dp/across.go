package dp

import (
	"math"
	"math/big"
)

// The other output's side (invariant 9). An edge whose ends have different answers
// may hold Pr[M(v) = 1] = x at one end exactly and Pr[M(w) = 0] = q at the other
// (docs/DESIGN.md §8.3). Its condition is, by the symmetry of every framework under
// exchanging the outputs, q ∈ [1 − U*(x), 1 − L*(x)]. When 1 − x is a float64 (x ≥ ½,
// Sterbenz, or x without bits below 2^−53) that interval is [Lower(1 − x),
// Upper(1 − x)]; otherwise it is computed here, exactly.

// OneMinus is 1 − p for p in [0, 1] rounded up (up) or down: the smallest or largest
// float64 on that side of the real 1 − p, and exact reports that 1 − p is a float64.
func OneMinus(p float64, up bool) (y float64, exact bool) {
	// Fast2Sum of 1 and −p (|1| ≥ |p|): 1 − p = y + t exactly.
	y = 1 - p
	t := -p - (y - 1)
	switch {
	case t > 0 && up:
		return math.Nextafter(y, 2), false
	case t < 0 && !up:
		return math.Nextafter(y, -1), false
	}
	return y, t == 0
}

// Across is the interval [lo, hi] of the float64 values b allowed as Pr[M(w) = 0] at a
// neighbour w of a vertex v with Pr[M(v) = 1] = x (equally: Pr[M(w) = 1] next to
// Pr[M(v) = 0] = x): lo = RU(1 − U*(x)), hi = RD(1 − L*(x)), so that b is allowed
// exactly when lo ≤ b ≤ hi (lo > hi when no float64 is).
func (p Pair) Across(x float64) (lo, hi float64) {
	if c, exact := OneMinus(x, false); exact {
		return p.Lower(c), p.Upper(c)
	}
	if p.fw == nil {
		lo, hi = p.ed.across(x)
	} else {
		lo, hi = p.fw.across(x)
	}
	return max(lo, 0), hi // +0, not the −0 a math/big path may round to

}

// AcrossLower is Across's lo alone, RU(1 − U*(x)): the bound one hop further of a pass
// on Pr[M = 0] whose value crosses ½ (package bfs), by the fast paths where they decide.
func (p Pair) AcrossLower(x float64) float64 {
	if c, exact := OneMinus(x, false); exact {
		return p.Lower(c)
	}
	switch fw := p.fw.(type) {
	case nil:
		if b, ok := p.ed.acrossLowerFast(x); ok {
			return b
		}
	case *gdp:
		if !(x > 0 && x < 1) || fw.mu == 0 {
			break
		}
		if b, ok := reflectedDD(x, -fw.mu, false); ok {
			return b
		}
	case *profile:
		b := 0.0
		for _, ed := range fw.pairs {
			l, ok := ed.acrossLowerFast(x)
			if !ok {
				l, _ = ed.across(x)
			}
			b = max(b, l)
		}
		return b
	}
	lo, _ := p.Across(x)
	return max(lo, 0) // +0, not the −0 a math/big path may round to
}

// acrossLowerFast is RU(max(1 − δ − e^ε·x, (1 − x − δ)·e^−ε, 0)) = RU(1 − U*(x)) by
// affine, the branches chosen as lowerFast chooses them (ok false: not decided here).
func (p *EpsDelta) acrossLowerFast(x float64) (float64, bool) {
	if !p.fast || !(x > 0 && x < 1) {
		return 0, false
	}
	l1a := 1 - p.Delta - float64(p.eps.hi*x)
	l2a := float64((1 - x - p.Delta) * p.ieps.hi)
	if max(l1a, l2a) < -2*ApproxMargin {
		return 0, true
	}
	b := 0.0
	ceilOf := func(v xf, ok bool) (float64, bool) {
		if !ok {
			return 0, false
		}
		s, ok := v.sign()
		if !ok {
			return 0, false
		}
		if s <= 0 {
			return 0, true
		}
		if v.hi < 0x1p-1000 {
			return v.ceilPositive()
		}
		return v.ceilNear()
	}
	if l1a >= l2a-2*ApproxMargin {
		f, ok := ceilOf(affine(1, -p.Delta, x, 0, 0, p.eps.neg()))
		if !ok {
			return 0, false
		}
		b = max(b, f)
	}
	if l2a >= l1a-2*ApproxMargin {
		sc, ok := p.oneMinus(x)
		if !ok {
			return 0, false
		}
		if sc > 0 {
			f, ok := ceilOf(affine(0, 0, 1, -x, -p.Delta, p.ieps))
			if !ok {
				return 0, false
			}
			b = max(b, f)
		}
	}
	return b, true
}

// across is Across for (ε,δ) where 1 − x is not a float64, from math/big at both ends
// of the enclosure of e^ε (enclosure): 1 − U* falls as e^ε grows, 1 − L* rises.
func (p EpsDelta) across(x float64) (lo, hi float64) {
	one := new(big.Float).SetInt64(1)
	lo = p.enclosure(func(e *big.Float, prec uint, mode big.RoundingMode) *big.Float {
		return bf(prec, mode).Sub(one, upperAt(x, p.Delta, e, prec, opposite(mode)))
	}, false, BigUp, false)
	hi = p.enclosure(func(e *big.Float, prec uint, mode big.RoundingMode) *big.Float {
		return bf(prec, mode).Sub(one, lowerAt(x, p.Delta, e, prec, opposite(mode)))
	}, true, rd, true)
	return lo, hi
}

// across for μ-GDP: 1 − Φ(Φ⁻¹(x) + μ) = Φ(−Φ⁻¹(x) − μ) and 1 − Φ(Φ⁻¹(x) − μ) =
// Φ(−Φ⁻¹(x) + μ), from the balls where they decide, else math/big.
func (g *gdp) across(x float64) (lo, hi float64) {
	if !(x > 0 && x < 1) || g.mu == 0 {
		c, _ := OneMinus(x, true)
		d, _ := OneMinus(x, false)
		return c, d
	}
	var ok bool
	if lo, ok = reflectedDD(x, -g.mu, false); !ok {
		lo = g.shiftedBig(x, -g.mu, false, true)
	}
	if hi, ok = reflectedDD(x, g.mu, true); !ok {
		hi = g.shiftedBig(x, g.mu, true, true)
	}
	return lo, hi
}

// across for a profile: every pair's condition holds, so the intervals intersect.
func (pr *profile) across(x float64) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	for _, ed := range pr.pairs {
		l, h := ed.across(x)
		lo, hi = max(lo, l), min(hi, h)
	}
	return lo, hi
}

// across for a curve, in exact rationals: 1 − U*(x) = f_s(x), 1 − L*(x) = 1 − f_s(1 − x).
func (t *tradeoff) across(x float64) (lo, hi float64) {
	r := new(big.Rat).SetFloat64(x)
	c := new(big.Rat).Sub(big.NewRat(1, 1), r)
	return RatUp(t.fs(r)), RatDown(new(big.Rat).Sub(big.NewRat(1, 1), t.fs(c)))
}
