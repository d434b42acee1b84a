package dp

import (
	"math"
	"math/big"
)

// The other output's side (invariant 9). A mechanism is carried as p_true, the
// probability of each dataset's own answer (docs/DESIGN.md §8.3), so an edge whose ends
// have different answers holds Pr[M(v) = 1] = x at one end and Pr[M(w) = 0] = q at the
// other. The condition on that edge is, by the symmetry of every framework under
// exchanging the outputs, q ∈ [1 − U*(x), 1 − L*(x)]. When 1 − x is a float64 (x ≥ ½,
// Sterbenz, or x without bits below 2^−53) that interval is [Lower(1 − x), Upper(1 − x)];
// otherwise it is computed here, exactly.

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
		return p.ed.across(x)
	}
	return p.fw.across(x)
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
// Φ(−Φ⁻¹(x) + μ), from the math/big enclosures at growing precision (the case is rare:
// both ends of a boundary edge below ½ with no exact complement).
func (g *gdp) across(x float64) (lo, hi float64) {
	if !(x > 0 && x < 1) || g.mu == 0 {
		c, _ := OneMinus(x, true)
		d, _ := OneMinus(x, false)
		return c, d
	}
	return g.reflected(x, -g.mu, true), g.reflected(x, g.mu, false)
}

// reflected is Φ(−Φ⁻¹(x) + s) rounded up or down (the safe end when undecided).
func (g *gdp) reflected(x, s float64, up bool) float64 {
	fs := new(big.Float).SetFloat64(s)
	round := rd
	if up {
		round = BigUp
	}
	for prec := uint(gdpStartBits); ; prec *= 2 {
		zl, zh := quantileBounds(x, prec)
		w := prec + 32
		// −z + s is largest at zl.
		lo, _ := phiBounds(bf(w, big.ToNegativeInf).Sub(fs, zh), prec)
		_, hi := phiBounds(bf(w, big.ToPositiveInf).Sub(fs, zl), prec)
		rl, rh := round(lo), round(hi)
		switch {
		case rl == rh:
			return rl
		case prec < gdpMaxBits:
			continue
		case up:
			return rh
		default:
			return rl
		}
	}
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
