package toolkit

import (
	"fmt"
	"math"
	"slices"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/pipeline"
)

// chargeAs is the (ε, δ) a release of a mechanism built under priv's framework is
// charged to the (ε,δ) ledger l for the datasets ids (docs/LEDGER.md, "Other
// frameworks"). Each rule states a true (ε, δ) guarantee of the mechanism, so the
// ledger's composition stays sound; the entry is an ordinary (ε, δ) release, which
// every graphdp that reads ledgers verifies.
//
//   - (ε,δ): its own (ε, δ).
//   - A privacy profile: the mechanism is (ε_i, δ_i)-DP for every row i; the row
//     of smallest ε (then δ) that keeps every dataset within the budget, or, if
//     none does, the smallest-ε row (the release is then refused as over budget).
//   - μ-GDP: the mechanism is (ε, δ(ε))-DP for every ε ≥ 0 with the exact
//     conversion δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2), bounded above by
//     dp.GDPDelta. ε is chosen to spend the same fraction t of what is left of
//     both budgets (the most-spent dataset's basic-composition remainders ε_r and
//     δ_r): the smallest t in [0, 1] with δ(t·ε_r) ≤ t·δ_r, found by bisection; t = 1
//     when none fits (refused as over budget).
//   - A trade-off curve: no rule (refused, *job.ConfigError).
func chargeAs(l *ledger.Ledger, ids []string, priv job.Privacy) (job.Privacy, error) {
	out := job.Privacy{Framework: ledger.Framework, Source: priv.Source}
	switch dp.Framework(priv.Framework) {
	case dp.EpsilonDelta:
		return priv, nil
	case dp.Profile:
		eps, delta := priv.Pair.Profile()
		order := make([]int, len(eps))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int {
			if eps[a] != eps[b] {
				return cmpF(eps[a], eps[b])
			}
			return cmpF(delta[a], delta[b])
		})
		for _, i := range order {
			if _, total := l.Check(ids, ledger.Point{Epsilon: eps[i], Delta: delta[i]}, 0); total == 0 {
				out.Epsilon, out.Delta = eps[i], delta[i]
				return out, nil
			}
		}
		out.Epsilon, out.Delta = eps[order[0]], delta[order[0]]
		return out, nil
	case dp.GaussianDP:
		return gdpCharge(l, ids, priv.Pair.Mu(), out)
	}
	return job.Privacy{}, &job.ConfigError{Problems: []string{fmt.Sprintf(
		"ledger: the mechanism was built for %s, and the ledger has no rule to charge a trade-off curve to an (ε, δ) budget yet; release it without --ledger (its metadata states the curve), or build it under --privacy-profile with the (ε, δ) pairs the curve guarantees", priv.Pair)}}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// gdpCharge is chargeAs's μ-GDP rule.
func gdpCharge(l *ledger.Ledger, ids []string, mu float64, out job.Privacy) (job.Privacy, error) {
	remE, remD := l.Budget.Epsilon, l.Budget.Delta
	for _, id := range ids {
		a, _ := l.Account(id)
		remE, remD = min(remE, l.Budget.Epsilon-a.Basic.Epsilon), min(remD, l.Budget.Delta-a.Basic.Delta)
	}
	remE, remD = max(remE, 0), max(remD, 0)
	delta := func(t float64) (float64, error) {
		return dp.GDPDelta(mu, min(t*remE, math.Nextafter(dp.MaxEpsilon, 0)*0.999))
	}
	fitsAt := func(t float64) (bool, error) {
		d, err := delta(t)
		return d <= t*remD, err
	}
	t := 1.0
	if ok, err := fitsAt(1); err != nil {
		return job.Privacy{}, err
	} else if ok {
		lo := 0.0 // fitsAt(lo) false or lo = 0; fitsAt(t) true
		for range 60 {
			mid := (lo + t) / 2
			ok, err := fitsAt(mid)
			if err != nil {
				return job.Privacy{}, err
			}
			if ok {
				t = mid
			} else {
				lo = mid
			}
		}
	}
	e := min(t*remE, math.Nextafter(dp.MaxEpsilon, 0)*0.999)
	d, err := dp.GDPDelta(mu, e)
	if err != nil {
		return job.Privacy{}, err
	}
	if d >= 1 {
		return job.Privacy{}, &job.ConfigError{Problems: []string{fmt.Sprintf(
			"ledger: a %v-GDP release is (ε, δ)-DP only with δ ≥ 1 at ε = %v, what the budget leaves: it cannot be charged", mu, e)}}
	}
	out.Epsilon, out.Delta = e, d
	return out, nil
}

// fitsGDP is fits on a μ-GDP ledger (docs/LEDGER.md, "A μ-GDP budget"): only a
// μ-GDP release is charged — each dataset's spent μ becomes √(Σ μᵢ²) with its μ —
// and one taking a dataset past the budget μ is refused (a *RejectError). Any
// other framework is refused (*job.ConfigError): no sound rule turns an (ε, δ)
// guarantee, a profile or a curve into a μ-GDP one.
func fitsGDP(j ReleaseJob, l *ledger.Ledger, ids []string, priv job.Privacy) (job.Privacy, error) {
	if j.BudgetEpsilon != nil || j.BudgetDelta != nil {
		return priv, &job.ConfigError{Problems: []string{fmt.Sprintf("budget-epsilon/budget-delta: the ledger %s has a μ-GDP budget (μ = %v), not an (ε, δ) one", j.Ledger, l.Budget.Mu)}}
	}
	if dp.Framework(priv.Framework) != dp.GaussianDP {
		what := fmt.Sprintf("(ε,δ)-DP with ε = %v, δ = %v", priv.Epsilon, priv.Delta)
		if priv.Framework != ledger.Framework {
			what = priv.Pair.String()
		}
		return priv, &job.ConfigError{Problems: []string{fmt.Sprintf(
			"ledger: %s has a μ-GDP budget (μ = %v), and the mechanism %s is %s: only a μ-GDP release can be charged to it. An (ε, δ) guarantee (and so a privacy profile or a trade-off curve) does not imply any μ-GDP guarantee, so there is no sound rule to convert it; release it against an (ε, δ) ledger, or build the mechanism under --gdp-mu", j.Ledger, l.Budget.Mu, j.Mechanism, what)}}
	}
	mu := priv.Pair.Mu()
	over, total := l.CheckGDP(ids, mu, 10)
	if total == 0 {
		return priv, nil
	}
	var lines []string
	for _, o := range over {
		lines = append(lines, fmt.Sprintf("id %s: %s so far spent μ = %s; with this release μ = %s (√(Σ μᵢ²), rounded up)",
			words.Quote(o.ID), words.Count(int64(o.Releases), "release", "releases"), words.Up(o.Before.Mu), words.Up(o.After.Mu)))
	}
	return priv, &pipeline.RejectError{File: j.Ledger, Kind: "over-budget", Total: int64(total), Lines: lines,
		Head: fmt.Sprintf("this release (μ = %s per dataset, from %s) would take %d of %d requested datasets past the budget μ = %s; nothing written, ledger unchanged",
			words.Up(mu), sourceWords(priv.Source), total, len(ids), words.Num(l.Budget.Mu))}
}
