package dp

import "math"

// xf is a real number X known to lie within err of hi + lo: |X − (hi + lo)| ≤ err,
// with hi = RN(hi + lo) (a normalised double-double). Sums and products are carried
// with error-free transformations (TwoSum, FMA-based TwoProd); whatever they drop is
// added to err, so err is 0 exactly when nothing was dropped, and a result that is a
// float64 is recognised as one.
type xf struct{ hi, lo, err float64 }

// slack inflates an error bound for the roundings made while computing it.
const slack = 1 + 0x1p-40

func exact(a float64) xf { return xf{a, 0, 0} }

func (x xf) neg() xf { return xf{-x.hi, -x.lo, x.err} }

// twoSum returns s = RN(a + b) and e with a + b = s + e exactly.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// twoProd returns p = RN(a·b) and e with a·b = p + e exactly, except when the product
// underflows, which underflow covers.
func twoProd(a, b float64) (p, e float64) {
	p = float64(a * b) // the conversion keeps p rounded: no fusing into a caller's add (doc.go, invariant 6)
	return p, math.FMA(a, b, -p)
}

// underflow bounds what twoProd can lose for a product near the subnormal range: 0
// when the product is exactly p (checked at a scale where nothing underflows).
func underflow(a, b, p float64) float64 {
	if a == 0 || b == 0 || math.Abs(p) >= 0x1p-960 {
		return 0
	}
	if sa := a * 0x1p300; !math.IsInf(sa, 0) {
		if ps := sa * b; ps == p*0x1p300 && math.FMA(sa, b, -ps) == 0 {
			return 0
		}
	}
	return 0x1p-1070
}

// tiny reports whether a·b might have underflowed.
func tiny(a, b float64) bool {
	return a != 0 && b != 0 && math.Abs(a*b) < 0x1p-960
}

func add(x, y xf) xf {
	s, t := twoSum(x.hi, y.hi)
	u, ue := twoSum(x.lo, y.lo)
	v, ve := twoSum(t, u)
	hi, lo := twoSum(s, v)
	// Fold the two dropped parts back in: sums of a few float64 values then usually
	// stay exact (err 0), so a result that is a float64 is recognised as one.
	r, re := twoSum(ue, ve)
	lo, le := twoSum(lo, r)
	hi, lo = twoSum(hi, lo)
	err := x.err + y.err + math.Abs(re) + math.Abs(le)
	return xf{hi, lo, err * slack}
}

func mul(x, y xf) xf {
	p, pe := twoProd(x.hi, y.hi)
	c1, e1 := twoProd(x.hi, y.lo)
	c2, e2 := twoProd(x.lo, y.hi)
	t1, f1 := twoSum(pe, c1)
	t2, f2 := twoSum(t1, c2)
	hi, lo := twoSum(p, t2)
	ax, ay := math.Abs(x.hi)+math.Abs(x.lo), math.Abs(y.hi)+math.Abs(y.lo)
	err := math.Abs(e1) + math.Abs(e2) + math.Abs(f1) + math.Abs(f2) + float64(math.Abs(x.lo)*math.Abs(y.lo)) +
		float64(ax*y.err) + float64(ay*x.err) + float64(x.err*y.err) +
		underflow(x.hi, y.hi, p) + underflow(x.hi, y.lo, c1) + underflow(x.lo, y.hi, c2) + underflow(x.lo, y.lo, x.lo*y.lo)
	if tiny(ax, y.err) || tiny(ay, x.err) || tiny(x.err, y.err) || tiny(x.lo, y.lo) {
		err += 0x1p-1070 // a product in the bound itself lost digits below 2^−1074
	}
	return xf{hi, lo, err * slack}
}

// sign is the sign of X (−1, 0, +1), ok = false when the error bound cannot tell.
func (x xf) sign() (int, bool) {
	if x.err == 0 {
		switch {
		case x.hi > 0:
			return 1, true
		case x.hi < 0:
			return -1, true
		}
		return 0, true
	}
	if math.Abs(x.hi)*(1-0x1p-50) > x.err {
		if x.hi > 0 {
			return 1, true
		}
		return -1, true
	}
	return 0, false
}

// floor is RD(X), the largest float64 ≤ X; ok = false when the error bound cannot
// decide it (X within err of a float64 it is not known to equal).
func (x xf) floor() (float64, bool) {
	h := x.hi
	if x.err == 0 && x.lo == 0 {
		return h, true
	}
	up := math.Nextafter(h, math.Inf(1)) - h
	down := h - math.Nextafter(h, math.Inf(-1))
	if !(x.err < min(up, down)/4) {
		return 0, false
	}
	switch {
	case x.lo >= x.err: // h ≤ X < h + up/2 + up/4
		return h, true
	case x.lo < -x.err: // h − down/2 − down/4 < X < h
		return math.Nextafter(h, math.Inf(-1)), true
	}
	return 0, false
}

// ceil is RU(X), the smallest float64 ≥ X.
func (x xf) ceil() (float64, bool) {
	f, ok := x.neg().floor()
	return -f, ok
}

// ceilPositive is RU(X) for an X known to be > 0: below the smallest float64 it is
// that float64, however uncertain X is.
func (x xf) ceilPositive() (float64, bool) {
	if x.hi+x.lo+x.err <= math.SmallestNonzeroFloat64 {
		return math.SmallestNonzeroFloat64, true
	}
	return x.ceil()
}
