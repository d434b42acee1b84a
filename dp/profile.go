package dp

import (
	"fmt"
	"math"
	"strings"
)

// RowError is a privacy profile row or trade-off curve point that cannot be used:
// Row counts the data rows from 1 in input order; the caller adds the file.
type RowError struct {
	Row    int
	Column string // the column at fault ("epsilon", "delta", "alpha", "beta"), or "" for the row
	Value  float64
	Msg    string
}

func (e *RowError) Error() string {
	if e.Column != "" {
		return fmt.Sprintf("row %d, column %s (%v): %s", e.Row, e.Column, e.Value, e.Msg)
	}
	return fmt.Sprintf("row %d: %s", e.Row, e.Msg)
}

// MaxProfile bounds the pairs of a privacy profile: each bound costs one (ε,δ) bound
// per pair, and accountants' curves need tens, not thousands.
const MaxProfile = 4096

// profile is a privacy profile {(ε_i, δ_i)} (docs/DESIGN.md §11.3): being
// (ε_i, δ_i)-DP for every i. Its trade-off function is max_i f_i, so U* = min_i U*_i
// and L* = max_i L*_i; RD and RU are monotone, so Upper = min_i RD(U*_i) and
// Lower = max_i RU(L*_i) are exact from the (ε,δ) machinery.
type profile struct{ pairs []EpsDelta }

// NewProfile is the pair of a privacy profile, one (ε_i, δ_i) per row (at least one,
// at most MaxProfile); a bad row is a *RowError naming it.
func NewProfile(eps, delta []float64) (Pair, error) {
	if len(eps) != len(delta) {
		return Pair{}, fmt.Errorf("privacy profile: %d epsilon values but %d delta values", len(eps), len(delta))
	}
	if len(eps) == 0 {
		return Pair{}, fmt.Errorf("privacy profile: no rows (one (epsilon, delta) pair per row is needed)")
	}
	if len(eps) > MaxProfile {
		return Pair{}, fmt.Errorf("privacy profile: %d rows, more than the %d allowed", len(eps), MaxProfile)
	}
	pr := &profile{}
	seen := make(map[[2]float64]int, len(eps))
	for i := range eps {
		e, d := eps[i], delta[i]
		if math.IsNaN(e) || e < 0 || e >= MaxEpsilon {
			return Pair{}, &RowError{Row: i + 1, Column: "epsilon", Value: e, Msg: fmt.Sprintf("must be a number in [0, %.4g)", float64(MaxEpsilon))}
		}
		if math.IsNaN(d) || d < 0 || d >= 1 {
			return Pair{}, &RowError{Row: i + 1, Column: "delta", Value: d, Msg: "must be a number in [0, 1)"}
		}
		if j, dup := seen[[2]float64{e, d}]; dup {
			return Pair{}, &RowError{Row: i + 1, Msg: fmt.Sprintf("repeats row %d (epsilon %v, delta %v)", j, e, d)}
		}
		seen[[2]float64{e, d}] = i + 1
		ed, err := NewEpsDelta(e, d)
		if err != nil {
			return Pair{}, &RowError{Row: i + 1, Column: "epsilon", Value: e, Msg: err.Error()}
		}
		pr.pairs = append(pr.pairs, ed)
	}
	return Pair{fw: pr}, nil
}

// Profile is the (ε_i, δ_i) of a privacy profile pair, nil for the other frameworks.
func (p Pair) Profile() (eps, delta []float64) {
	pr, ok := p.fw.(*profile)
	if !ok {
		return nil, nil
	}
	for _, ed := range pr.pairs {
		eps, delta = append(eps, ed.Epsilon), append(delta, ed.Delta)
	}
	return eps, delta
}

func (pr *profile) framework() Framework { return Profile }

func (pr *profile) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "privacy profile of %d (ε,δ) pairs:", len(pr.pairs))
	for i, ed := range pr.pairs {
		if i == 8 {
			b.WriteString(" …")
			break
		}
		fmt.Fprintf(&b, " (%v, %v)", ed.Epsilon, ed.Delta)
	}
	return b.String()
}

// upper is min_i RD(U*_i(a)). Each pair's float64 estimate lies within ApproxMargin
// of its real bound, so a pair whose estimate exceeds the smallest estimate by more
// than 2·ApproxMargin cannot hold the minimum: only the others are computed exactly
// (usually one; RD is monotone, so the minimum of their RDs is RD of the minimum).
func (pr *profile) upper(a float64) float64 {
	if !(a >= 0 && a <= 1) { // outside the estimates' promise: every pair
		b := pr.pairs[0].Upper(a)
		for _, ed := range pr.pairs[1:] {
			b = min(b, ed.Upper(a))
		}
		return b
	}
	least := math.Inf(1)
	for _, ed := range pr.pairs {
		_, u := ed.ApproxBounds(a)
		least = min(least, u)
	}
	b := math.Inf(1)
	for _, ed := range pr.pairs {
		if _, u := ed.ApproxBounds(a); u <= least+2*ApproxMargin {
			b = min(b, ed.Upper(a))
		}
	}
	return b
}

// lower is max_i RU(L*_i(a)), computing exactly only the pairs whose estimates come
// within 2·ApproxMargin of the largest (as upper).
func (pr *profile) lower(a float64) float64 {
	if !(a >= 0 && a <= 1) {
		b := pr.pairs[0].Lower(a)
		for _, ed := range pr.pairs[1:] {
			b = max(b, ed.Lower(a))
		}
		return b
	}
	most := math.Inf(-1)
	for _, ed := range pr.pairs {
		l, _ := ed.ApproxBounds(a)
		most = max(most, l)
	}
	b := math.Inf(-1)
	for _, ed := range pr.pairs {
		if l, _ := ed.ApproxBounds(a); l >= most-2*ApproxMargin {
			b = max(b, ed.Lower(a))
		}
	}
	return b
}

func (pr *profile) safe(a float64) (lo, up float64) {
	lo, up = math.Inf(-1), math.Inf(1)
	for _, ed := range pr.pairs {
		l, u := ed.ApproxBounds(a)
		lo, up = max(lo, l+ApproxMargin), min(up, u-ApproxMargin)
	}
	return lo, up
}
