package dp

import "math"

// The (ε,δ) bounds' fast path. Every branch of U* and L* is an affine form
//
//	X = a1 + a2 + (b1 + b2 + b3)·K
//
// of float64 values (a, δ, 1 and their negations) and one enclosed constant K (e^ε,
// e^−ε, e^ε − 1 or 1 − e^−ε, or a negation). affine evaluates that form in one pass
// of error-free transformations with a single error bound, instead of the general
// add and mul of dd.go (each of which carries its own bound and checks for
// underflow), and hands the result to the same floor, ceil and sign; where they
// cannot decide, or where affine declines (outside the range its analysis covers),
// Upper and Lower run the general double-double path and then math/big as before.
// The result is therefore the same float64, RD(U*(a)) or RU(L*(a)), whichever path
// decides it (invariants 1 and 2): TestFastPathIsCertified checks affine's
// enclosure against math/big and the fast bounds against the general path.

// fastConst reports whether an enclosed constant is in affine's range:
// 2^−400 ≤ |hi| ≤ 2^400, so that a product of it with an |s| ≥ 2^−400 (and ≤ 4)
// neither underflows nor overflows and TwoProd's error term is exact.
func fastConst(k xf) bool {
	h := math.Abs(k.hi)
	return h >= 0x1p-400 && h <= 0x1p400
}

// affine encloses X = a1 + a2 + (b1 + b2 + b3)·k; ok is false when |b1 + b2 + b3|
// rounds below 2^−400 (or is NaN), where the product could underflow. k must pass
// fastConst and |b1 + b2 + b3| must be at most 4.
//
// The error bound. B = b1 + b2 + b3 = s + e1 + e2 exactly (two TwoSums), K = kh + kl + θ
// with |θ| ≤ k.err, s·kh = p + pe exactly (TwoProd, no underflow since
// |s·kh| ≥ 2^−800), a1 + a2 = a + ae and a + p = h0 + he exactly (TwoSums). So
//
//	X = h0 + [he + ae + pe + s·kl + E·kh] + E·kl + B·θ,   E = e1 + e2.
//
// The bracket is computed as t from el = RN(E), c1 = RN(s·kl), c2 = RN(el·kh) and
// three more sums t1, t2, t3, t, each rounding off at most u = 2^−53 of its result
// (plus 2^−1075 for a product that underflows): |bracket − t| ≤ u·(|c1| + |c2| +
// |el|·|kh| + |t1| + |t2| + |t3| + |t|) + 2^−1074, with |E − el| ≤ u·|el|. The rest is
// at most (1+u)·|el|·|kl| + (|s| + (1+u)·|el|)·k.err. The sum of these terms is
// computed in float64 (some 15 roundings, each at most u relative or 2^−1075
// absolute), so the computed sum times slack (1 + 2^−40, far above (1+u)^20) plus
// 2^−1060 (above 2^−1074 + 20·2^−1075) bounds the true error. Finally hi, lo =
// TwoSum(h0, t), exactly h0 + t with hi = RN(hi + lo): |X − (hi + lo)| ≤ err, an xf.
// Every product that feeds a sum is rounded on its own (doc.go, invariant 6).
func affine(a1, a2, b1, b2, b3 float64, k xf) (xf, bool) {
	s1, e1 := twoSum(b1, b2)
	s, e2 := twoSum(s1, b3)
	if !(math.Abs(s) >= 0x1p-400) {
		return xf{}, false
	}
	p, pe := twoProd(s, k.hi)
	a, ae := twoSum(a1, a2)
	h0, he := twoSum(a, p)
	el := e1 + e2
	c1 := float64(s * k.lo)
	c2 := float64(el * k.hi)
	t1 := he + ae
	t2 := pe + c1
	t3 := t1 + t2
	t := t3 + c2
	hi, lo := twoSum(h0, t)
	const u = 0x1p-53
	ael := math.Abs(el)
	r := math.Abs(c1) + math.Abs(c2) + float64(ael*math.Abs(k.hi)) + math.Abs(t1) + math.Abs(t2) + math.Abs(t3) + math.Abs(t)
	err := float64(u*r) + float64(ael*math.Abs(k.lo)) + float64((math.Abs(s)+ael)*k.err)
	return xf{hi, lo, float64(err*slack) + 0x1p-1060}, true
}

// oneMinus is the sign of c = 1 − a − δ for a in (0, 1): RN(RN(1 − a) − δ) is within
// 2^−52 of c (each TwoSum's dropped part is at most half an ulp of a value ≤ 1), so
// its sign is c's once it is at least 2^−50 away from 0; ok is false otherwise.
func (p *EpsDelta) oneMinus(a float64) (sign int, ok bool) {
	s := float64(1-a) - p.Delta
	switch {
	case s >= 0x1p-50:
		return 1, true
	case s <= -0x1p-50:
		return -1, true
	}
	return 0, false
}

