package dp

import "math/big"

// expBounds encloses e^x for a float64 x ≥ 0: lo ≤ e^x ≤ hi, each a big.Float of
// prec bits. x is halved k times to y ≤ 1/2 (exact), the Taylor series of e^y is
// summed with every operation rounded down for lo and up for hi (all terms are
// positive, so directed rounding bounds the sum), hi adds twice the first omitted
// term (the tail is a geometric series of ratio ≤ 1/4), and both are squared k times
// with the same rounding. Nothing here trusts math.Exp.
func expBounds(x float64, prec uint) (lo, hi *big.Float) {
	k := 0
	for y := x; y > 0.5; y /= 2 {
		k++
	}
	work := prec + uint(k) + 32
	y := new(big.Float).SetPrec(work).SetFloat64(x)
	y.SetMantExp(y, -k) // exact: a power-of-two scaling
	lo = taylorExp(y, work, big.ToNegativeInf, false)
	hi = taylorExp(y, work, big.ToPositiveInf, true)
	for range k {
		lo.Mul(lo, lo)
		hi.Mul(hi, hi)
	}
	return lo, hi
}

// taylorExp sums e^y for 0 ≤ y ≤ 1/2 in rounding mode mode; with tail, the bound on
// the omitted terms is added.
func taylorExp(y *big.Float, prec uint, mode big.RoundingMode, tail bool) *big.Float {
	nf := func() *big.Float { return new(big.Float).SetPrec(prec).SetMode(mode) }
	sum := nf().SetInt64(1)
	term := nf().SetInt64(1)
	if y.Sign() == 0 {
		return sum
	}
	limit := nf().SetMantExp(big.NewFloat(1), -int(prec)-4)
	for n := int64(1); ; n++ {
		term.Mul(term, y)
		term.Quo(term, nf().SetInt64(n))
		if term.Cmp(limit) < 0 {
			if tail {
				sum.Add(sum, term)
				sum.Add(sum, term)
			}
			return sum
		}
		sum.Add(sum, term)
	}
}
