package dp

import (
	"math"
	"math/big"
)

// Certified enclosures of the standard normal distribution function Φ and its inverse
// in math/big, for μ-GDP (gdp.go). Every result is a pair lo ≤ true value ≤ hi,
// every operation rounded outward; nothing trusts math.Erf or math.Exp, which only
// give the starting point of a Newton iteration whose result is then certified by
// evaluating the enclosure of Φ on both sides (docs/DESIGN.md §7.2).

// piDigits is π to 200 decimals; the enclosure widens it by 10^−199, more than the
// digits' truncation error (checked against Machin's formula by the tests' oracle).
const piDigits = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196"

// maxPiBits is the precision the π enclosure supports: past it, enclosures stop
// narrowing (they stay true).
const maxPiBits = 640

// sqrt2PiBounds encloses √(2π) at prec bits.
func sqrt2PiBounds(prec uint) (lo, hi *big.Float) {
	w := prec + 16
	pi, _, err := big.ParseFloat(piDigits, 10, 800, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	tol, _, _ := big.ParseFloat("1e-199", 10, 800, big.ToPositiveInf)
	plo := bf(w, big.ToNegativeInf).Sub(pi, tol)
	phi := bf(w, big.ToPositiveInf).Add(pi, tol)
	plo.SetMantExp(plo, 1) // 2π, exact
	phi.SetMantExp(phi, 1)
	// big.Float.Sqrt is not promised to round correctly: widen its results by a few
	// ulps and check the squares, which are exact enough to decide.
	lo = bf(w, big.ToNegativeInf).Sqrt(plo)
	hi = bf(w, big.ToPositiveInf).Sqrt(phi)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(w)+4)
	lo.Mul(lo, bf(w, big.ToNegativeInf).Sub(big.NewFloat(1), eps))
	hi.Mul(hi, bf(w, big.ToPositiveInf).Add(big.NewFloat(1), eps))
	if bf(w, big.ToPositiveInf).Mul(lo, lo).Cmp(plo) > 0 || bf(w, big.ToNegativeInf).Mul(hi, hi).Cmp(phi) < 0 {
		panic("dp: √(2π) enclosure failed")
	}
	return lo, hi
}

// expBigBounds encloses e^v for a big.Float v ≥ 0: v is halved k times to y ≤ 1/2
// (exact), e^y − 1 summed with a tail bound (taylorExpm1), and 1 + S squared back k
// times, all with directed rounding (as expm1Bounds, for an argument that is not a
// float64).
func expBigBounds(v *big.Float, prec uint) (lo, hi *big.Float) {
	k := 0
	if v.Sign() > 0 {
		if e := v.MantExp(nil); e > -1 {
			k = e + 1 // v < 2^e, so v/2^(e+1) < 1/2
		}
	}
	work := prec + uint(k) + 32
	y := new(big.Float).SetPrec(work).Set(v)
	y.SetMantExp(y, -k)
	slo := taylorExpm1(y, work, big.ToNegativeInf, false)
	shi := taylorExpm1(y, work, big.ToPositiveInf, true)
	lo = onePlus(slo, work, big.ToNegativeInf)
	hi = onePlus(shi, work, big.ToPositiveInf)
	for range k {
		lo.Mul(lo, lo)
		hi.Mul(hi, hi)
	}
	return lo, hi
}

// densityBounds encloses φ(x) = e^(−x²/2)/√(2π) for x ≥ 0.
func densityBounds(x *big.Float, prec uint) (lo, hi *big.Float) {
	w := prec + 16
	vlo := bf(w, big.ToNegativeInf).Mul(x, x)
	vhi := bf(w, big.ToPositiveInf).Mul(x, x)
	vlo.SetMantExp(vlo, -1)
	vhi.SetMantExp(vhi, -1)
	_, ehi := expBigBounds(vlo, w) // e^(−v) is largest at the smallest v
	elo, _ := expBigBounds(vhi, w)
	slo, shi := sqrt2PiBounds(w)
	lo = bf(w, big.ToNegativeInf).Mul(ehi, shi)
	hi = bf(w, big.ToPositiveInf).Mul(elo, slo)
	lo.Quo(big.NewFloat(1), lo) // 1/(e^v·√(2π)) rounded down needs the product rounded up
	hi.Quo(big.NewFloat(1), hi)
	return lo, hi
}

