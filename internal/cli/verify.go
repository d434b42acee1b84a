package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/toolkit"

	"github.com/graphdp/graphdp/internal/words"
)

// verifyOptions are verify's flags over its job.
type verifyOptions struct {
	job       job.Job
	tolerance float64
	json      bool
	flags     *toolFlags
	source    string // the config file, for problems found after parsing
}

const verifyAbout = `Audits a mechanism table from anywhere (graphdp run's output, or another tool's):
every (ε,δ)-DP inequality on every edge, both directions, both outputs, decided
exactly in real arithmetic as run's own audit does. The table has an id column naming
every dataset once and p_one = Pr[M = 1], p_true = Pr[M = answer] or both (of an
answer-0 row's two, the smaller is exact: run writes them so).
With --hitting-set it also checks the mechanism agrees with the hitting set (within
1e-9) and is the optimal extension: vertices below the optimum are not optimal,
vertices above it cannot belong to any DP mechanism agreeing with the hitting set.
The report goes to stdout; exit status 3 on any violation.`

func parseVerify(args []string, stdout io.Writer) (*verifyOptions, error) {
	take := toolInputs{hittingSet: "hitting-set `FILE` (id, p_true): also check agreement and optimality", mechanism: true,
		ledger: "privacy ledger `FILE` (made by graphdp ledger init): record this audit there (the mechanism's fingerprint, its privacy and the verdict), which is what graphdp release charges"}
	t := newToolFlags("verify", "--edges E --vertices V --mechanism M [--epsilon ε --delta δ] [--hitting-set H] [--ledger L] [--tolerance P] [--list N]", verifyAbout, stdout, take)
	t.jf.setUsage("epsilon", "the mechanism's `ε`: read from its metadata; if given it must agree (required for a CSV mechanism, which has none)")
	t.jf.setUsage("delta", "the mechanism's `δ`: read from its metadata; if given it must agree (a CSV mechanism without it is audited at δ = 0)")
	o := &verifyOptions{flags: t}
	t.fs.Float64Var(&o.tolerance, "tolerance", 0, "largest DP excess `P` (a probability) still accepted")
	t.fs.BoolVar(&o.json, "json", false, jsonUsage+" instead of the text report")
	job, source, probs, err := t.parse(args, take)
	if err != nil {
		return nil, err
	}
	if math.IsNaN(o.tolerance) || math.IsInf(o.tolerance, 0) || o.tolerance < 0 {
		probs = append(probs, fmt.Sprintf("tolerance: must be a finite number ≥ 0, got %v", o.tolerance))
	}
	probs = append(probs, t.fileProblems(&job)...)
	o.job, o.source = job, source
	return o, t.done(source, probs)
}

func cmdVerify(ctx context.Context, args []string, e *env) error {
	o, err := parseVerify(args, e.stdout)
	if err != nil {
		return err
	}
	return o.flags.start(ctx, e, func(ctx context.Context) error { return runVerify(ctx, o, e) })
}

