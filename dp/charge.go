package dp

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// The frameworks' charges to an (ε, δ) ledger (Spec.Charge; docs/LEDGER.md, "Other
// frameworks"). Each rule states a true (ε, δ) guarantee of the mechanism, so the
// ledger's composition stays sound; the entry is an ordinary (ε, δ) release.

// profileCharge: the mechanism is (ε_i, δ_i)-DP for every row i; the row of
// smallest ε (then δ) that keeps every dataset within the budget, or, if none does,
// the smallest-ε row (the release is then refused as over budget).
func profileCharge(p Pair, b Budget) (float64, float64, error) {
	eps, delta := p.Profile()
	order := make([]int, len(eps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		if eps[x] != eps[y] {
			return cmp.Compare(eps[x], eps[y])
		}
		return cmp.Compare(delta[x], delta[y])
	})
	for _, i := range order {
		if b.Fits(eps[i], delta[i]) {
			return eps[i], delta[i], nil
		}
	}
	return eps[order[0]], delta[order[0]], nil
}

// gdpCharge: the mechanism is (ε, δ(ε))-DP for every ε ≥ 0 with the exact
// conversion δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2), bounded above by GDPDelta. ε
// is chosen to spend the same fraction t of what is left of both budgets (the
// most-spent dataset's basic-composition remainders b.Epsilon and b.Delta): the
// smallest t in [0, 1] with δ(t·ε_r) ≤ t·δ_r, found by bisection; t = 1 when none
// fits (refused as over budget).
func gdpCharge(p Pair, b Budget) (float64, float64, error) {
	mu, remE, remD := p.Mu(), b.Epsilon, b.Delta
	delta := func(t float64) (float64, error) {
		return GDPDelta(mu, min(t*remE, math.Nextafter(MaxEpsilon, 0)*0.999))
	}
	fitsAt := func(t float64) (bool, error) {
		d, err := delta(t)
		return d <= t*remD, err
	}
	t := 1.0
	if ok, err := fitsAt(1); err != nil {
		return 0, 0, err
	} else if ok {
		lo := 0.0 // fitsAt(lo) false or lo = 0; fitsAt(t) true
		for range 60 {
			mid := (lo + t) / 2
			ok, err := fitsAt(mid)
			if err != nil {
				return 0, 0, err
			}
			if ok {
				t = mid
			} else {
				lo = mid
			}
		}
	}
	e := min(t*remE, math.Nextafter(MaxEpsilon, 0)*0.999)
	d, err := GDPDelta(mu, e)
	if err != nil {
		return 0, 0, err
	}
	if d >= 1 {
		return 0, 0, &ChargeError{fmt.Sprintf("a %v-GDP release is (ε, δ)-DP only with δ ≥ 1 at ε = %v, what the budget leaves: it cannot be charged", mu, e)}
	}
	return e, d, nil
}

// ChargeError is a release the framework's rule cannot charge to the budget (a
// problem of the job, not a failure).
type ChargeError struct{ Msg string }

func (e *ChargeError) Error() string { return e.Msg }
