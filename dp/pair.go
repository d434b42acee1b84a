package dp

import (
	"fmt"
	"math"
	"math/big"
)

// EpsDelta is the (ε,δ)-DP suitable pair (L, U) of the paper on p_one = Pr[M = 1]
// (docs/DESIGN.md §2), with e^ε and e^−ε held as certified double-double enclosures.
// The zero value is not usable; build one with NewEpsDelta (or New, which wraps it in
// the framework-generic Pair). An EpsDelta is immutable and safe for concurrent use.
type EpsDelta struct {
	Epsilon, Delta float64

	e     float64 // e^ε rounded to nearest: for display and the closed form only
	small bool    // e^ε < 2: the forms in e^ε − 1 and 1 − e^−ε keep the digits
	eps   xf      // e^ε
	ieps  xf      // e^−ε
	em1   xf      // e^ε − 1
	iem1  xf      // 1 − e^−ε
	fast  bool    // ε > 0 and the four in affine's range (edfast.go)
}

// MaxEpsilon bounds the ε accepted: e^ε must be a finite float64, so ε must lie
// below ln(MaxFloat64). The constant is that logarithm to 30 digits; as a float64
// it is math.Log(math.MaxFloat64), whose e^ is already +Inf (TestMaxEpsilon).
const MaxEpsilon = 709.782712893383973096206318587

// NewEpsDelta validates 0 ≤ ε < MaxEpsilon and 0 ≤ δ < 1 and encloses e^ε.
func NewEpsDelta(epsilon, delta float64) (EpsDelta, error) {
	if math.IsNaN(epsilon) || epsilon < 0 || math.IsInf(epsilon, 0) {
		return EpsDelta{}, fmt.Errorf("epsilon must be a finite number ≥ 0, got %v", epsilon)
	}
	if epsilon >= MaxEpsilon {
		return EpsDelta{}, fmt.Errorf("epsilon must be below %.2f (e^ε overflows a float64), got %v", MaxEpsilon, epsilon)
	}
	if math.IsNaN(delta) || delta < 0 || delta >= 1 {
		return EpsDelta{}, fmt.Errorf("delta must be in [0, 1), got %v", delta)
	}
	const prec = 256
	slo, shi := expm1Bounds(epsilon, prec)
	lo, hi := expBounds(epsilon, prec)
	one := new(big.Float).SetInt64(1)
	quo := func(x, y *big.Float, mode big.RoundingMode) *big.Float {
		return new(big.Float).SetPrec(2*prec).SetMode(mode).Quo(x, y)
	}
	// 1 − e^−ε = S/(1 + S), increasing in S.
	mlo := quo(slo, onePlus(slo, prec, big.ToPositiveInf), big.ToNegativeInf)
	mhi := quo(shi, onePlus(shi, prec, big.ToNegativeInf), big.ToPositiveInf)
	p := EpsDelta{Epsilon: epsilon, Delta: delta,
		eps: enclose(lo, hi), ieps: enclose(quo(one, hi, big.ToNegativeInf), quo(one, lo, big.ToPositiveInf)),
		em1: enclose(slo, shi), iem1: enclose(mlo, mhi)}
	p.e, p.small = p.eps.hi, p.eps.hi < 2
	p.fast = epsilon > 0 && fastConst(p.eps) && fastConst(p.ieps) && fastConst(p.em1) && fastConst(p.iem1)
	if math.IsInf(p.e, 0) {
		return EpsDelta{}, fmt.Errorf("epsilon must be below %.2f (e^ε overflows a float64), got %v", MaxEpsilon, epsilon)
	}
	return p, nil
}

// enclose turns lo ≤ X ≤ hi into a double-double with an error bound.
func enclose(lo, hi *big.Float) xf {
	prec := max(lo.Prec(), hi.Prec()) + 8
	mid := new(big.Float).SetPrec(prec).Add(lo, hi)
	mid.SetMantExp(mid, -1)
	h, _ := mid.Float64()
	r := new(big.Float).SetPrec(prec).Sub(mid, new(big.Float).SetFloat64(h))
	l, _ := r.Float64()
	r.Sub(r, new(big.Float).SetFloat64(l))
	r.Abs(r)
	half := new(big.Float).SetPrec(prec).Sub(hi, lo)
	half.SetMantExp(half, -1)
	r.Add(r, half)
	err, acc := r.Float64()
	if acc == big.Below {
		err = math.Nextafter(err, math.Inf(1))
	}
	return xf{h, l, err}
}

// E is e^ε rounded to the nearest float64: for display and the paper's closed form,
// never for a bound or the audit.
func (p EpsDelta) E() float64 { return p.e }

// Upper is U(a) on p_one (invariant 1): the largest float64 b such that a neighbour of
// a vertex with p_one = a may have p_one = b. U(a) ≥ a, non-decreasing.
func (p EpsDelta) Upper(a float64) float64 {
	if a >= 1 {
		return 1
	}
	if b, ok := p.upperFast(a); ok {
		return b
	}
	if b, ok := p.upperDD(a); ok {
		return b
	}
	return p.upperBig(a)
}

// Lower is L(a) on p_one (invariant 2): the smallest float64 b allowed next to a.
func (p EpsDelta) Lower(a float64) float64 {
	if a <= 0 {
		return 0
	}
	if b, ok := p.lowerFast(a); ok {
		return b
	}
	if b, ok := p.lowerDD(a); ok {
		return b
	}
	return p.lowerBig(a)
}

// ApproxMargin bounds the absolute error of ApproxBounds: both are within it of the
// real bounds U*(a) and L*(a), for every ε and δ.
const ApproxMargin = 0x1p-49