// runVerify executes a parsed verify (toolkit.Verify) and prints its report; tests
// call it directly.
func runVerify(ctx context.Context, o *verifyOptions, e *env) error {
	v, err := toolkit.Verify(ctx, o.job, o.tolerance, e.log)
	if v == nil {
		return privateDetails(e.stdout, o.json, o.flags.jf.respell(o.source, err))
	}
	job, x, audit := v.Job, v.Inputs, v.Audit
	ids := x.Vertices.IDs
	m := x.Mechanism
	text := words.NewWrapped(e.stdout) // at 100 columns, as every text for people
	defer text.Flush()
	w := io.Writer(text)
	if o.json {
		w = io.Discard // the text is built as ever; the document is written at the end
	}
	res := &verifyJSON{Mechanism: m.File, Column: m.Column, Epsilon: x.Pair.Epsilon, Delta: x.Pair.Delta, Framework: string(x.Pair.Framework()),
		Privacy: x.Pair.String(), PrivacySource: v.Privacy.Source, Vertices: ids.Len(), Edges: x.Graph.M(), Failed: []string{}}
	under := fmt.Sprintf("ε=%v, δ=%v", job.Epsilon, job.Delta)
	if x.Pair.Framework() != dp.EpsilonDelta {
		under = x.Pair.String()
	}
	fmt.Fprintf(w, "verify %s (column %s) for %s (%s): %s, %s\n", m.File, m.Column, under, privacySource(v.Privacy), words.Count(int64(ids.Len()), "vertex", "vertices"), words.Count(x.Graph.M(), "edge", "edges"))

	// 1. Every DP inequality on every edge.
	fmt.Fprintf(w, "  DP audit: %d edges checked (both directions, both outputs: %d inequalities), %s (edge, output) with excess above %v\n",
		audit.Edges, 4*audit.Edges, words.Count(audit.Violations, "violation", "violations"), o.tolerance)
	if audit.Edges > 0 {
		label := "worst"
		if audit.Worst.Excess <= 0 {
			label = "tightest"
		}
		fmt.Fprintf(w, "  %s: %s\n", label, edgeLine(ids, audit.Worst))
	}
	if audit.Violations > 0 {
		fmt.Fprintln(w, "  violations, in edge order:")
		for _, v := range audit.First {
			fmt.Fprintf(w, "    %s\n", edgeLine(ids, v))
		}
		moreLine(w, audit.Violations, len(audit.First))
	}
	if r := v.Recorded; r != nil {
		res.Ledger, res.LedgerPrivate = job.Ledger, &r.Private
		verdict := "private: graphdp release --ledger " + job.Ledger + " can draw from it, charged " + x.Pair.String()
		if !r.Private {
			verdict = "not private (a DP inequality fails at tolerance 0, or a dataset without neighbours is answered deterministically): graphdp release refuses it"
		}
		fmt.Fprintf(w, "  recorded in the ledger %s (audit %s): %s\n", job.Ledger, r.AuditID, verdict)
	}
	res.Audit = verifyAuditJSON{Edges: audit.Edges, Inequalities: 4 * audit.Edges, Tolerance: o.tolerance, Violations: audit.Violations,
		FirstViolations: []edgeJSON{}}
	if audit.Edges > 0 {
		worst := edgeOf(ids, audit.Worst)
		res.Audit.Worst = &worst
	}
	for _, v := range audit.First {
		res.Audit.FirstViolations = append(res.Audit.FirstViolations, edgeOf(ids, v))
	}
	if err != nil {
		return privateDetails(e.stdout, o.json, err) // the hitting set failed run's checks
	}

	// 2. Agreement with the hitting set, and optimality.
	if v.Checked != nil {
		res.HittingSet = optimality(w, v)
	}
	checks := v.FailedChecks()
	res.Passed, res.Failed = len(checks) == 0, append(res.Failed, v.Failed()...)
	if o.json {
		if err := writeJSON(e.stdout, res); err != nil {
			return err
		}
	}
	if len(checks) > 0 {
		fmt.Fprintln(w, "  FAILED")
		// The checks' names only, without their counts: the error goes to stderr, which
		// is shareable (docs/FORMATS.md, "Private and shareable outputs").
		var names []string
		for _, c := range checks {
			names = append(names, c.Name)
		}
		return &rejected{fmt.Sprintf("%s: fails %s (the report on stdout gives the figures)", m.File, strings.Join(names, ", "))}
	}
	fmt.Fprintln(w, "  passed")
	return nil
}

// verifyJSON is verify --json's document (docs/CLI.md, "JSON output").
type verifyJSON struct {
	Mechanism     string          `json:"mechanism"`
	Column        string          `json:"column"` // p_one or p_true: the one audited
	Epsilon       float64         `json:"epsilon"`
	Delta         float64         `json:"delta"`
	Framework     string          `json:"framework"`      // dp.Framework
	Privacy       string          `json:"privacy"`        // the framework and its parameters in words
	PrivacySource string          `json:"privacy_source"` // metadata or stated
	Vertices      int             `json:"vertices"`
	Edges         int64           `json:"edges"`
	Audit         verifyAuditJSON `json:"audit"`
	HittingSet    *verifyHitJSON  `json:"hitting_set"` // null without --hitting-set
	Passed        bool            `json:"passed"`
	Failed        []string        `json:"failed"` // what failed, in words; empty when passed
	// Ledger is, with --ledger, the ledger the audit was recorded in, and
	// LedgerPrivate the verdict recorded there (what release decides by).
	Ledger        string `json:"ledger,omitempty"`
	LedgerPrivate *bool  `json:"ledger_private,omitempty"`
}

type verifyAuditJSON struct {
	Edges           int64      `json:"edges"`
	Inequalities    int64      `json:"inequalities"`
	Tolerance       float64    `json:"tolerance"`
	Violations      int64      `json:"violations"`
	Worst           *edgeJSON  `json:"worst"` // the worst (or, when none breaks, the tightest) pair; null without edges
	FirstViolations []edgeJSON `json:"first_violations"`
}

// verifyHitJSON compares the mechanism with the hitting set and the optimum.
type verifyHitJSON struct {
	File          string         `json:"file"`
	Vertices      int            `json:"vertices"`
	BoundaryEdges int64          `json:"boundary_edges"`
	Agree         int            `json:"agree"`
	Disagree      int            `json:"disagree"`
	Equal         int            `json:"equal"` // outside the hitting set: at the optimum
	Close         int            `json:"close"` // within 1e-9 of it
	Below         int            `json:"below"` // not optimal
	Above         int            `json:"above"` // impossible for a DP extension agreeing with the hitting set
	Shortfall     float64        `json:"largest_shortfall"`
	FirstDisagree []mismatchJSON `json:"first_disagree"`
	FirstBelow    []mismatchJSON `json:"first_below"`
	FirstAbove    []mismatchJSON `json:"first_above"`
}

// mismatchJSON is one dataset's p_true against the one expected (the hitting
// set's, or the optimum with the dataset that binds it and its distance).
type mismatchJSON struct {
	ID       string  `json:"id"`
	PTrue    float64 `json:"p_true"`
	Expected float64 `json:"expected"`
	BoundBy  *string `json:"bound_by,omitempty"`
	Distance *int32  `json:"distance,omitempty"`
}

