package dp

import (
	"math"
	"math/big"
	"sync"
)

// The fast path of μ-GDP (docs/DESIGN.md §11.2, "The fast path"): Φ on a ball of
// double-double numbers (ball.go), every step a ball operation or a truncation
// whose remainder is bounded and added to the ball. Nothing here trusts a float64
// special function: math.Erfc and math.Exp only give Newton's starting points,
// whose results are then certified. Where the balls are too wide to decide a
// rounding, the caller falls back to math/big (normal.go).

const (
	ddExpMax   = 745  // e^(−i) is tabled for i ≤ ddExpMax (e^(−746) < 2^−1074)
	ddTaylor   = 10   // terms of e^(−r), |r| ≤ 1.004·2^−10: the remainder is below 2^−120
	ddOddMax   = 400  // reciprocals 1/(2k + 1), k < ddOddMax, for the series
	ddSeriesLo = -4.5 // Φ(x) is summed by the series for ddSeriesLo ≤ x ≤ ddSeriesHi,
	ddSeriesHi = 7    // from the continued fraction beyond (phiDD)
	ddFracMax  = 4000
)

// ddTables holds the constants of the fast path as balls, each enclosed from
// certified math/big values (exp.go, normal.go) by encloseUp.
type ddTables struct {
	expInt     [ddExpMax + 1]xf // e^(−i)
	expFrac    [512]xf          // e^(−j/512)
	invFact    [ddTaylor]xf     // 1/k!
	invOdd     [ddOddMax]xf     // 1/(2k + 1)
	invSqrt2Pi xf               // 1/√(2π)
}

var ddTab = sync.OnceValue(func() *ddTables {
	const prec = 320
	t := &ddTables{}
	one := big.NewFloat(1)
	inv := func(lo, hi *big.Float) (*big.Float, *big.Float) { // [1/hi, 1/lo]
		return bf(prec, big.ToNegativeInf).Quo(one, hi), bf(prec, big.ToPositiveInf).Quo(one, lo)
	}
	elo, ehi := expBounds(1, prec)
	mlo, mhi := inv(elo, ehi) // e^(−1)
	plo, phi := big.NewFloat(1), big.NewFloat(1)
	for i := range t.expInt {
		t.expInt[i] = encloseUp(plo, phi)
		plo = bf(prec, big.ToNegativeInf).Mul(plo, mlo)
		phi = bf(prec, big.ToPositiveInf).Mul(phi, mhi)
	}
	flo, fhi := inv(expBounds(1.0/512, prec)) // e^(−1/512)
	plo, phi = big.NewFloat(1), big.NewFloat(1)
	for j := range t.expFrac {
		t.expFrac[j] = encloseUp(plo, phi)
		plo = bf(prec, big.ToNegativeInf).Mul(plo, flo)
		phi = bf(prec, big.ToPositiveInf).Mul(phi, fhi)
	}
	f := big.NewFloat(1)
	for k := range t.invFact {
		if k > 1 {
			f.Mul(f, big.NewFloat(float64(k))) // exact: k! < 2^53 for k < 19
		}
		t.invFact[k] = encloseUp(inv(f, f))
	}
	for k := range t.invOdd {
		d := big.NewFloat(float64(2*k + 1))
		t.invOdd[k] = encloseUp(inv(d, d))
	}
	slo, shi := sqrt2PiBounds()
	t.invSqrt2Pi = encloseUp(inv(slo, shi))
	return t
})

// expNegDD is e^(−V) for every V in v's ball (V ≥ −2^−10): V = n/512 + R with an
// integer n ≥ 0 and |R| ≤ 1.004·2^−10, e^(−n/512) = e^(−⌊n/512⌋)·e^(−(n mod 512)/512)
// from the tables, e^(−R) by its Taylor polynomial of degree ddTaylor − 1, whose
// remainder is at most 2·|R|^10/10! < 2^−120. ok = false past the table (V > 745).
func expNegDD(v xf) (xf, bool) {
	tab := ddTab()
	n := max(math.Floor(float64(v.hi*512)+0.5), 0) // v.hi·512 is exact
	if n >= (ddExpMax+1)*512 {
		return xf{}, false
	}
	r := add(v, exact(-n/512)) // n/512 is exact
	if r.magnitude() > 0x1.01p-10 {
		return xf{}, false
	}
	rn := r.neg()
	p := tab.invFact[ddTaylor-1]
	for k := ddTaylor - 2; k >= 0; k-- {
		p = add(mul(p, rn), tab.invFact[k])
	}
	p.err = (p.err + 0x1p-120) * slack
	i := int(n)
	return mul(mul(tab.expInt[i>>9], tab.expFrac[i&511]), p), true
}

