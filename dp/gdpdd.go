package dp

import "math"

// shiftedDD is shifted's fast path: RD(Φ(Φ⁻¹(a) + s)) (down) or RU of it, for a in
// (0, 1), from balls (normaldd.go); ok = false when they cannot decide it.
//
// With q = min(a, 1 − a) (1 − a is exact for a > 1/2) and t* ≥ 0 the solution of
// Q(t*) = q, Φ⁻¹(a) is −t* (a ≤ 1/2) or t* (a > 1/2). quantileDD encloses t* in a
// ball T; then Φ⁻¹(a) + s lies in the ball ±T + s, Φ of which holds the real bound,
// and its floor (ceiling) is the answer when the whole ball rounds to one float64.
func shiftedDD(a, s float64, down bool) (float64, bool) { return shiftedBall(a, s, down, false) }

// reflectedDD is RD(Φ(−Φ⁻¹(a) + s)) (down) or RU of it: shiftedDD on the other tail,
// 1 − Φ(Φ⁻¹(a) − s), for the bounds across the outputs (across.go).
func reflectedDD(a, s float64, down bool) (float64, bool) { return shiftedBall(a, s, down, true) }

// shiftedBall is shiftedDD, or reflectedDD when reflect.
func shiftedBall(a, s float64, down, reflect bool) (float64, bool) {
	q, sign := a, -1.0
	if a > 0.5 {
		q, sign = 1-a, 1
	}
	if reflect {
		sign = -sign
	}
	t, ok := quantileDD(q)
	if !ok {
		return 0, false
	}
	if sign < 0 {
		t = t.neg()
	}
	x := add(t, exact(s))
	switch {
	case x.hi > 0 && x.lowerMagnitude() >= 9:
		// Q(x) < φ(x)/x ≤ φ(9)/9 < 2^−60 (Mills' ratio is below 1/x, its first
		// convergent): Φ(x) lies in (1 − 2^−60, 1), strictly.
		if down {
			return 1 - 0x1p-53, true
		}
		return 1, true
	case x.hi < 0 && x.lowerMagnitude() >= 38.5:
		// Φ(x) = Q(|x|) < φ(38.5)/38.5 = e^(−741.125)/(38.5·√(2π)) < e^(−745.6), below
		// 2^−1074 = e^(−744.44…), and > 0.
		if down {
			return 0, true
		}
		return math.SmallestNonzeroFloat64, true
	}
	v, _, ok := phiDD(x)
	if !ok {
		return 0, false
	}
	if down {
		return v.floor()
	}
	return v.ceilPositive() // Φ > 0
}

// quantileDD encloses t* ≥ 0 with Q(t*) = q, for q in (0, 1/2], in a ball, from one
// evaluation of Q and φ at a float64 estimate t0 (Newton on ln Q in float64 with
// math.Erfc: an estimate only, certified here) (docs/DESIGN.md §11.2):
//
//  1. Bracket. With D ∋ Q(t0) − q and φ(t0) ≥ φmin, r0 = 2·max|D|/φmin: if
//     r0·(|t0| + r0) ≤ 1/2, then φ(ξ) ≥ φ(t0)·e^(−|t0|r0 − r0²/2) > φ(t0)/2 on
//     [t0 − r0, t0 + r0], so Q (decreasing, Q' = −φ) moves by more than
//     r0·φ(t0)/2 ≥ |Q(t0) − q| across either half, and |t* − t0| ≤ r0.
//  2. Newton with its remainder. δ* = t* − t0 satisfies
//     Q(t0) − q = φ(t0)·δ* + ∫_0^δ* (φ(t0 + u) − φ(t0)) du, and |φ'(ξ)| = |ξ|·φ(ξ) ≤
//     (|t0| + r0)·φ(t0)·e^(|t0|r0) ≤ 1.65·(|t0| + r0)·φ(t0) there, so
//     δ* = D/φ(t0) ± 0.825·(|t0| + r0)·r0²: the ball quo(D, φ(t0)) widened by that.
//
// With t0 within a few ulps, r0 is about 2^−51·t0 and the radius about
// 3.3·t0³·2^−106; when the estimate is poorer the ball's centre is the next point
// (at most three rounds).
func quantileDD(q float64) (xf, bool) {
	if !(q > 0 && q <= 0.5) {
		return xf{}, false
	}
	t := exact(quantileFloat(q))
	for range 3 {
		qt, d, ok := phiDD(t.neg()) // Q(t) = Φ(−t)
		if !ok {
			return xf{}, false
		}
		diff := add(qt, exact(-q))
		dmin := d.lowerMagnitude()
		if !(dmin > 0) {
			return xf{}, false
		}
		r0 := float64(float64(2*diff.magnitude()/dmin) * slack)
		at := math.Abs(t.hi) + math.Abs(t.lo)
		if float64(r0*(at+r0)) > 0.5 {
			return xf{}, false
		}
		step, ok := quo(diff, d)
		if !ok {
			return xf{}, false
		}
		newton := float64(0.83 * (at + r0) * r0 * r0)
		ts := add(t, step)
		ts.err = float64(ts.err+newton) * slack
		// Another round helps only when the remainder term dominates: otherwise the
		// evaluation's own width (deep in the tail, where the balls' low parts are
		// subnormal) limits the ball, and the final rounding decides whether it is
		// narrow enough.
		if ts.err <= 0x1p-84*max(1, at) || newton <= 0x1p-96*max(1, at) {
			return ts, true
		}
		t = xf{ts.hi, ts.lo, 0}
	}
	return xf{}, false
}

// quantileFloat is a float64 estimate of t* ≥ 0 with Q(t*) = q ≤ 1/2: Newton's
// method on ln Q(t) = ln q from quantileEstimate, with ln Q from math.Erfc below 25
// and from the asymptotic series of Mills' ratio above (whose omitted terms are
// below 10^−13 there). Only a starting point: quantileDD certifies what it uses.
func quantileFloat(q float64) float64 {
	t := max(-quantileEstimate(q), 0)
	lq := math.Log(q)
	for range 8 {
		l := lnQFloat(t)
		h := math.Exp(float64(-t*t*0.5) - lnSqrt2Pi - l) // φ(t)/Q(t)
		step := (l - lq) / h
		t += step
		if !(math.Abs(step) > 1e-16*max(t, 1)) {
			break
		}
	}
	if !(t >= 0) || math.IsInf(t, 0) {
		return max(-quantileEstimate(q), 0)
	}
	return t
}

// lnSqrt2Pi is ln √(2π), for the estimates.
const lnSqrt2Pi = 0.91893853320467274178

func lnQFloat(t float64) float64 {
	if t < 25 {
		return math.Log(0.5 * math.Erfc(t/math.Sqrt2))
	}
	v := 1 / (t * t)
	s := 1 - float64(v*(1-float64(v*(3-float64(v*(15-float64(v*(105-float64(v*945)))))))))
	return float64(-t*t*0.5) - math.Log(t) - lnSqrt2Pi + math.Log(s)
}