// optimality prints how the mechanism compares with the hitting set and with the
// optimal extension Solve computes (check.CompareOptimal) and returns it as JSON.
func optimality(w io.Writer, v *toolkit.Verified) *verifyHitJSON {
	x, c, o := v.Inputs, v.Checked, v.Optimal
	ids := x.Vertices.IDs
	sol := c.Solution
	fmt.Fprintf(w, "  hitting set %s: %s, covers all %s; an extension exists\n", x.Hit.File, words.Count(int64(len(x.Hit.Vertex)), "vertex", "vertices"), words.Count(c.BoundaryEdges, "boundary edge", "boundary edges"))

	fmt.Fprintf(w, "  agreement with the hitting set: %d of %d values within %g\n", len(x.Hit.Vertex)-o.Disagree, len(x.Hit.Vertex), bfs.Tolerance)
	for _, m := range o.FirstDisagree {
		fmt.Fprintf(w, "    id %s: p_true %s, the hitting set gives %s (off by %.3g)\n", words.Quote(ids.String(int(m.V))), words.Num(m.Got), words.Num(m.Want), m.Got-m.Want)
	}
	moreLine(w, int64(o.Disagree), len(o.FirstDisagree))
	res := &verifyHitJSON{File: x.Hit.File, Vertices: len(x.Hit.Vertex), BoundaryEdges: c.BoundaryEdges, Agree: len(x.Hit.Vertex) - o.Disagree,
		Disagree: o.Disagree, Equal: o.Equal, Close: o.Close, Below: o.Below, Above: o.Above, Shortfall: o.Shortfall}
	list := func(ms []check.Mismatch, bound bool) []mismatchJSON {
		out := []mismatchJSON{}
		for _, m := range ms {
			j := mismatchJSON{ID: ids.String(int(m.V)), PTrue: m.Got, Expected: m.Want}
			if b := sol.Bind[m.V]; bound && b >= 0 {
				by, d := ids.String(int(b)), sol.Dist[m.V]
				j.BoundBy, j.Distance = &by, &d
			}
			out = append(out, j)
		}
		return out
	}
	res.FirstDisagree, res.FirstBelow, res.FirstAbove = list(o.FirstDisagree, false), list(o.FirstBelow, true), list(o.FirstAbove, true)

	why := func(v int32) string {
		if b := sol.Bind[v]; b >= 0 {
			return fmt.Sprintf("bound by %s at distance %d", words.Quote(ids.String(int(b))), sol.Dist[v])
		}
		return "nothing binds it"
	}
	fmt.Fprintf(w, "  optimality (outside the hitting set): %d equal to the optimum, %d within %g, %d below (not optimal), %d above (impossible for a DP extension agreeing with the hitting set)\n",
		o.Equal, o.Close, bfs.Tolerance, o.Below, o.Above)
	if o.Below > 0 {
		fmt.Fprintf(w, "  not optimal (largest shortfall %.3g):\n", o.Shortfall)
		for _, m := range o.FirstBelow {
			fmt.Fprintf(w, "    id %s: p_true %s < optimum %s (%s): short by %.3g\n", words.Quote(ids.String(int(m.V))), words.Num(m.Got), words.Num(m.Want), why(m.V), m.Want-m.Got)
		}
		moreLine(w, int64(o.Below), len(o.FirstBelow))
	}
	if o.Above > 0 {
		fmt.Fprintln(w, "  above the optimum (no DP mechanism agreeing with the hitting set gets there):")
		for _, m := range o.FirstAbove {
			fmt.Fprintf(w, "    id %s: p_true %s > optimum %s (%s) by %.3g\n", words.Quote(ids.String(int(m.V))), words.Num(m.Got), words.Num(m.Want), why(m.V), m.Got-m.Want)
		}
		moreLine(w, int64(o.Above), len(o.FirstAbove))
	}
	return res
}

// privacySource says where a mechanism's (ε, δ) came from.
func privacySource(p job.Privacy) string {
	if p.Source == ledger.SourceMetadata {
		return "from its metadata"
	}
	return "as given"
}

// edgeLine describes one DP inequality pair on an edge.
func edgeLine(ids ingest.IDs, v check.EdgeViolation) string {
	if v.U < 0 {
		return "no edge"
	}
	j := 0
	if v.Output {
		j = 1
	}
	u, x := words.Quote(ids.String(int(v.U))), words.Quote(ids.String(int(v.V)))
	// No Pr[M(u) = j]: a dataset's p_one is what a release of it publishes (exactly
	// its answer when deterministic); --json still gives them, as the mechanism does.
	return fmt.Sprintf("edge %s – %s, output %d, excess %.3g", u, x, j, v.Excess)
}

func moreLine(w io.Writer, total int64, shown int) {
	if n := total - int64(shown); n > 0 {
		fmt.Fprintf(w, "    … and %d more\n", n)
	}
}
