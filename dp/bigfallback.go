package dp

import (
	"math"
	"math/big"
)

// The math/big paths decide what the double-double paths cannot (invariant 4). Each
// evaluates the bound at both ends of an enclosure [lo, hi] of e^ε, with every
// operation rounded outward, and doubles the precision until both ends round to the
// same float64. Sums of float64 values in [0, 1] are exact at exactBits bits. A value
// that is exactly a float64 is decided at once; otherwise the ends meet as soon as the
// enclosure is narrower than the value's distance to the nearest float64, which is
// never 0 for ε > 0 (e^ε is transcendental). After maxBits the safe end is returned.
const (
	startBits = 320
	maxBits   = 8192
	exactBits = 1200
)

func bf(prec uint, mode big.RoundingMode) *big.Float {
	return new(big.Float).SetPrec(prec).SetMode(mode)
}

func opposite(mode big.RoundingMode) big.RoundingMode {
	if mode == big.ToNegativeInf {
		return big.ToPositiveInf
	}
	return big.ToNegativeInf
}

// rd rounds a big.Float down to a float64 (BigUp: up).
func rd(x *big.Float) float64 {
	f, acc := x.Float64()
	if acc == big.Above {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

// BigUp is the smallest float64 ≥ x: x rounded up (the ledger sums spent budgets
// with it, so that a total is never understated).
func BigUp(x *big.Float) float64 {
	f, acc := x.Float64()
	if acc == big.Below {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

// exactSum is a + b + c of float64 values, exactly.
func exactSum(vals ...float64) *big.Float {
	s := bf(exactBits, big.ToNearestEven)
	for _, v := range vals {
		s.Add(s, new(big.Float).SetFloat64(v))
	}
	return s
}

// enclosure evaluates f at both ends of the e^ε enclosure with outward rounding until
// round(lower end) == round(upper end). increasing says whether f grows with e^ε;
// round is rd or BigUp; safe is the end to return if precision runs out.
func (p EpsDelta) enclosure(f func(e *big.Float, prec uint, mode big.RoundingMode) *big.Float,
	increasing bool, round func(*big.Float) float64, safeLow bool) float64 {
	for prec := uint(startBits); ; prec *= 2 {
		elo, ehi := expBounds(p.Epsilon, prec)
		if !increasing {
			elo, ehi = ehi, elo
		}
		w := prec + exactBits
		lo := round(f(elo, w, big.ToNegativeInf))
		hi := round(f(ehi, w, big.ToPositiveInf))
		if lo == hi {
			return lo
		}
		if prec >= maxBits {
			if safeLow {
				return lo
			}
			return hi
		}
	}
}

func (p EpsDelta) upperBig(a float64) float64 {
	b := p.enclosure(func(e *big.Float, prec uint, mode big.RoundingMode) *big.Float {
		return upperAt(a, p.Delta, e, prec, mode)
	}, true, rd, true)
	return max(b, a)
}

func (p EpsDelta) lowerBig(a float64) float64 {
	b := p.enclosure(func(e *big.Float, prec uint, mode big.RoundingMode) *big.Float {
		return lowerAt(a, p.Delta, e, prec, mode)
	}, false, BigUp, false)
	return min(b, a)
}

// upperAt is U*(a) = min(e·a + δ, 1 − (1 − a − δ)/e, 1) for a given e, rounded in mode.
func upperAt(a, delta float64, e *big.Float, prec uint, mode big.RoundingMode) *big.Float {
	b := bf(prec, mode).Mul(e, new(big.Float).SetFloat64(a))
	b.Add(b, new(big.Float).SetFloat64(delta))
	one := new(big.Float).SetInt64(1)
	if b.Cmp(one) > 0 {
		b.Set(one)
	}
	if c := exactSum(1, -a, -delta); c.Sign() > 0 {
		q := bf(prec, opposite(mode)).Quo(c, e)
		b2 := bf(prec, mode).Sub(one, q)
		if b2.Cmp(b) < 0 {
			b = b2
		}
	}
	return b
}

// lowerAt is L*(a) = max(1 − δ − e·(1 − a), (a − δ)/e, 0) for a given e, rounded in mode.
func lowerAt(a, delta float64, e *big.Float, prec uint, mode big.RoundingMode) *big.Float {
	l := bf(prec, mode)
	t := bf(prec, opposite(mode)).Mul(e, exactSum(1, -a))
	l1 := bf(prec, mode).Sub(exactSum(1, -delta), t)
	if l1.Sign() > 0 {
		l.Set(l1)
	}
	if d := exactSum(a, -delta); d.Sign() > 0 {
		l2 := bf(prec, mode).Quo(d, e)
		if l2.Cmp(l) > 0 {
			l = l2
		}
	}
	return l
}

// excessAt is the largest of an output's two inequalities' differences, left − right,
// for p_one values x, y and a given e (each difference decreases as e grows): output 1
// compares x and y, output 0 compares 1 − x and 1 − y, both exact.
func excessAt(x, y, delta float64, one bool, e *big.Float, prec uint, mode big.RoundingMode) *big.Float {
	var best *big.Float
	side := func(lhs, rhs *big.Float) {
		r := bf(prec, opposite(mode)).Mul(e, rhs)
		r.Add(r, new(big.Float).SetFloat64(delta))
		d := bf(prec, mode).Sub(lhs, r)
		if best == nil || d.Cmp(best) > 0 {
			best = d
		}
	}
	fx, fy := exactSum(x), exactSum(y)
	if !one {
		fx, fy = exactSum(1, -x), exactSum(1, -y)
	}
	side(fy, fx)
	side(fx, fy)
	return best
}

// Excess is the largest real difference left − right of output `one`'s two (ε,δ)-DP
// inequalities between neighbours with p_one values x and y (Pr[M = 1] for output 1,
// the exact 1 − p_one for output 0), rounded to the nearest float64 (invariant 5); its
// sign is exact, and a positive excess too small for a float64 is reported as the
// smallest positive float64. For reports: the audit decides with Allowed.
func (p EpsDelta) Excess(x, y float64, one bool) float64 {
	nearest := func(v *big.Float) float64 {
		f, _ := v.Float64()
		if f == 0 && v.Sign() > 0 {
			return math.SmallestNonzeroFloat64
		}
		return f
	}
	for prec := uint(startBits); ; prec *= 2 {
		elo, ehi := expBounds(p.Epsilon, prec)
		w := prec + exactBits
		lo := excessAt(x, y, p.Delta, one, ehi, w, big.ToNegativeInf)
		hi := excessAt(x, y, p.Delta, one, elo, w, big.ToPositiveInf)
		nl, nh := nearest(lo), nearest(hi)
		if (nl > 0) == (nh > 0) && nl == nh {
			return nl
		}
		if prec >= maxBits {
			return nh // undecided: report the unsafe end
		}
	}
}

// ApproxExcess is Excess for both outputs in plain float64 with the nearest e^ε and
// 1 − p_one rounded: within a few ulps of the truth, for ranking edges by tightness
// in an audit that decides with Allowed.
func (p EpsDelta) ApproxExcess(x, y float64) (ex0, ex1 float64) {
	e, d := p.e, p.Delta
	ex1 = max(y-(float64(e*x)+d), x-(float64(e*y)+d))
	qx, qy := 1-x, 1-y
	ex0 = max(qy-(float64(e*qx)+d), qx-(float64(e*qy)+d))
	return ex0, ex1
}

// Balanced is the paper's balanced value α = (e^ε + δ)/(e^ε + 1) (its corollary on
// boundary-homogeneous mechanisms), rounded down: with p_true = Balanced() on every
// boundary dataset, neighbours across the boundary satisfy DP exactly, since
// U*(1 − α) = α and U* is non-decreasing.
func (p EpsDelta) Balanced() float64 {
	return p.enclosure(func(e *big.Float, prec uint, mode big.RoundingMode) *big.Float {
		num := bf(prec, mode).Add(e, new(big.Float).SetFloat64(p.Delta))
		den := bf(prec, opposite(mode)).Add(e, new(big.Float).SetInt64(1))
		return bf(prec, mode).Quo(num, den)
	}, true, rd, true)
}