// ApproxBounds is (L*(a), U*(a)) in plain float64 from the nearest e^ε and e^−ε, each
// within ApproxMargin of the real bound (every branch that can be the extreme one is
// a few roundings of terms at most 1; 1 − a is exact where e^ε·(1 − a) ≤ 1 matters).
// It lets the audit and the bounds skip the certified computation where a value is
// clearly inside or one branch clearly wins.
func (p EpsDelta) ApproxBounds(a float64) (lo, up float64) {
	b1, b2 := p.approxUpper(a)
	l1, l2 := p.approxLower(a)
	return max(l1, l2, 0), min(b1, b2, 1)
}

// approxUpper is U's two branches, e^ε·a + δ and 1 − (1 − a − δ)·e^−ε, in float64.
func (p EpsDelta) approxUpper(a float64) (b1, b2 float64) {
	return float64(p.eps.hi*a) + p.Delta, 1 - float64((1-a-p.Delta)*p.ieps.hi)
}

// approxLower is L's two branches, 1 − δ − e^ε·(1 − a) and (a − δ)·e^−ε, in float64.
func (p EpsDelta) approxLower(a float64) (l1, l2 float64) {
	return 1 - p.Delta - float64(p.eps.hi*(1-a)), float64((a - p.Delta) * p.ieps.hi)
}

// upperDD is RD(min(e^ε·a + δ, 1 − (1 − a − δ)·e^−ε, 1)) in double-double; the
// second branch is below 1 only when 1 − a − δ > 0. RD is monotone, so RD of the
// minimum is the minimum of the RDs, and a branch that the float64 values show to be
// larger by more than twice ApproxMargin need not be computed.
func (p EpsDelta) upperDD(a float64) (float64, bool) {
	b1a, b2a := p.approxUpper(a)
	if min(b1a, b2a) > 1+2*ApproxMargin {
		return 1, true
	}
	b := 1.0
	if b1a <= b2a+2*ApproxMargin {
		f, ok := add(mul(p.eps, exact(a)), exact(p.Delta)).floor()
		if !ok {
			return 0, false
		}
		b = min(b, f)
	}
	if b2a <= b1a+2*ApproxMargin {
		f, ok := p.upper2(a)
		if !ok {
			return 0, false
		}
		b = min(b, f)
	}
	return max(b, a), true // U*(a) ≥ a exactly, so RD(U*(a)) ≥ a: max only guards
}

// upper2 is RD of U's second branch, 1 − (1 − a − δ)·e^−ε (1 when 1 − a − δ ≤ 0).
func (p EpsDelta) upper2(a float64) (float64, bool) {
	b := 1.0
	c := add(add(exact(1), exact(-a)), exact(-p.Delta))
	s, ok := c.sign()
	if !ok {
		return 0, false
	}
	if s > 0 {
		var b2x xf
		if p.small { // (a + δ) + c·(1 − e^−ε): no cancellation as ε → 0
			b2x = add(add(exact(a), exact(p.Delta)), mul(c, p.iem1))
		} else {
			b2x = add(exact(1), mul(c, p.ieps).neg())
		}
		b2, ok := b2x.floor()
		if !ok {
			return 0, false
		}
		b = min(b, b2)
	}
	return b, true
}

// lowerDD is RU(max(1 − δ − e^ε·(1 − a), (a − δ)·e^−ε, 0)) in double-double, skipping
// a branch the float64 values show to be smaller, like upperDD.
func (p EpsDelta) lowerDD(a float64) (float64, bool) {
	l1a, l2a := p.approxLower(a)
	if max(l1a, l2a) < -2*ApproxMargin {
		return 0, true
	}
	d := add(exact(a), exact(-p.Delta))
	b := 0.0
	if l1a >= l2a-2*ApproxMargin {
		q := add(exact(1), exact(-a)) // 1 − a, exactly
		var l1 xf
		if p.small { // (a − δ) − (e^ε − 1)·(1 − a)
			l1 = add(d, mul(p.em1, q).neg())
		} else {
			l1 = add(add(exact(1), exact(-p.Delta)), mul(p.eps, q).neg())
		}
		if s, ok := l1.sign(); !ok {
			return 0, false
		} else if s > 0 {
			f, ok := l1.ceil()
			if !ok {
				return 0, false
			}
			b = f
		}
	}
	if l2a >= l1a-2*ApproxMargin {
		if s, ok := d.sign(); !ok {
			return 0, false
		} else if s > 0 {
			l2 := mul(d, p.ieps)
			if p.small { // d − d·(1 − e^−ε)
				l2 = add(d, mul(d, p.iem1).neg())
			}
			f, ok := l2.ceilPositive() // d > 0 and e^−ε > 0
			if !ok {
				return 0, false
			}
			b = max(b, f)
		}
	}
	return min(b, a), true
}

// Allowed reports whether p_one values x, y of two neighbours satisfy all four
// (ε,δ)-DP inequalities exactly (invariant 3).
func (p EpsDelta) Allowed(x, y float64) bool {
	return p.Lower(x) <= y && y <= p.Upper(x)
}

// EBounds encloses e^ε in float64: lo ≤ e^ε ≤ hi, lo rounded down and hi rounded up
// from the certified enclosure, so bounds computed with them by directed rounding are
// true bounds (package optimize's certified dual bound uses them).
func (p EpsDelta) EBounds() (lo, hi float64) {
	x := p.eps
	err := new(big.Float).SetFloat64(x.err)
	return rd(exactSum(x.hi, x.lo).Sub(exactSum(x.hi, x.lo), err)), BigUp(exactSum(x.hi, x.lo).Add(exactSum(x.hi, x.lo), err))
}
