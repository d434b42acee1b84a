package toolkit

import (
	"fmt"

	"github.com/graphdp/graphdp/ledger"
)

// ReleaseDoc is release's result document: what was drawn and spent, never the
// answers drawn (they are in Out); what --json prints (docs/CLI.md, "JSON
// output") and what the text is printed from. Its fields tagged "-" are the
// text's only.
type ReleaseDoc struct {
	DryRun        bool          `json:"dry_run"`
	Mechanism     string        `json:"mechanism"`
	Out           string        `json:"out"`
	Rows          int           `json:"rows"`
	ReleaseID     string        `json:"release_id"` // "" in a dry run
	Epsilon       float64       `json:"epsilon"`    // spent by each dataset (with a ledger: charged)
	Delta         float64       `json:"delta"`
	Framework     string        `json:"framework"`           // the mechanism's privacy framework
	Privacy       string        `json:"privacy"`             // it and its parameters, in words
	PrivacySource string        `json:"privacy_source"`      // metadata or stated
	Ledger        string        `json:"ledger"`              // "" without --ledger
	Budget        *ledger.Point `json:"budget"`              // the ledger's; null without one
	Mu            float64       `json:"mu,omitempty"`        // with a μ-GDP ledger: the μ charged to each dataset
	BudgetMu      float64       `json:"budget_mu,omitempty"` // a μ-GDP ledger's budget
	// Datasets, in a dry run, are the requested datasets and, with a ledger, what
	// each would have spent after the release; null otherwise.
	Datasets []ReleaseDatasetDoc `json:"datasets"`

	// PrivacyWords is the mechanism's privacy as the text says it (PrivacyWords).
	PrivacyWords string `json:"-"`
	// AuditID and AuditLine are, with a ledger, the audit entry the release was
	// charged by and its line.
	AuditID   string `json:"-"`
	AuditLine int    `json:"-"`
}

// ReleaseDatasetDoc is one dataset of a dry run.
type ReleaseDatasetDoc struct {
	ID             string         `json:"id"`
	ReleasesBefore *int           `json:"releases_before,omitempty"`
	SpentAfter     *ledger.Charge `json:"spent_after,omitempty"`
}

// document is r's result document, built once.
func (r *released) document(job ReleaseJob) *ReleaseDoc {
	d := &ReleaseDoc{DryRun: r.DryRun, Mechanism: job.Mechanism, Out: r.Out, Rows: r.Rows, ReleaseID: r.ReleaseID,
		Epsilon: r.Privacy.Epsilon, Delta: r.Privacy.Delta, PrivacySource: r.Privacy.Source, Ledger: job.Ledger,
		Framework: r.Privacy.Framework, Privacy: fmt.Sprintf("(ε,δ)-DP with ε = %v, δ = %v", r.Privacy.Epsilon, r.Privacy.Delta),
		PrivacyWords: PrivacyWords(r.Privacy)}
	if r.Privacy.Framework != ledger.Framework {
		d.Privacy = r.Privacy.Pair.String()
	}
	if r.Audit != nil {
		d.AuditID, d.AuditLine = r.Audit.AuditID, r.Audit.Line
	}
	if r.Charged != nil {
		d.Epsilon, d.Delta = r.Charged.Epsilon, r.Charged.Delta
	}
	if r.Budget != nil {
		d.Budget = &ledger.Point{Epsilon: r.Budget.Epsilon, Delta: r.Budget.Delta}
		if d.BudgetMu = r.Budget.Mu; d.BudgetMu > 0 {
			d.Mu = r.Privacy.Pair.Mu()
		}
	}
	if p := r.Plan; p != nil {
		d.Datasets = make([]ReleaseDatasetDoc, len(p.IDs))
		for i, id := range p.IDs {
			d.Datasets[i].ID = id
			if p.After != nil {
				d.Datasets[i].ReleasesBefore, d.Datasets[i].SpentAfter = &p.Releases[i], &p.After[i]
			}
		}
	}
	return d
}
