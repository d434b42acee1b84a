package ledger

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
)

// This file is the μ-GDP budget (docs/LEDGER.md, "A μ-GDP budget"). Releases that
// are μᵢ-GDP compose exactly to √(Σ μᵢ²)-GDP (Dong, Roth & Su, "Gaussian
// Differential Privacy", 2022, Corollary 3.3), so a dataset's spent μ is that root
// over its releases. The float64 arithmetic rounds every step upward — each square
// (sqUp), each sum (addUp), the root (sqrtUp) — so the recorded spend is never
// below the true real √(Σ μᵢ²): the ledger may over-charge by a few ulps, never
// under-charge (doc.go, invariant 6).

// muFields is the one field a FrameworkGDP entry adds to its kind's fields.
var muFields = map[string]string{KindBudget: "budget_mu", KindRaise: "budget_mu", KindRelease: "mu"}

// wantFields is the keys an entry of kind must have, given its framework.
func wantFields(kind string, raw map[string]json.RawMessage) []string {
	want := fields[kind]
	if _, ok := raw["audit"]; ok && kind == KindRelease {
		want = auditedRelease
	}
	var f string
	if v, ok := raw["framework"]; ok && json.Unmarshal(v, &f) == nil && f == FrameworkGDP && muFields[kind] != "" {
		want = append(append([]string(nil), want...), muFields[kind])
	}
	return want
}

// CheckMu rejects a μ that is not a finite number > 0 (what names a word: "budget μ").
func CheckMu(what string, mu float64) error {
	if math.IsNaN(mu) || math.IsInf(mu, 0) || mu <= 0 {
		return fmt.Errorf("%s = %v is not a finite number > 0", what, mu)
	}
	return nil
}

// checkBudgetEntry checks a budget or raise entry's framework and figures.
func checkBudgetEntry(kind, framework string, epsilon, delta, mu float64) error {
	switch framework {
	case Framework:
		return checkBudget(kind, epsilon, delta)
	case FrameworkGDP:
		if epsilon != 0 || delta != 0 {
			return badLine("%s entry: a %q budget has ε = 0 and δ = 0 (its budget is budget_mu)", kind, FrameworkGDP)
		}
		if err := CheckMu("budget μ", mu); err != nil {
			return badLine("%s entry: %v", kind, err)
		}
		return nil
	}
	return badFramework(kind, framework)
}

// checkReleaseCharge checks a release entry's framework and what it spent.
func checkReleaseCharge(x *Release) error {
	switch x.Framework {
	case Framework:
		if err := CheckCharge(x.Epsilon, x.Delta); err != nil {
			return badLine("release entry: %v", err)
		}
		return nil
	case FrameworkGDP:
		if x.Epsilon != 0 || x.Delta != 0 {
			return badLine("release entry: a %q release has ε = 0 and δ = 0 (it spends mu)", FrameworkGDP)
		}
		if err := CheckMu("μ", x.Mu); err != nil {
			return badLine("release entry: %v", err)
		}
		return nil
	}
	return badFramework(KindRelease, x.Framework)
}

func badFramework(kind, f string) error {
	return badLine("%s entry: privacy framework %q; this graphdp accounts only %q and %q", kind, f, Framework, FrameworkGDP)
}

// GDP reports whether the ledger's budget is a μ of Gaussian differential privacy.
func (l *Ledger) GDP() bool { return l.Header.Framework == FrameworkGDP }

// sqUp is x² rounded towards +∞ (x finite ≥ 0).
func sqUp(x float64) float64 {
	p := x * x
	if !math.IsInf(p, 0) && math.FMA(x, x, -p) > 0 {
		p = math.Nextafter(p, math.Inf(1))
	}
	return p
}

// sqrtUp is √x rounded towards +∞ (x ≥ 0): math.Sqrt is correctly rounded, and
// one step up when its square falls short of x.
func sqrtUp(x float64) float64 {
	r := math.Sqrt(x)
	if !math.IsInf(r, 0) && math.FMA(r, r, -x) < 0 {
		r = math.Nextafter(r, math.Inf(1))
	}
	return r
}

// ComposeMu is √(Σ μᵢ²) rounded upward step by step: the μ of the composition of
// releases that are μᵢ-GDP, never below the true value.
func ComposeMu(mus ...float64) float64 {
	s := 0.0
	for _, m := range mus {
		s = addUp(s, sqUp(m))
	}
	return sqrtUp(s)
}

// CheckGDP is what a μ-GDP release of ids would leave each dataset with under the
// ledger's μ budget; over lists the datasets it would take past it (at most max,
// total counting all). Before and After of each carry Mu (Method MethodGDP).
func (l *Ledger) CheckGDP(ids []string, mu float64, max int) (over []Over, total int) {
	return l.check(ids, max, func(s spend) spend { return s.withMu(mu) })
}

// AfterGDP is what id would be charged after one more μ-GDP release.
func (l *Ledger) AfterGDP(id string, mu float64) Charge {
	return l.spent[id].spend.withMu(mu).charge(l.Budget)
}

// withMu is s after one more μ-GDP release: the sum of squares grows by μ²,
// rounded up.
func (s spend) withMu(mu float64) spend {
	s.k++
	s.sumSq = addUp(s.sumSq, sqUp(mu))
	return s
}

// checkNewBudget checks the budget of a new ledger and names its framework: a μ
// (Epsilon and Delta 0) or an (ε, δ) (Mu 0).
func checkNewBudget(b Budget) (string, error) {
	if b.Mu == 0 {
		return Framework, CheckBudget(b.Epsilon, b.Delta)
	}
	if b.Epsilon != 0 || b.Delta != 0 {
		return "", fmt.Errorf("a budget is either μ-GDP (μ) or (ε, δ), not both")
	}
	return FrameworkGDP, CheckMu("budget μ", b.Mu)
}

// raiseGDP is Raise on a μ-GDP ledger: b.Mu above the current μ, ε and δ 0.
func (w *Writer) raiseGDP(b Budget, reason string, now time.Time) error {
	usage := func(format string, a ...any) error {
		return &Error{File: w.File, Kind: ErrUsage, Msg: fmt.Sprintf(format, a...)}
	}
	if b.Epsilon != 0 || b.Delta != 0 {
		return usage("the ledger's budget is μ-GDP (μ = %v): raise it with --gdp-mu, not ε or δ (no sound rule turns an (ε, δ) into a μ)", w.Budget.Mu)
	}
	if err := CheckMu("budget μ", b.Mu); err != nil {
		return usage("%v", err)
	}
	if strings.TrimSpace(reason) == "" {
		return usage("a raise needs a reason (--reason \"…\")")
	}
	if b.Mu < w.Budget.Mu {
		return usage("the budget is μ = %v; a raise cannot lower it (to μ = %v). A ledger's budget never goes down: to spend less, release less", w.Budget.Mu, b.Mu)
	}
	if b.Mu == w.Budget.Mu {
		return usage("the budget is already μ = %v; nothing to raise", b.Mu)
	}
	r := Raise{Kind: KindRaise, Prev: w.Head, Time: stamp(now), Framework: FrameworkGDP, BudgetMu: b.Mu, User: User(), Reason: reason}
	return w.append(&r)
}
