package cli

import (
	"fmt"

	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/toolkit"
)

// figuresGDP is ledger show's text for a μ-GDP ledger (docs/LEDGER.md, "A μ-GDP
// budget"): the budget μ, and each dataset's spent μ = √(Σ μᵢ²) and the largest μ one more release
// may have, √(M² − spent²) (the budget minus the spent μ would understate it).
func figuresGDP(v *toolkit.LedgerView, r *rounding) shownFigures {
	return shownFigures{
		budget: fmt.Sprintf("μ = %s (μ-GDP; releases compose to √(Σ μᵢ²))", words.Num(v.BudgetMu)),
		header: "spent μ\tlargest next μ",
		row: func(a ledger.Account) string {
			return fmt.Sprintf("%s\t%s", r.up(a.Spent.Mu), r.down(a.NextMu))
		},
		spent: func(s toolkit.LedgerRelease) string { return "μ = " + r.up(s.Mu) },
		raised: func(x toolkit.LedgerRaise) string {
			return fmt.Sprintf("μ %s → %s", words.Num(x.FromMu), words.Num(x.ToMu))
		},
	}
}