// seriesMax is the largest x at which upperTail uses the series; above it, the
// continued fraction converges fast.
const seriesMax = 8

// upperTailBounds encloses Q(x) = 1 − Φ(x) for x ≥ 0 with relative accuracy about
// 2^−prec.
func upperTailBounds(x *big.Float, prec uint) (lo, hi *big.Float) {
	xf, _ := x.Float64()
	if xf <= seriesMax {
		return seriesTail(x, xf, prec)
	}
	return fractionTail(x, prec)
}

// seriesTail is Q(x) = 1/2 − φ(x)·Σ_{n≥0} x^(2n+1)/(2n+1)!! (all terms positive; the
// series is that of Φ(x) − 1/2 = ∫_0^x φ). Once the ratio of consecutive terms,
// x²/(2n+3), is at most 1/2, the omitted tail is below twice the next term. The
// subtraction loses about x²/2·log2(e) bits, which the working precision adds.
func seriesTail(x *big.Float, xf float64, prec uint) (lo, hi *big.Float) {
	w := prec + uint(xf*xf*0.73) + 32
	x2lo := bf(w, big.ToNegativeInf).Mul(x, x)
	x2hi := bf(w, big.ToPositiveInf).Mul(x, x)
	sum := func(x2 *big.Float, mode big.RoundingMode, tail bool) *big.Float {
		term := bf(w, mode).Set(x)
		s := bf(w, mode).Set(x)
		for n := int64(0); ; n++ {
			term.Mul(term, x2)
			term.Quo(term, bf(w, mode).SetInt64(2*n+3))
			if float64(2*n+5) >= float64(2*xf*xf)+2 && term.Sign() > 0 && term.MantExp(nil) < s.MantExp(nil)-int(w)-4 {
				if tail {
					s.Add(s, term)
					s.Add(s, term)
				}
				return s
			}
			if term.Sign() == 0 {
				return s
			}
			s.Add(s, term)
		}
	}
	slo, shi := sum(x2lo, big.ToNegativeInf, false), sum(x2hi, big.ToPositiveInf, true)
	dlo, dhi := densityBounds(x, w)
	half := big.NewFloat(0.5)
	lo = bf(w, big.ToNegativeInf).Sub(half, bf(w, big.ToPositiveInf).Mul(dhi, shi))
	hi = bf(w, big.ToPositiveInf).Sub(half, bf(w, big.ToNegativeInf).Mul(dlo, slo))
	if lo.Sign() < 0 {
		lo.SetInt64(0)
	}
	return lo, hi
}

// fractionTail is Q(x) = φ(x)·R(x) with Mills' ratio R(x) from Laplace's continued
// fraction R = 1/(x + 1/(x + 2/(x + 3/(x + …)))): its convergents (the fraction cut
// after n levels, the last denominator x) lie alternately above and below R for x > 0
// (all partial numerators and denominators are positive), so two consecutive ones
// enclose it. Each is evaluated from the bottom in interval arithmetic; the depth
// doubles until the enclosure is narrow enough.
func fractionTail(x *big.Float, prec uint) (lo, hi *big.Float) {
	w := prec + 32
	conv := func(n int64) (lo, hi *big.Float) {
		dlo, dhi := bf(w, big.ToNegativeInf).Set(x), bf(w, big.ToPositiveInf).Set(x)
		for k := n; k >= 1; k-- {
			kf := bf(w, big.ToNearestEven).SetInt64(k)
			nlo := bf(w, big.ToNegativeInf).Quo(kf, dhi)
			nhi := bf(w, big.ToPositiveInf).Quo(kf, dlo)
			dlo = bf(w, big.ToNegativeInf).Add(x, nlo)
			dhi = bf(w, big.ToPositiveInf).Add(x, nhi)
		}
		one := big.NewFloat(1)
		return bf(w, big.ToNegativeInf).Quo(one, dhi), bf(w, big.ToPositiveInf).Quo(one, dlo)
	}
	var rlo, rhi *big.Float
	for n := int64(16); ; n *= 2 {
		alo, ahi := conv(n)
		blo, bhi := conv(n + 1)
		rlo, rhi = minBig(alo, blo), maxBig(ahi, bhi)
		gap := bf(w, big.ToPositiveInf).Sub(rhi, rlo)
		if gap.Sign() == 0 || gap.MantExp(nil) < rlo.MantExp(nil)-int(prec)-8 || n >= 1<<16 {
			break
		}
	}
	dlo, dhi := densityBounds(x, w)
	return bf(w, big.ToNegativeInf).Mul(dlo, rlo), bf(w, big.ToPositiveInf).Mul(dhi, rhi)
}

