package dp

import "math"

// An exact value is one float64 that holds a dataset's mechanism exactly, whatever its
// answer (invariant 10, docs/DESIGN.md §8.3): its p_one when that is exactly
// Pr[M = 1], else −p_true (the sign bit set) for an answer-0 dataset whose 1 − p_true
// is not a float64 — a tail: p_true below ½ with bits below 2^−53, down to 1e−300 and
// beyond, which no p_one can hold. A table carries a mechanism as p_one and p_true;
// for answer 1 they are one value, for answer 0 the smaller of the two is exact and
// the other its complement rounded to the safe side (ExactColumns), so the exact value
// is read back from either (ExactValue).

// ExactOfPTrue is the exact value of a dataset given its answer and p_true.
func ExactOfPTrue(answer bool, ptrue float64) float64 {
	if answer {
		return ptrue
	}
	if c, exact := OneMinus(ptrue, false); exact {
		return c
	}
	return math.Copysign(ptrue, -1)
}

// ExactValue is the exact value of a row with both columns (ptrue NaN: the table has
// none, and p_one is the mechanism): for answer 0 the smaller of p_one and p_true is
// the exact one, which reads what ExactColumns writes and also tables that carry p_one
// exactly and p_true rounded.
func ExactValue(answer bool, pone, ptrue float64) float64 {
	if answer || ptrue != ptrue {
		return pone
	}
	if c, exact := OneMinus(ptrue, false); exact && c == pone || !(ptrue < pone) {
		return pone
	}
	return math.Copysign(ptrue, -1)
}

// ExactValues is ExactValue for every row (ptrue nil: the table has none): pone
// itself where every row's value is its p_one, the common case, without a copy.
func ExactValues(answer []bool, pone, ptrue []float64) []float64 {
	if ptrue == nil {
		return pone
	}
	var out []float64
	for i, p := range pone {
		v := ExactValue(answer[i], p, ptrue[i])
		if math.Float64bits(v) == math.Float64bits(p) {
			continue
		}
		if out == nil {
			out = append([]float64(nil), pone...)
		}
		out[i] = v
	}
	if out == nil {
		return pone
	}
	return out
}

// ExactColumns is the p_one and p_true written for exact value v of a dataset with
// this answer: both exact where they can be; else the exact one and the other's real
// value rounded to the safe side (p_true down, so p_one up for answer 0).
func ExactColumns(answer bool, v float64) (pone, ptrue float64) {
	if Tail(v) {
		q := -v
		pone, _ = OneMinus(q, true)
		return pone, q
	}
	if answer {
		return v, v
	}
	ptrue, _ = OneMinus(v, false)
	return v, ptrue
}

// Tail reports that exact value v is −p_true (ExactOfPTrue).
func Tail(v float64) bool { return math.Signbit(v) }

// ExactProb is Pr[M = 1] (one) or Pr[M = 0] of exact value v, rounded to nearest
// where it is not exact: for reports and tolerances, never for a bound.
func ExactProb(v float64, one bool) float64 {
	if Tail(v) {
		if one {
			return 1 + v
		}
		return -v
	}
	if one {
		return v
	}
	return 1 - v
}

// AllowedExact is the exact condition on an edge between datasets with exact values a
// and b: Allowed on p_one where both are p_ones, on Pr[M = 0] where both are tails (the
// condition is the same under exchanging the outputs), and across the outputs
// (Across) where one is.
func (p Pair) AllowedExact(a, b float64) bool {
	ta, tb := Tail(a), Tail(b)
	switch {
	case ta && tb:
		return p.Allowed(-a, -b)
	case ta:
		lo, hi := p.Across(b)
		return lo <= -a && -a <= hi
	case tb:
		lo, hi := p.Across(a)
		return lo <= -b && -b <= hi
	}
	return p.Allowed(a, b)
}