// phiDD is Φ(X) and the density φ(X) for every X in x's ball. For x in
// [ddSeriesLo, ddSeriesHi] (the series loses about x²/2·log2(e) bits to
// cancellation below 0, so it stops earlier there):
// Φ(x) = 1/2 + φ(x)·x·Σ_{n≥0} g_n with g_n = u^n/(3·5···(2n+1)), u = x² (all
// terms positive), summed by Horner's rule up to the first n with g_n ≤ 2^−106 of
// the sum and u/(2n+3) ≤ 1/2, so that the omitted terms, shrinking at least by
// half each, sum to at most 2·g_n, with g_n evaluated at the largest u of the ball
// (in float64: a relative error below 10^−10, covered by a factor 1 + 10^−9).
// Beyond, Q(t) = φ(t)·R(t) for t = |x| with Mills' ratio R from its continued
// fraction (phiFraction); Φ(x) = Q(|x|) for x < 0, 1 − Q(x) for x > 0.
func phiDD(x xf) (val, dens xf, ok bool) {
	tab := ddTab()
	m := x.magnitude()
	if x.hi < ddSeriesLo || x.hi > ddSeriesHi {
		if x.lowerMagnitude() <= 2 {
			return xf{}, xf{}, false // a ball this wide decides nothing
		}
		t := x
		if x.hi < 0 {
			t = x.neg()
		}
		q, d, ok := tailDD(t)
		if !ok {
			return xf{}, xf{}, false
		}
		if x.hi < 0 {
			return q, d, true
		}
		return add(exact(1), q.neg()), d, true
	}
	u := mul(x, x)
	umax := float64(m * m * slack)
	g, sum, n := 1.0, 1.0, 1
	for ; ; n++ {
		if n >= ddOddMax {
			return xf{}, xf{}, false
		}
		g = float64(g * (umax / float64(2*n+1)))
		sum += g
		small := float64(sum * 0x1p-106)
		if float64(2*n+3) >= umax+umax && g <= small {
			break
		}
	}
	p := exact(1) // Σ_{k<n} g_k = 1 + (u/3)(1 + (u/5)(1 + … (1 + u/(2n−1))))
	for k := n - 1; k >= 1; k-- {
		p = add(exact(1), mul(mul(u, tab.invOdd[k]), p))
	}
	p.err = (p.err + float64(2*g*(1+1e-9))) * slack
	e, ok := expNegDD(u.scaled(-1))
	if !ok {
		return xf{}, xf{}, false
	}
	dens = mul(tab.invSqrt2Pi, e)
	return add(exact(0.5), mul(dens, mul(x, p))), dens, true
}

// tailDD is Q(T) = 1 − Φ(T) and φ(T) for every T in t's ball, all of it above 2: Q = φ·R with Mills' ratio R = 1/(t + 1/(t + 2/(t + 3/(t + …)))).
// The convergents A_k/B_k follow A_k = t·A_{k−1} + (k−1)·A_{k−2} (B likewise) from
// A_0 = 0, A_1 = 1, B_0 = 1, B_1 = t; all partial numerators and denominators are
// positive, so R lies between any two consecutive convergents, and the hull of
// both balls holds it. The loop stops when the gap between them, (k−1)!/(B_k·B_{k−1})
// (tracked in float64, only to stop), is below 2^−106 of 1/t; A and B are scaled
// by 2^−600 together when they grow (exact, scaled).
func tailDD(t xf) (q, dens xf, ok bool) {
	tab := ddTab()
	e, ok := expNegDD(mul(t, t).scaled(-1))
	if !ok {
		return xf{}, xf{}, false
	}
	dens = mul(tab.invSqrt2Pi, e)
	a0, a1, b0, b1 := exact(0), exact(1), exact(1), t
	gap := 1 / t.hi
	goal := 0x1p-106 / t.hi
	for k := 2; gap > goal; k++ {
		if k > ddFracMax {
			return xf{}, xf{}, false
		}
		c := exact(float64(k - 1))
		a2 := add(mul(t, a1), mul(c, a0))
		b2 := add(mul(t, b1), mul(c, b0))
		gap *= float64(k-1) * b0.hi / b2.hi
		a0, a1, b0, b1 = a1, a2, b1, b2
		if b1.hi > 0x1p600 {
			a0, a1, b0, b1 = a0.scaled(-600), a1.scaled(-600), b0.scaled(-600), b1.scaled(-600)
		}
	}
	r1, ok1 := quo(a1, b1)
	r0, ok0 := quo(a0, b0)
	if !ok1 || !ok0 {
		return xf{}, xf{}, false
	}
	return mul(dens, hull(r1, r0)), dens, true
}