func minBig(a, b *big.Float) *big.Float {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func maxBig(a, b *big.Float) *big.Float {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// phiBounds encloses Φ(t) for any finite t: Q(−t) for t < 0, 1 − Q(t) otherwise.
func phiBounds(t *big.Float, prec uint) (lo, hi *big.Float) {
	if t.Sign() < 0 {
		return upperTailBounds(new(big.Float).Neg(t), prec)
	}
	qlo, qhi := upperTailBounds(t, prec)
	w := prec + 32
	one := big.NewFloat(1)
	return bf(w, big.ToNegativeInf).Sub(one, qhi), bf(w, big.ToPositiveInf).Sub(one, qlo)
}

// quantileEstimate is a float64 estimate of Φ⁻¹(a), a in (0, 1), for Newton's method:
// math.Erfcinv in the middle (it works on 1 − 2a, so it loses the tails), and in
// the tails the first terms of the asymptotic inverse, z² ≈ L − ln L − ln 2π with
// L = −2 ln q, q the smaller tail (exact: 1 − a for a > 1/2).
func quantileEstimate(a float64) float64 {
	if a > 1e-12 && a < 1-1e-12 {
		return -math.Sqrt2 * math.Erfcinv(2*a)
	}
	q, sign := a, -1.0
	if a > 0.5 {
		q, sign = 1-a, 1
	}
	l := float64(-2 * math.Log(q))
	return sign * math.Sqrt(l-math.Log(l)-math.Log(2*math.Pi))
}

// quantileBounds encloses Φ⁻¹(a) for a float64 a in (0, 1): a float64 estimate,
// Newton steps at prec bits on the midpoints of Φ's and φ's enclosures, then a
// bracket [zl, zh] certified by Φ(zl) ≤ a ≤ Φ(zh) (Φ is increasing), widened until
// the enclosures show it.
func quantileBounds(a float64, prec uint) (zl, zh *big.Float) {
	if a > 0.5 {
		// Φ⁻¹(a) = −Φ⁻¹(1 − a), and 1 − a is exact: work where Φ has relative accuracy.
		l, h := quantileBounds(1-a, prec)
		return h.Neg(h), l.Neg(l)
	}
	w := prec + 16
	z0 := quantileEstimate(a) // only a starting point
	z := bf(w, big.ToNearestEven).SetFloat64(z0)
	fa := new(big.Float).SetFloat64(a)
	step := new(big.Float)
	for range 60 {
		plo, phi := phiBounds(z, w)
		pm := bf(w, big.ToNearestEven).Add(plo, phi)
		pm.SetMantExp(pm, -1)
		dlo, dhi := densityBounds(new(big.Float).Abs(z), w)
		dm := bf(w, big.ToNearestEven).Add(dlo, dhi)
		dm.SetMantExp(dm, -1)
		step = bf(w, big.ToNearestEven).Sub(fa, pm)
		step.Quo(step, dm)
		// Far in a tail a full step can overshoot; clamp it to one unit of z.
		if step.Cmp(big.NewFloat(1)) > 0 {
			step.SetInt64(1)
		} else if step.Cmp(big.NewFloat(-1)) < 0 {
			step.SetInt64(-1)
		}
		z.Add(z, step)
		if step.Sign() == 0 || step.MantExp(nil) < z.MantExp(nil)-int(prec)-4 {
			break
		}
	}
	width := new(big.Float).SetPrec(w).Abs(step)
	floor := new(big.Float).SetMantExp(big.NewFloat(1), max(z.MantExp(nil), 0)-int(prec)+2)
	width.Add(width, floor)
	for range 40 {
		zl = bf(w, big.ToNegativeInf).Sub(z, width)
		zh = bf(w, big.ToPositiveInf).Add(z, width)
		_, lh := phiBounds(zl, w)
		hl, _ := phiBounds(zh, w)
		if lh.Cmp(fa) <= 0 && hl.Cmp(fa) >= 0 {
			return zl, zh
		}
		width.SetMantExp(width, 4)
	}
	panic("dp: Φ⁻¹ bracket not certified")
}
