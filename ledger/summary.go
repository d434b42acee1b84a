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
	// Remaining is the budget minus Spent, rounded down, never below 0. With the
	// optimal composition the next release's fit is decided by composing all
	// releases again, not by subtracting: Remaining is a guide.
	Remaining Point `json:"remaining"`
	// RemainingMu is, on a μ-GDP ledger, the budget μ minus the spent μ
	// (Spent.Mu), rounded down, never below 0. It too is a guide: μ composes as
	// √(Σ μᵢ²), so the next release fits when √(Spent.Mu² + μ²) does.
	RemainingMu float64 `json:"remaining_mu,omitempty"`
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
	if _, ok := l.spent[id]; !ok {
		a := Account{ID: id, Remaining: Point{l.Budget.Epsilon, l.Budget.Delta}, Spent: Charge{Method: MethodBasic}, RemainingMu: l.Budget.Mu}
		if l.GDP() {
			a.Spent.Method = MethodGDP
		}
		return a, false
	}
	return l.account(id), true
}

func (l *Ledger) account(id string) Account {
	s := l.spent[id]
	c := s.spend.charge(l.Budget)
	a := Account{ID: id, Releases: s.k, Basic: s.sum, Spent: c,
		Remaining: Point{subDown(l.Budget.Epsilon, c.Epsilon), subDown(l.Budget.Delta, c.Delta)}, RemainingMu: subDown(l.Budget.Mu, c.Mu)}
	for _, r := range s.releases {
		a.ReleaseLines = append(a.ReleaseLines, l.Releases[r].Line)
	}
	return a
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
