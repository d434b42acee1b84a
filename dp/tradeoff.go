package dp

import (
	"fmt"
	"math"
	"math/big"
	"sort"
)

// MaxTradeoff bounds the points of a trade-off curve.
const MaxTradeoff = 1 << 16

// tradeoff is f-DP for a user's piecewise-linear trade-off curve (docs/DESIGN.md §11.4)
// through points (α_j, β_j), symmetrised as f_s = max(f, f⁻¹): a binary mechanism is
// f-DP for a pair of neighbours in both orders exactly when it is f_s-DP, and then
// U*(a) = 1 − f_s(a), L*(a) = f_s(1 − a). Breakpoints are float64, so every value is
// rational and computed exactly with big.Rat, then rounded in the safe direction.
type tradeoff struct {
	alpha, beta []*big.Rat
	af, bf      []float64
	up, down    *memo
	grid        *gridBounds
}

// NewTradeoff validates a curve given as points (alpha[j], beta[j]) in input order and
// returns its pair. The curve must start at α = 0 and end at α = 1, with α strictly
// increasing, β in [0, 1], non-increasing, convex (slopes non-decreasing) and
// β ≤ 1 − α at every point; the first point breaking a rule is a *RowError.
func NewTradeoff(alpha, beta []float64) (Pair, error) {
	if len(alpha) != len(beta) {
		return Pair{}, fmt.Errorf("trade-off curve: %d alpha values but %d beta values", len(alpha), len(beta))
	}
	if len(alpha) < 2 {
		return Pair{}, fmt.Errorf("trade-off curve: %d points; at least two are needed, at alpha = 0 and alpha = 1", len(alpha))
	}
	if len(alpha) > MaxTradeoff {
		return Pair{}, fmt.Errorf("trade-off curve: %d points, more than the %d allowed", len(alpha), MaxTradeoff)
	}
	t := &tradeoff{af: alpha, bf: beta, up: newMemo(), down: newMemo(), grid: &gridBounds{}}
	one := big.NewRat(1, 1)
	for j := range alpha {
		a, b := alpha[j], beta[j]
		bad := func(col string, v float64, msg string, args ...any) error {
			return &RowError{Row: j + 1, Column: col, Value: v, Msg: fmt.Sprintf(msg, args...)}
		}
		switch {
		case math.IsNaN(a) || a < 0 || a > 1:
			return Pair{}, bad("alpha", a, "must be a number in [0, 1]")
		case math.IsNaN(b) || b < 0 || b > 1:
			return Pair{}, bad("beta", b, "must be a number in [0, 1]")
		case j == 0 && a != 0:
			return Pair{}, bad("alpha", a, "the curve must start at alpha = 0")
		case j == len(alpha)-1 && a != 1:
			return Pair{}, bad("alpha", a, "the curve must end at alpha = 1")
		case j > 0 && a <= alpha[j-1]:
			return Pair{}, bad("alpha", a, "alpha must increase strictly (row %d has %v)", j, alpha[j-1])
		case j > 0 && b > beta[j-1]:
			return Pair{}, bad("beta", b, "a trade-off function is non-increasing, but beta rises from %v (row %d)", beta[j-1], j)
		}
		ra, rb := new(big.Rat).SetFloat64(a), new(big.Rat).SetFloat64(b)
		if new(big.Rat).Add(ra, rb).Cmp(one) > 0 {
			return Pair{}, bad("beta", b, "beta must be at most 1 − alpha = %v (no test beats random guessing)", 1-a)
		}
		t.alpha, t.beta = append(t.alpha, ra), append(t.beta, rb)
		if j >= 2 && t.slope(j-2).Cmp(t.slope(j-1)) > 0 {
			return Pair{}, &RowError{Row: j, Msg: fmt.Sprintf("the curve is not convex at (alpha %v, beta %v): its slope falls from %.6g to %.6g there",
				alpha[j-1], beta[j-1], ratF(t.slope(j-2)), ratF(t.slope(j-1)))}
		}
	}
	return Pair{fw: t}, nil
}

func ratF(r *big.Rat) float64 { f, _ := r.Float64(); return f }

