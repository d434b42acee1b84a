package dp

import (
	"math"
	"math/big"
)

// Ball arithmetic on xf for the fast μ-GDP path (normaldd.go). An xf x stands for
// every real X with |X − (x.hi + x.lo)| ≤ x.err, and add and mul (dd.go) are ball
// operations: their result's ball holds X + Y and X·Y for every X, Y in the operands'
// balls (mul's error bound has the terms |x|·y.err + |y|·x.err + x.err·y.err for
// that). The functions here keep that meaning: whatever they return holds the
// function's value at every point of the argument's ball.

// quo is X/Y for every X, Y in the balls, ok = false when y's ball may hold 0. The
// quotient q = q1 + q2 is two float64 divisions; the residual X − q·Y is then a
// ball computed with add and mul, so |X/Y − q| = |X − q·Y|/|Y| ≤ (|residual| +
// its err)/min|Y|, with min|Y| ≥ |y.hi| − |y.lo| − y.err rounded down.
func quo(x, y xf) (xf, bool) {
	ymin := (math.Abs(y.hi) - math.Abs(y.lo) - y.err) * (1 - 0x1p-50)
	if !(ymin > 0) || math.IsInf(y.hi, 0) {
		return xf{}, false
	}
	q1 := x.hi / y.hi
	r := add(x, mul(exact(q1), y).neg())
	q2 := (r.hi + r.lo) / y.hi
	qh, ql := twoSum(q1, q2)
	q := xf{qh, ql, 0}
	res := add(x, mul(q, y).neg())
	q.err = (math.Abs(res.hi) + math.Abs(res.lo) + res.err) / ymin * slack * slack
	if math.IsNaN(q.err) || math.IsInf(q.err, 0) {
		return xf{}, false
	}
	return q, true
}

// scaled is x·2^k. Scaling by a power of two is exact unless a part leaves the
// normal range; any part that did not survive the round trip is charged to err
// (each part loses less than 2^−1074, and err itself is rounded up).
func (x xf) scaled(k int) xf {
	h, l, e := math.Ldexp(x.hi, k), math.Ldexp(x.lo, k), math.Ldexp(x.err, k)
	if math.Ldexp(h, -k) != x.hi || math.Ldexp(l, -k) != x.lo || math.Ldexp(e, -k) != x.err {
		e = math.Nextafter(e+0x1p-1072, math.Inf(1))
		h, l = twoSum(h, l)
	}
	return xf{h, l, e}
}

// magnitude is an upper bound of |X| over x's ball.
func (x xf) magnitude() float64 {
	return float64((math.Abs(x.hi) + math.Abs(x.lo) + x.err) * slack)
}

// lowerMagnitude is a lower bound of |X| over x's ball (0 when the ball may hold 0).
func (x xf) lowerMagnitude() float64 {
	return max(float64((math.Abs(x.hi)-math.Abs(x.lo)-x.err)*(1-0x1p-50)), 0)
}

// hull is a ball holding both x's and y's balls: centred at x, with radius x.err
// plus a bound on the distance from x's centre to any point of y's ball (add's
// ball for Y − x holds it).
func hull(x, y xf) xf {
	d := add(y, xf{-x.hi, -x.lo, 0})
	return xf{x.hi, x.lo, float64(x.err+d.magnitude()) * slack}
}

// encloseUp is enclose with its error bound rounded up once more: enclose sums its
// error terms in big.Float at a few more bits than the inputs, and this margin
// (relative 2^−50) covers that sum's rounding whatever its direction.
func encloseUp(lo, hi *big.Float) xf {
	x := enclose(lo, hi)
	x.err = math.Nextafter(x.err*(1+0x1p-50), math.Inf(1))
	return x
}
