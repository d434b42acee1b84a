package toolkit

import (
	"errors"
	"fmt"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/pipeline"
)

// chargeAs is the (ε, δ) a release of a mechanism built under priv's framework is
// charged to the (ε,δ) ledger l for the datasets ids: its framework's rule
// (dp.Spec.Charge; docs/LEDGER.md, "Other frameworks"), told what the ledger leaves
// those datasets. Each rule states a true (ε, δ) guarantee of the mechanism, so the
// ledger's composition stays sound; the entry is an ordinary (ε, δ) release, which
// every graphdp that reads ledgers verifies. A framework without a rule is refused
// (*job.ConfigError).
func chargeAs(l *ledger.Ledger, ids []string, priv job.Privacy) (job.Privacy, error) {
	if priv.Framework == ledger.Framework {
		return priv, nil // (ε,δ): its own (ε, δ), which priv holds
	}
	spec := dp.Lookup(dp.Framework(priv.Framework))
	if spec == nil || spec.Charge == nil {
		no := "it to an (ε, δ) budget yet; release it without --ledger (its metadata states its privacy)"
		if spec != nil && spec.NoCharge != "" {
			no = spec.NoCharge
		}
		return job.Privacy{}, &job.ConfigError{Problems: []string{fmt.Sprintf(
			"ledger: the mechanism was built for %s, and the ledger has no rule to charge %s", priv.Pair, no)}}
	}
	remE, remD := l.Budget.Epsilon, l.Budget.Delta
	for _, id := range ids {
		a, _ := l.Account(id)
		remE, remD = min(remE, l.Budget.Epsilon-a.Basic.Epsilon), min(remD, l.Budget.Delta-a.Basic.Delta)
	}
	budget := dp.Budget{Epsilon: max(remE, 0), Delta: max(remD, 0), Fits: func(e, d float64) bool {
		_, total := l.Check(ids, ledger.Point{Epsilon: e, Delta: d}, 0)
		return total == 0
	}}
	e, d, err := spec.Charge(priv.Pair, budget)
	var ce *dp.ChargeError
	if errors.As(err, &ce) {
		return job.Privacy{}, &job.ConfigError{Problems: []string{"ledger: " + ce.Msg}}
	}
	if err != nil {
		return job.Privacy{}, err
	}
	return job.Privacy{Framework: ledger.Framework, Source: priv.Source, Epsilon: e, Delta: d}, nil
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
