package ledger

import (
	"cmp"
	"math"
	"slices"
)

// Account is one dataset's spending at a glance (what `graphdp ledger show` lists).
type Account struct {
	ID       string `json:"id"`
	Releases int    `json:"releases"`
	// Basic is basic composition: the sums of ε and of δ over its releases.
	Basic Point `json:"basic"`
	// Spent is what the ledger charges it under the budget in force: Basic, or the
	// optimal composition at the budget's δ when all releases are equal and that
	// is tighter (Charge).
	Spent Charge `json:"spent"`
	// Remaining is, on an (ε, δ) ledger, the budget minus Spent, rounded down,
	// never below 0 (nil on a μ-GDP ledger, which has no (ε, δ) budget). With the
	// optimal composition the next release's fit is decided by composing all
	// releases again, not by subtracting: Remaining is a guide.
	Remaining *Point `json:"remaining,omitempty"`
	// RemainingMu is, on a μ-GDP ledger, the budget μ minus the spent μ
	// (Spent.Mu), rounded down, never below 0: a guide only, since μ composes as
	// √(Σ μᵢ²). NextMu is what decides: the largest μ one more release may have,
	// √(M² − Spent.Mu²) rounded down until that release fits as CheckGDP decides.
	RemainingMu float64 `json:"remaining_mu,omitempty"`
	NextMu      float64 `json:"next_mu,omitempty"`
	// ReleaseLines are the lines of its releases, in order.
	ReleaseLines []int `json:"release_lines"`
}

// Accounts lists every dataset released, the most spent first (by spent ε, then
// δ, then id).
func (l *Ledger) Accounts() []Account {
	out := make([]Account, 0, len(l.spent))
	for id := range l.spent {
		out = append(out, l.account(id))
	}
	slices.SortFunc(out, func(a, b Account) int {
		if c := cmp.Compare(b.Spent.Mu, a.Spent.Mu); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Spent.Epsilon, a.Spent.Epsilon); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Spent.Delta, a.Spent.Delta); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}

// Account is one dataset's account; ok is false if it was never released.
func (l *Ledger) Account(id string) (Account, bool) {
	_, ok := l.spent[id]
	return l.account(id), ok
}

func (l *Ledger) account(id string) Account {
	s := l.spent[id]
	c := s.spend.charge(l.Budget)
	if s.k == 0 && l.GDP() {
		c.Method = MethodGDP
	}
	a := Account{ID: id, Releases: s.k, Basic: s.sum, Spent: c}
	if l.GDP() {
		a.RemainingMu, a.NextMu = subDown(l.Budget.Mu, c.Mu), s.nextMu(l.Budget)
	} else {
		a.Remaining = &Point{subDown(l.Budget.Epsilon, c.Epsilon), subDown(l.Budget.Delta, c.Delta)}
	}
	for _, r := range s.releases {
		a.ReleaseLines = append(a.ReleaseLines, l.Releases[r].Line)
	}
	return a
}

// nextMu is the largest μ a further release may have within budget b:
// √(M² − Σ μᵢ²), then lowered an ulp at a time until withMu's upward-rounded
// composition fits (the roundings are a few ulps); 0 when nothing fits.
func (s spend) nextMu(b Budget) float64 {
	x := math.Sqrt(max(b.Mu*b.Mu-s.sumSq, 0))
	for range 64 {
		if x == 0 || s.withMu(x).fits(b) {
			return x
		}
		x = math.Nextafter(x, 0)
	}
	return 0
}

// subDown is max(a − b, 0) rounded towards −∞.
func subDown(a, b float64) float64 {
	d := a - b
	if d <= 0 {
		return 0
	}
	// two-sum of a and −b: d + e = a − b exactly.
	bb := d - a
	e := (a - (d - bb)) + (-b - bb)
	if e < 0 {
		d = math.Nextafter(d, 0)
	}
	return d
}
