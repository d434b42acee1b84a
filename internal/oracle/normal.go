package oracle

import (
	"math"
	"math/big"
	"sync"
)

// The standard normal distribution for μ-GDP, written for this oracle alone (package
// dp encloses Φ with a positive series and Laplace's continued fraction for Mills'
// ratio, and π from given digits). Here:
//
//   - π by the Gauss–Legendre arithmetic–geometric mean;
//   - e^x by halving x until it is below 2^−8, the Taylor series, and squaring back;
//   - Φ(−t) for 0 ≤ t ≤ 9 by the alternating Taylor series
//     Φ(−t) = 1/2 − (2π)^(−1/2)·Σ (−1)^n t^(2n+1)/(2^n·n!·(2n+1)), at a precision that
//     pays for its cancellation (about 1.44·t² bits);
//   - Φ(−t) for t > 9 as φ(t)·t·K(t²) with K the even contraction of the continued
//     fraction of erfc, K = 1/(t² + 1 − 1·2/(t² + 5 − 3·4/(t² + 9 − 5·6/(t² + 13 − …)))),
//     evaluated from the bottom at two depths, the second a quarter deeper, until
//     they agree;
//   - Φ⁻¹ by Newton's method on Φ from a float64 bisection estimate, the precision
//     doubling with each step, until the error a full-precision step leaves is below
//     the last bits.
//
// Every value has NormalBits of relative precision; Φ(z) for z > 0 is 1 − Φ(−z)
// exactly (OneMinus), so a value near 1 keeps the relative precision of its
// complement, and Φ⁻¹(a) for a > 1/2 is −Φ⁻¹(1 − a) with 1 − a exact.

// NormalBits is the relative precision of Φ, Φ⁻¹ and the μ-GDP bounds.
const NormalBits = 256

