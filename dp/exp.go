package dp

import "math/big"

// expm1Bounds encloses S = e^x − 1 for a float64 x ≥ 0: lo ≤ S ≤ hi, big.Floats of
// prec bits with relative (not absolute) accuracy, so that a tiny ε keeps its digits.
// x is halved k times to y ≤ 1/2 (exact), the series Σ_{n≥1} y^n/n! is summed with
// every operation rounded down for lo and up for hi (all terms are positive), hi adds
// twice the first omitted term (the tail is a geometric series of ratio ≤ 1/4), and
// both are doubled back k times through e^{2y} − 1 = 2S + S², which is increasing in
// S ≥ 0, with the same rounding. Nothing here trusts math.Exp.
func expm1Bounds(x float64, prec uint) (lo, hi *big.Float) {
	k := 0
	for y := x; y > 0.5; y /= 2 {
		k++
	}
	work := prec + uint(k) + 32
	y := new(big.Float).SetPrec(work).SetFloat64(x)
	y.SetMantExp(y, -k) // exact: a power-of-two scaling
	lo = taylorExpm1(y, work, big.ToNegativeInf, false)
	hi = taylorExpm1(y, work, big.ToPositiveInf, true)
	for _, s := range []*big.Float{lo, hi} {
		for range k {
			sq := new(big.Float).SetPrec(work).SetMode(s.Mode()).Mul(s, s)
			s.SetMantExp(s, 1) // 2S, exact
			s.Add(s, sq)
		}
	}
	return lo, hi
}

// taylorExpm1 sums e^y − 1 for 0 ≤ y ≤ 1/2 in rounding mode mode; with tail, the bound
// on the omitted terms is added.
func taylorExpm1(y *big.Float, prec uint, mode big.RoundingMode, tail bool) *big.Float {
	nf := func() *big.Float { return new(big.Float).SetPrec(prec).SetMode(mode) }
	sum := nf()
	if y.Sign() == 0 {
		return sum
	}
	term := nf().Set(y)
	sum.Set(y)
	for n := int64(2); ; n++ {
		term.Mul(term, y)
		term.Quo(term, nf().SetInt64(n))
		// Relative to the sum: stop once a term is below 2^−(prec+4) of it.
		if term.MantExp(nil) < sum.MantExp(nil)-int(prec)-4 {
			if tail {
				sum.Add(sum, term)
				sum.Add(sum, term)
			}
			return sum
		}
		sum.Add(sum, term)
	}
}

// expBounds encloses e^x: 1 + S with S from expm1Bounds, rounded outward at a
// precision that keeps S's digits.
func expBounds(x float64, prec uint) (lo, hi *big.Float) {
	slo, shi := expm1Bounds(x, prec)
	return onePlus(slo, prec, big.ToNegativeInf), onePlus(shi, prec, big.ToPositiveInf)
}

func onePlus(s *big.Float, prec uint, mode big.RoundingMode) *big.Float {
	p := prec
	if s.Sign() != 0 {
		if e := s.MantExp(nil); e < 0 {
			p += uint(-e)
		}
	}
	z := new(big.Float).SetPrec(p).SetMode(mode).SetInt64(1)
	return z.Add(z, s)
}

// ExpBounds encloses e^x for a float64 x ≥ 0 (finite): lo ≤ e^x ≤ hi, big.Floats
// of at least prec bits, computed with directed rounding and no float64 exponential
// (expm1Bounds). Other packages that must bound a quantity in e^ε from one side —
// the privacy ledger's composition — use it instead of math.Exp.
func ExpBounds(x float64, prec uint) (lo, hi *big.Float) {
	if !(x >= 0) || x > 1e6 {
		panic("dp: ExpBounds of a negative, NaN or huge x") // callers check ε first
	}
	return expBounds(x, prec)
}
