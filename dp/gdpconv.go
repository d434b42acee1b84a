package dp

import (
	"fmt"
	"math"
	"math/big"
)

// Certified one-sided quantities of μ-GDP that other packages need besides the
// bounds: the (ε,δ) a μ-GDP mechanism satisfies (the privacy ledger) and the
// tangent lines of U* (optimize's outer relaxation). Both come from the certified
// enclosures of normal.go with directed rounding; neither trusts math.Erf or
// math.Exp (docs/DESIGN.md §11.6).

// convBits is the working precision of the conversions: the results are rounded
// to float64 in the safe direction, so a few dozen bits beyond 53 suffice.
const convBits = 192

// GDPDelta is an upper bound, rounded up to a float64, on the exact δ(ε) of μ-GDP
// (Dong, Roth & Su, Corollary 2.13):
//
//	δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2),
//
// the smallest δ such that every μ-GDP mechanism is (ε,δ)-DP. μ must be in
// (0, MaxMu] and ε in [0, MaxEpsilon); μ = 0 gives 0 (no information).
func GDPDelta(mu, epsilon float64) (float64, error) {
	if math.IsNaN(mu) || mu < 0 || mu > MaxMu {
		return 0, fmt.Errorf("gdp-mu must be a number in [0, %v], got %v", MaxMu, mu)
	}
	if math.IsNaN(epsilon) || epsilon < 0 || epsilon >= MaxEpsilon {
		return 0, fmt.Errorf("epsilon must be a number in [0, %.4g), got %v", float64(MaxEpsilon), epsilon)
	}
	if mu == 0 {
		return 0, nil
	}
	w := uint(convBits)
	fm, fe := new(big.Float).SetFloat64(mu), new(big.Float).SetFloat64(epsilon)
	half := new(big.Float).SetFloat64(mu / 2) // μ/2 is exact
	// t1 ≥ −ε/μ + μ/2 and t2 ≤ −ε/μ − μ/2: Φ is increasing, so Φ(t1) bounds the first
	// term above and Φ(t2) the second below.
	qLo := bf(w, big.ToNegativeInf).Quo(fe, fm)
	qHi := bf(w, big.ToPositiveInf).Quo(fe, fm)
	t1 := bf(w, big.ToPositiveInf).Sub(half, qLo)
	t2 := bf(w, big.ToNegativeInf).Neg(qHi)
	t2.Sub(t2, half)
	_, p1 := phiBounds(t1, w)
	p2, _ := phiBounds(t2, w)
	elo, _ := expBounds(epsilon, w)
	sub := bf(2*w, big.ToNegativeInf).Mul(elo, p2)
	d := bf(2*w, big.ToPositiveInf).Sub(p1, sub)
	if d.Sign() < 0 {
		return 0, nil // δ(ε) ≥ 0 exactly; the enclosure's width only
	}
	return min(BigUp(d), 1), nil
}

// GDPTangent is an intercept d, rounded up to a float64, with U*(a) ≤ c·a + d for
// every a in [0, 1], where U*(a) = Φ(Φ⁻¹(a) + μ) is μ-GDP's upper bound and c > 0 a
// slope: the tangent of U* with slope c, which touches it where U*′(a) = c. In
// z = Φ⁻¹(a), g(z) = Φ(z + μ) − c·Φ(z) has g′(z) = φ(z)·(e^(−μz − μ²/2) − c), positive
// then negative: g rises to its maximum at z* = −(ln c + μ²/2)/μ and falls. A bracket
// zl ≤ z* ≤ zh is certified by the signs of g′ at its ends, and then
// sup g = g(z*) ≤ Φ(zh + μ) − c·Φ(zl), each term bounded outward. μ in (0, MaxMu].
func GDPTangent(mu, c float64) (float64, error) {
	if !(mu > 0 && mu <= MaxMu) {
		return 0, fmt.Errorf("GDPTangent: μ must be in (0, %v], got %v", MaxMu, mu)
	}
	if !(c > 0) || math.IsInf(c, 0) {
		return 0, fmt.Errorf("GDPTangent: the slope must be a finite number > 0, got %v", c)
	}
	w := uint(convBits)
	h := float64(float64(mu*mu) / 2)
	z := -(math.Log(c) + h) / mu       // the estimate; the bracket certifies it
	eta := 1e-14 * max(1, math.Abs(z)) // the bracket costs about 2·φ·eta of slack
	for range 60 {
		zl, zh := z-eta, z+eta
		if slopeSign(mu, c, zl, w) > 0 && slopeSign(mu, c, zh, w) < 0 {
			fzh := bf(w, big.ToPositiveInf).SetFloat64(zh)
			fzh.Add(fzh, new(big.Float).SetFloat64(mu))
			_, p1 := phiBounds(fzh, w)
			p2, _ := phiBounds(new(big.Float).SetFloat64(zl), w)
			sub := bf(2*w, big.ToNegativeInf).Mul(new(big.Float).SetFloat64(c), p2)
			d := bf(2*w, big.ToPositiveInf).Sub(p1, sub)
			return BigUp(d), nil
		}
		eta *= 4
	}
	return 0, fmt.Errorf("GDPTangent: no certified bracket for μ = %v, slope %v", mu, c)
}

// slopeSign is the certain sign of g′(z), that is of e^t − c with t = −μz − μ²/2:
// +1 or −1 when the enclosures decide it, 0 when they do not. t is enclosed with
// directed rounding; e^t above c is shown by the lower end of e^t (t ≥ 0) or by
// c·e^(−t) below 1 at its upper end (t < 0), and the other sign likewise.
func slopeSign(mu, c, z float64, w uint) int {
	fm, fz, fc := new(big.Float).SetFloat64(mu), new(big.Float).SetFloat64(z), new(big.Float).SetFloat64(c)
	tBound := func(mode big.RoundingMode) *big.Float {
		sq := bf(w, opposite(mode)).Mul(fm, fm)
		sq.SetMantExp(sq, -1)
		mz := bf(w, opposite(mode)).Mul(fm, fz)
		t := bf(w, mode).Neg(mz)
		return t.Sub(t, sq)
	}
	above := func(t *big.Float, useLo bool) bool { // e^t > c (useLo) or e^t < c, certainly
		if t.Sign() >= 0 {
			lo, hi := expBigBounds(t, w)
			if useLo {
				return lo.Cmp(fc) > 0
			}
			return hi.Cmp(fc) < 0
		}
		lo, hi := expBigBounds(new(big.Float).Neg(t), w) // e^t = 1/e^(−t)
		if useLo {
			return bf(2*w, big.ToPositiveInf).Mul(fc, hi).Cmp(big.NewFloat(1)) < 0
		}
		return bf(2*w, big.ToNegativeInf).Mul(fc, lo).Cmp(big.NewFloat(1)) > 0
	}
	switch {
	case above(tBound(big.ToNegativeInf), true):
		return 1
	case above(tBound(big.ToPositiveInf), false):
		return -1
	}
	return 0
}
