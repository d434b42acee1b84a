package cli

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/graphdp/graphdp/internal/words"
)

// textGDP is ledger show's text for a μ-GDP ledger (docs/LEDGER.md, "A μ-GDP
// budget"): the budget μ, and each dataset's spent μ = √(Σ μᵢ²) and what is left.
func (v *shown) textGDP(w io.Writer, file string, list int) error {
	fmt.Fprintf(w, "ledger %s (%s): %s, created %s by %s\n", file, v.Framework, words.Count(int64(v.Lines), "line", "lines"), v.Created, words.Quote(v.CreatedBy))
	fmt.Fprintf(w, "  head %s   (note it elsewhere: graphdp ledger verify --head checks it later)\n", v.Head)
	fmt.Fprintf(w, "  budget per dataset: μ = %s (μ-GDP; releases compose to √(Σ μᵢ²)) (%s)\n", words.Num(v.BudgetMu), words.Count(int64(len(v.Raises)), "raise", "raises"))
	modeWarning(w, file)
	fmt.Fprintf(w, "\n%s, the most spent first:\n", words.Count(int64(len(v.Datasets)), "dataset", "datasets"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  id\treleases\tspent μ\tremaining μ")
	shownN := len(v.Datasets)
	if list > 0 && list < shownN {
		shownN = list
	}
	for _, a := range v.Datasets[:shownN] {
		fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\n", words.Quote(a.ID), a.Releases, words.Num(a.Spent.Mu), words.Num(a.RemainingMu))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	moreLine(w, int64(len(v.Datasets)), shownN)
	fmt.Fprintf(w, "\n%s:\n", words.Count(int64(len(v.Releases)), "release", "releases"))
	for _, r := range v.Releases {
		fmt.Fprintf(w, "  line %d  %s  release %s  μ = %s (%s)  %s\n    mechanism %s  sha256 %s\n",
			r.Line, r.Time, r.ReleaseID, words.Num(r.Mu), r.Source, words.Count(int64(len(r.Datasets)), "dataset", "datasets"), r.Mechanism, r.MechanismSHA256)
	}
	fmt.Fprintf(w, "\n%s:\n", words.Count(int64(len(v.Raises)), "raise", "raises"))
	for _, r := range v.Raises {
		fmt.Fprintf(w, "  line %d  %s  by %s: μ %s → %s: %s\n", r.Line, r.Time, words.Quote(r.User),
			words.Num(r.FromMu), words.Num(r.ToMu), strconv.Quote(r.Reason))
	}
	if len(v.Repairs) > 0 {
		fmt.Fprintf(w, "\n%s:\n", words.Count(int64(len(v.Repairs)), "repair", "repairs"))
		for _, r := range v.Repairs {
			fmt.Fprintf(w, "  line %d  %s  by %s: removed an incomplete line of %s (sha256 %s): %s\n", r.Line, r.Time, words.Quote(r.User),
				words.Count(r.DroppedBytes, "byte", "bytes"), r.DroppedSHA256, strconv.Quote(r.Reason))
		}
	}
	return nil
}