// upperFast is upperDD's value by affine (ok false: not decided here). It chooses
// branches as upperDD does.
func (p *EpsDelta) upperFast(a float64) (float64, bool) {
	if !p.fast || !(a > 0 && a < 1) {
		return 0, false
	}
	b1a, b2a := p.approxUpper(a)
	if min(b1a, b2a) > 1+2*ApproxMargin {
		return 1, true
	}
	b := 1.0
	if b1a <= b2a+2*ApproxMargin { // e^ε·a + δ
		f, ok := floorOf(affine(p.Delta, 0, a, 0, 0, p.eps))
		if !ok {
			return 0, false
		}
		b = min(b, f)
	}
	if b2a <= b1a+2*ApproxMargin { // 1 − c·e^−ε, below 1 only when c > 0
		sc, ok := p.oneMinus(a)
		if !ok {
			return 0, false
		}
		if sc > 0 {
			var x xf
			if p.small { // (a + δ) + c·(1 − e^−ε)
				x, ok = affine(a, p.Delta, 1, -a, -p.Delta, p.iem1)
			} else {
				x, ok = affine(1, 0, 1, -a, -p.Delta, p.ieps.neg())
			}
			f, ok := floorOf(x, ok)
			if !ok {
				return 0, false
			}
			b = min(b, f)
		}
	}
	return max(b, a), true
}

// floorOf is x.floorNear for an affine result (x, ok): not decided (ok false)
// when either is not.
func floorOf(x xf, ok bool) (float64, bool) {
	if !ok {
		return 0, false
	}
	return x.floorNear()
}

// lowerFast is lowerDD's value by affine (ok false: not decided here).
func (p *EpsDelta) lowerFast(a float64) (float64, bool) {
	if !p.fast || !(a > 0 && a < 1) {
		return 0, false
	}
	l1a, l2a := p.approxLower(a)
	if max(l1a, l2a) < -2*ApproxMargin {
		return 0, true
	}
	b := 0.0
	if l1a >= l2a-2*ApproxMargin { // 1 − δ − e^ε·(1 − a)
		var x xf
		var ok bool
		if p.small { // (a − δ) − (e^ε − 1)·(1 − a)
			x, ok = affine(a, -p.Delta, 1, -a, 0, p.em1.neg())
		} else {
			x, ok = affine(1, -p.Delta, 1, -a, 0, p.eps.neg())
		}
		if !ok {
			return 0, false
		}
		s, ok := x.sign()
		if !ok {
			return 0, false
		}
		if s > 0 {
			f, ok := x.ceilNear()
			if !ok {
				return 0, false
			}
			b = f
		}
	}
	// (a − δ)·e^−ε, above 0 only when a > δ: RN(a − δ) has the sign of a − δ.
	if l2a >= l1a-2*ApproxMargin && a-p.Delta > 0 {
		var x xf
		var ok bool
		if p.small { // d − d·(1 − e^−ε)
			x, ok = affine(a, -p.Delta, a, -p.Delta, 0, p.iem1.neg())
		} else {
			x, ok = affine(0, 0, a, -p.Delta, 0, p.ieps)
		}
		if !ok {
			return 0, false
		}
		// X > 0: ceilPositive for tiny values (its case below the smallest
		// float64), ceilNear for the rest.
		f, ok := 0.0, false
		if x.hi < 0x1p-1000 {
			f, ok = x.ceilPositive()
		} else {
			f, ok = x.ceilNear()
		}
		if !ok {
			return 0, false
		}
		b = max(b, f)
	}
	return min(b, a), true
}

// floorNear is x.floor() for the fast path, without Nextafter: for |hi| in
// [2^−970, 2^1000] the float64 neighbours of hi are a bit pattern away, and the
// gaps to them are one ulp, or half of one on the side of 0 of a power of two.
// Other values go to floor.
func (x xf) floorNear() (float64, bool) {
	h := x.hi
	bits := math.Float64bits(h)
	e := bits >> 52 & 0x7ff
	if e < 1023-970 || e > 1023+1000 {
		return x.floor()
	}
	ulp := math.Float64frombits((e - 52) << 52)
	if bits&(1<<52-1) == 0 {
		ulp /= 2 // a power of two: the gap on the side of 0 is half
	}
	if !(x.err < ulp/4) {
		return 0, false
	}
	switch {
	case x.lo >= x.err: // h ≤ X < h + ulp/2 + ulp/4: RD is h
		return h, true
	case x.lo < -x.err: // below h by less than 3/4 of the gap below: its neighbour
		if h > 0 {
			return math.Float64frombits(bits - 1), true
		}
		return math.Float64frombits(bits + 1), true
	}
	return 0, false
}

// ceilNear is x.ceil() by floorNear.
func (x xf) ceilNear() (float64, bool) {
	f, ok := x.neg().floorNear()
	return -f, ok
}