// slope is (β_{j+1} − β_j)/(α_{j+1} − α_j).
func (t *tradeoff) slope(j int) *big.Rat {
	d := new(big.Rat).Sub(t.beta[j+1], t.beta[j])
	return d.Quo(d, new(big.Rat).Sub(t.alpha[j+1], t.alpha[j]))
}

// Tradeoff is the curve's points of a trade-off pair, nil for the other frameworks.
func (p Pair) Tradeoff() (alpha, beta []float64) {
	if t, ok := p.fw.(*tradeoff); ok {
		return t.af, t.bf
	}
	return nil, nil
}

func (t *tradeoff) framework() Framework { return Tradeoff }
func (t *tradeoff) describe() string {
	return fmt.Sprintf("f-DP for a trade-off curve of %d points", len(t.af))
}

// f is the curve at x in [0, 1]: linear between the breakpoints around x.
func (t *tradeoff) f(x *big.Rat) *big.Rat {
	j := sort.Search(len(t.alpha), func(j int) bool { return t.alpha[j].Cmp(x) > 0 }) - 1
	if j >= len(t.alpha)-1 {
		return new(big.Rat).Set(t.beta[len(t.beta)-1])
	}
	j = max(j, 0)
	v := new(big.Rat).Sub(x, t.alpha[j])
	v.Mul(v, t.slope(j))
	return v.Add(v, t.beta[j])
}

// finv is f⁻¹(y) = inf{x : f(x) ≤ y} for y in [0, 1]: 0 when y ≥ f(0), else on the
// first segment whose right end is at or below y, where f falls strictly.
func (t *tradeoff) finv(y *big.Rat) *big.Rat {
	if y.Cmp(t.beta[0]) >= 0 {
		return new(big.Rat)
	}
	j := sort.Search(len(t.beta), func(j int) bool { return t.beta[j].Cmp(y) <= 0 }) - 1
	// β_j > y ≥ β_{j+1}; j+1 exists since β_last ≤ 1 − 1 = 0 ≤ y.
	v := new(big.Rat).Sub(t.beta[j], y)
	v.Mul(v, new(big.Rat).Sub(t.alpha[j+1], t.alpha[j]))
	v.Quo(v, new(big.Rat).Sub(t.beta[j], t.beta[j+1]))
	return v.Add(v, t.alpha[j])
}

// fs is the symmetrised curve max(f, f⁻¹) at x.
func (t *tradeoff) fs(x *big.Rat) *big.Rat {
	a, b := t.f(x), t.finv(x)
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// upper is RD(1 − f_s(a)); at a = 0 that is 1 − f_s(0), which is above 0 when the
// curve starts below 1 (the δ of the curve), and U*(1) = 1.
func (t *tradeoff) upper(a float64) float64 {
	if !(a >= 0 && a < 1) {
		return a // U*(1) = 1; NaN stays NaN
	}
	if b, ok := t.up.get(a); ok {
		return b
	}
	x := new(big.Rat).SetFloat64(a)
	u := new(big.Rat).Sub(big.NewRat(1, 1), t.fs(x))
	b := max(RatDown(u), a)
	t.up.put(a, b)
	return b
}

// lower is RU(f_s(1 − a)); L*(0) = f_s(1) = 0, and L*(1) = f_s(0).
func (t *tradeoff) lower(a float64) float64 {
	if !(a > 0 && a <= 1) {
		return a // L*(0) = 0; NaN stays NaN
	}
	if b, ok := t.down.get(a); ok {
		return b
	}
	x := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFloat64(a))
	b := min(RatUp(t.fs(x)), a)
	t.down.put(a, b)
	return b
}

func (t *tradeoff) safe(a float64) (lo, up float64) {
	return t.grid.safe(a, t.lower, t.upper)
}

// RatDown is the largest float64 ≤ r: r rounded down (RatUp: up). Bounds made
// from exact rationals (a curve's chords here and in package optimize) round
// outward through them.
func RatDown(r *big.Rat) float64 {
	f, _ := r.Float64()
	if new(big.Rat).SetFloat64(f).Cmp(r) > 0 {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

// RatUp is the smallest float64 ≥ r.
func RatUp(r *big.Rat) float64 {
	f, _ := r.Float64()
	if new(big.Rat).SetFloat64(f).Cmp(r) < 0 {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}
