package cli

import (
	"fmt"

	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/ledger"
)

// figuresGDP is ledger show's text for a μ-GDP ledger (docs/LEDGER.md, "A μ-GDP
// budget"): the budget μ, and each dataset's spent μ = √(Σ μᵢ²) and the largest μ one more release
// may have, √(M² − spent²) (the budget minus the spent μ would understate it).
func figuresGDP(v *shown) shownFigures {
	return shownFigures{
		budget: fmt.Sprintf("μ = %s (μ-GDP; releases compose to √(Σ μᵢ²))", words.Num(v.BudgetMu)),
		header: "spent μ\tlargest next μ",
		row: func(a ledger.Account) string {
			return fmt.Sprintf("%s\t%s", words.Num(a.Spent.Mu), words.Num(a.NextMu))
		},
		spent:  func(r shownRelease) string { return "μ = " + words.Num(r.Mu) },
		raised: func(r shownRaise) string { return fmt.Sprintf("μ %s → %s", words.Num(r.FromMu), words.Num(r.ToMu)) },
	}
}
