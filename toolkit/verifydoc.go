package toolkit

import (
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/ingest"

	"github.com/graphdp/graphdp/internal/words"
)

// VerifyDoc is verify's result document: what --json prints (docs/CLI.md, "JSON
// output") and what the text report is printed from. Its fields tagged "-" are the
// text's only.
type VerifyDoc struct {
	Mechanism     string         `json:"mechanism"`
	Column        string         `json:"column"` // p_one or p_true: the one audited
	Epsilon       float64        `json:"epsilon"`
	Delta         float64        `json:"delta"`
	Framework     string         `json:"framework"`      // dp.Framework
	Privacy       string         `json:"privacy"`        // the framework and its parameters in words
	PrivacySource string         `json:"privacy_source"` // metadata or stated
	Vertices      int            `json:"vertices"`
	Edges         int64          `json:"edges"`
	Audit         VerifyAuditDoc `json:"audit"`
	HittingSet    *VerifyHitDoc  `json:"hitting_set"` // null without --hitting-set
	Passed        bool           `json:"passed"`
	Failed        []string       `json:"failed"` // what failed, in words; empty when passed
	// Ledger is, with --ledger, the ledger the audit was recorded in, and
	// LedgerPrivate the verdict recorded there (what release decides by).
	Ledger        string `json:"ledger,omitempty"`
	LedgerPrivate *bool  `json:"ledger_private,omitempty"`

	// AuditID is, with a ledger, the id of the audit entry recorded there.
	AuditID string `json:"-"`
	// FailedChecks are the names of the checks that failed, without their counts
	// (which depend on the answers): what stderr may say (docs/FORMATS.md,
	// "Private and shareable outputs").
	FailedChecks []string `json:"-"`
}

// VerifyAuditDoc is the DP audit of every edge.
type VerifyAuditDoc struct {
	Edges           int64     `json:"edges"`
	Inequalities    int64     `json:"inequalities"`
	Tolerance       float64   `json:"tolerance"`
	Violations      int64     `json:"violations"`
	Worst           *EdgeDoc  `json:"worst"` // the worst (or, when none breaks, the tightest) pair; null without edges
	FirstViolations []EdgeDoc `json:"first_violations"`
}

// VerifyHitDoc compares the mechanism with the hitting set and the optimum.
type VerifyHitDoc struct {
	File          string        `json:"file"`
	Vertices      int           `json:"vertices"`
	BoundaryEdges int64         `json:"boundary_edges"`
	Agree         int           `json:"agree"`
	Disagree      int           `json:"disagree"`
	Equal         int           `json:"equal"` // outside the hitting set: at the optimum
	Close         int           `json:"close"` // within 1e-9 of it
	Below         int           `json:"below"` // not optimal
	Above         int           `json:"above"` // impossible for a DP extension agreeing with the hitting set
	Shortfall     float64       `json:"largest_shortfall"`
	FirstDisagree []MismatchDoc `json:"first_disagree"`
	FirstBelow    []MismatchDoc `json:"first_below"`
	FirstAbove    []MismatchDoc `json:"first_above"`
}

// MismatchDoc is one dataset's p_true against the one expected (the hitting
// set's, or the optimum with the dataset that binds it and its distance).
type MismatchDoc struct {
	ID       string  `json:"id"`
	PTrue    float64 `json:"p_true"`
	Expected float64 `json:"expected"`
	BoundBy  *string `json:"bound_by,omitempty"`
	Distance *int32  `json:"distance,omitempty"`
}

// EdgeDoc is one DP inequality pair on an edge: ids as text, the output (0 or
// 1), both probabilities of that output and the excess (≤ 0: it holds).
type EdgeDoc struct {
	U      string  `json:"u"`
	V      string  `json:"v"`
	Output int     `json:"output"`
	PU     float64 `json:"p_u"`
	PV     float64 `json:"p_v"`
	Excess float64 `json:"excess"`
}

func edgeOf(ids ingest.IDs, v check.EdgeViolation) EdgeDoc {
	return EdgeDoc{U: ids.String(int(v.U)), V: ids.String(int(v.V)), Output: words.Bit(v.Output), PU: v.PU, PV: v.PV, Excess: v.Excess}
}

// document is v's result document, built once.
func (v *verified) document(tolerance float64) *VerifyDoc {
	x, audit := v.Inputs, v.Audit
	ids := x.Vertices.IDs
	m := x.Mechanism
	d := &VerifyDoc{Mechanism: m.File, Column: m.Column, Epsilon: x.Pair.Epsilon, Delta: x.Pair.Delta, Framework: string(x.Pair.Framework()),
		Privacy: x.Pair.String(), PrivacySource: v.Privacy.Source, Vertices: ids.Len(), Edges: x.Graph.M(), Failed: []string{}}
	if r := v.Recorded; r != nil {
		d.Ledger, d.LedgerPrivate, d.AuditID = v.Job.Ledger, &r.Private, r.AuditID
	}
	d.Audit = VerifyAuditDoc{Edges: audit.Edges, Inequalities: 4 * audit.Edges, Tolerance: tolerance, Violations: audit.Violations,
		FirstViolations: []EdgeDoc{}}
	if audit.Edges > 0 && audit.Worst.U >= 0 { // U < 0: none ranked, which an audit of edges never is
		worst := edgeOf(ids, audit.Worst)
		d.Audit.Worst = &worst
	}
	for _, v := range audit.First {
		d.Audit.FirstViolations = append(d.Audit.FirstViolations, edgeOf(ids, v))
	}
	if v.Checked != nil {
		d.HittingSet = v.hitDoc()
	}
	for _, c := range v.failedChecks() {
		d.FailedChecks = append(d.FailedChecks, c.Name)
	}
	d.Passed, d.Failed = len(d.FailedChecks) == 0, append(d.Failed, v.failed()...)
	return d
}

// hitDoc is how the mechanism compares with the hitting set and with the optimal
// extension Solve computes (check.CompareOptimal).
func (v *verified) hitDoc() *VerifyHitDoc {
	x, c, o := v.Inputs, v.Checked, v.Optimal
	ids := x.Vertices.IDs
	sol := c.Solution
	d := &VerifyHitDoc{File: x.Hit.File, Vertices: len(x.Hit.Vertex), BoundaryEdges: c.BoundaryEdges, Agree: len(x.Hit.Vertex) - o.Disagree,
		Disagree: o.Disagree, Equal: o.Equal, Close: o.Close, Below: o.Below, Above: o.Above, Shortfall: o.Shortfall}
	list := func(ms []check.Mismatch, bound bool) []MismatchDoc {
		out := []MismatchDoc{}
		for _, m := range ms {
			j := MismatchDoc{ID: ids.String(int(m.V)), PTrue: m.Got, Expected: m.Want}
			if b := sol.Bind[m.V]; bound && b >= 0 {
				by, dist := ids.String(int(b)), sol.Dist[m.V]
				j.BoundBy, j.Distance = &by, &dist
			}
			out = append(out, j)
		}
		return out
	}
	d.FirstDisagree, d.FirstBelow, d.FirstAbove = list(o.FirstDisagree, false), list(o.FirstBelow, true), list(o.FirstAbove, true)
	return d
}