func nf(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

const piBits = 8192

var piOnce = sync.OnceValue(func() *big.Float {
	w := uint(piBits + 64)
	a, b := nf(w).SetInt64(1), nf(w).SetInt64(2)
	b.Sqrt(b)
	b.Quo(nf(w).SetInt64(1), b) // 1/√2
	t := nf(w).SetFloat64(0.25)
	p := nf(w).SetInt64(1)
	for range 40 { // the AGM doubles its digits a step: 40 steps are far more than 8192 bits
		an := nf(w).Add(a, b)
		an.Quo(an, nf(w).SetInt64(2))
		b = nf(w).Mul(a, b)
		b.Sqrt(b)
		d := nf(w).Sub(a, an)
		t.Sub(t, d.Mul(d, d).Mul(d, p))
		a = an
		p.Mul(p, nf(w).SetInt64(2))
		if d.Sign() == 0 {
			break
		}
	}
	pi := nf(w).Add(a, b)
	pi.Mul(pi, pi)
	return pi.Quo(pi, t.Mul(t, nf(w).SetInt64(4)))
})

// Pi is π to prec bits (prec ≤ 8192).
func Pi(prec uint) *big.Float { return nf(prec).Set(piOnce()) }

// ExpBig is e^x to prec bits of relative precision, for finite x.
func ExpBig(x *big.Float, prec uint) *big.Float {
	if x.Sign() < 0 {
		e := ExpBig(nf(x.Prec()).Neg(x), prec+8)
		return nf(prec).Quo(nf(prec+8).SetInt64(1), e)
	}
	k := 0
	if x.Sign() > 0 {
		k = max(0, x.MantExp(nil)+8) // x/2^k < 2^−8
	}
	w := prec + uint(k) + 40
	y := nf(w).SetMantExp(x, -k)
	sum, term, m := nf(w).SetInt64(1), nf(w).SetInt64(1), nf(w)
	for n := int64(1); ; n++ {
		term.Mul(term, y)
		term.Quo(term, m.SetInt64(n))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -int(w)-4 {
			break
		}
	}
	for range k {
		sum.Mul(sum, sum)
	}
	return nf(prec).Set(sum)
}

// density is φ(t) = e^(−t²/2)/√(2π).
func density(t *big.Float, prec uint) *big.Float {
	w := prec + 16
	h := nf(w+t.MinPrec()*2).Mul(t, t)
	h.Quo(h, nf(w).SetInt64(-2))
	return nf(prec).Mul(ExpBig(h, w), invSqrt2Pi(w))
}

// seriesLimit is the largest t for which Φ(−t) is summed as a series.
const seriesLimit = 9

// lowerTail is Φ(−t) for t ≥ 0 to prec bits of relative precision.
func lowerTail(t *big.Float, prec uint) *big.Float {
	if t.Sign() == 0 {
		return nf(prec).SetFloat64(0.5)
	}
	if tf, _ := t.Float64(); tf <= seriesLimit {
		return tailSeries(t, tf, prec)
	}
	return tailFraction(t, prec)
}

func tailSeries(t *big.Float, tf float64, prec uint) *big.Float {
	// In fixed point with w fractional bits (big.Int, truncating: each operation is
	// off by at most 2^−w, and the sum of a few hundred such errors is far below the
	// extra bits w carries beyond prec).
	w := prec + uint(1.45*tf*tf) + 48
	fix := func(x *big.Float) *big.Int {
		i, _ := new(big.Float).SetMantExp(x, int(w)).Int(nil)
		return i
	}
	t2 := fix(nf(w).Mul(t, t))
	pow := fix(t) // t^(2n+1)/(2^n·n!)
	sum, term, k, rem := new(big.Int), new(big.Int), new(big.Int), new(big.Int)
	limit := float64(int(tf*tf) + 1)
	for n := int64(0); ; n++ {
		term.QuoRem(pow, k.SetInt64(2*n+1), rem)
		if n%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		pow.Mul(pow, t2)
		pow.Rsh(pow, w)
		pow.QuoRem(pow, k.SetInt64(2*(n+1)), rem)
		if float64(n) > limit && pow.Sign() == 0 {
			break
		}
	}
	s := nf(w).SetMantExp(nf(w).SetInt(sum), -int(w))
	s.Mul(s, invSqrt2Pi(w))
	return nf(prec).Sub(nf(w).SetFloat64(0.5), s)
}

var invSqrt2PiOnce = sync.OnceValue(func() *big.Float {
	s := nf(piBits).Mul(Pi(piBits), nf(piBits).SetInt64(2))
	return s.Quo(nf(piBits).SetInt64(1), s.Sqrt(s))
})

// invSqrt2Pi is 1/√(2π) to prec bits (prec ≤ 8192).
func invSqrt2Pi(prec uint) *big.Float { return nf(prec).Set(invSqrt2PiOnce()) }

// contracted is K(t²) of the even continued fraction at depth n, from the bottom:
// v_n = b_n, v_(k−1) = b_(k−1) − a_k/v_k with a_k = (2k − 1)·2k, b_k = t² + 4k + 1, and
// K = 1/v_0. Each v_k is carried as a fraction P/Q (P_(k−1) = b_(k−1)·P_k − a_k·Q_k,
// Q_(k−1) = P_k), so the only division is the last.
func contracted(t2 *big.Float, n int64, w uint) *big.Float {
	p, q, b, x := nf(w).Add(t2, nf(w).SetInt64(4*n+1)), nf(w).SetInt64(1), nf(w), nf(w)
	for k := n; k >= 1; k-- {
		b.Add(t2, x.SetInt64(4*(k-1)+1))
		q.Mul(q, x.SetInt64((2*k-1)*(2*k)))
		b.Mul(b, p)
		p, q = q.Sub(b, q), p
	}
	return q.Quo(q, p)
}

func tailFraction(t *big.Float, prec uint) *big.Float {
	w := prec + 32
	t2 := nf(w).Mul(t, t)
	// Start at n = (0.45·prec/t)²/2, a depth measured (t from 6 to 37) to give about
	// prec bits, and deepen by a quarter until two depths agree.
	tf, _ := t.Float64()
	n := int64(math.Ceil(math.Pow(0.45*float64(prec)/tf, 2)/2)) + 4
	k := contracted(t2, n, w)
	for {
		n += n / 4
		k2 := contracted(t2, n, w)
		d := nf(w).Sub(k, k2)
		k = k2
		if d.Sign() == 0 || d.MantExp(nil) < k.MantExp(nil)-int(prec)-8 {
			break
		}
		if n > 1<<20 {
			panic("oracle: the continued fraction of Φ does not converge")
		}
	}
	q := density(t, w)
	q.Mul(q, t)
	return nf(prec).Mul(q, k)
}

// Phi is Φ(z) with NormalBits of relative precision in Φ(z) and in 1 − Φ(z).
func Phi(z *big.Float) *big.Float {
	switch {
	case z.IsInf():
		if z.Sign() < 0 {
			return F(0)
		}
		return F(1)
	case z.Sign() <= 0:
		return lowerTail(nf(z.Prec()).Neg(z), NormalBits)
	default:
		return OneMinus(lowerTail(z, NormalBits))
	}
}

// Quantile is Φ⁻¹(a) for a in [0, 1] (−Inf at 0, +Inf at 1), to NormalBits.
func Quantile(a *big.Float) *big.Float {
	half := big.NewFloat(0.5)
	switch {
	case a.Sign() == 0:
		return new(big.Float).SetInf(true)
	case a.Cmp(one) == 0:
		return new(big.Float).SetInf(false)
	case a.Cmp(half) > 0:
		return tailQuantile(OneMinus(a))
	default:
		t := tailQuantile(a)
		return t.Neg(t)
	}
}

// tailQuantile is the t ≥ 0 with Φ(−t) = q, for q in (0, 1/2]. Newton's method
// converges quadratically from the estimate: one step at each doubled precision,
// then steps at full precision until the error left after the last, about
// (t/2)·step² (the second derivative of Φ(−t) over the first is −t), is below the
// last bits.
func tailQuantile(q *big.Float) *big.Float {
	const full = NormalBits + 32
	if q.Cmp(big.NewFloat(0.5)) == 0 {
		return nf(full)
	}
	t := nf(64).SetFloat64(tailEstimate(q))
	for p := uint(80); p < full; p *= 2 {
		t, _ = newton(t, q, p)
	}
	for range 40 {
		var d *big.Float
		t, d = newton(t, q, full)
		left := nf(64).Mul(d, d)
		left.Mul(left, nf(64).Add(nf(64).Abs(t), big.NewFloat(1)))
		if left.Sign() == 0 || left.MantExp(nil) < max(t.MantExp(nil), 1)-NormalBits-8 {
			return t
		}
	}
	panic("oracle: Φ⁻¹ did not converge")
}

// newton is one step t + (Φ(−t) − q)/φ(t) at precision p, and the step.
func newton(t, q *big.Float, p uint) (next, step *big.Float) {
	t = nf(p).Set(t)
	d := nf(p).Sub(lowerTail(t, p), q)
	d.Quo(d, density(t, p))
	return t.Add(t, d), d
}

// tailEstimate solves ln Φ(−t) = ln q in float64 by bisection: the erfc of package
// math to t = 35, the first terms of the asymptotic series of Mills' ratio beyond.
func tailEstimate(q *big.Float) float64 {
	m := new(big.Float)
	e := q.MantExp(m)
	mf, _ := m.Float64()
	lnq := math.Log(mf) + float64(e)*math.Ln2
	lnTail := func(t float64) float64 {
		if t < 35 {
			return math.Log(0.5 * math.Erfc(t/math.Sqrt2))
		}
		u := 1 / (t * t)
		return -t*t/2 - math.Log(t) - 0.5*math.Log(2*math.Pi) + math.Log(1-u+3*u*u-15*u*u*u+105*u*u*u*u)
	}
	lo, hi := 0.0, math.Sqrt(-2*lnq)+2
	for range 200 {
		mid := (lo + hi) / 2
		if lnTail(mid) > lnq {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
