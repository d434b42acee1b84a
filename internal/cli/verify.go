package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
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

// runVerify executes a parsed verify (toolkit.Verify) and prints its document, as
// JSON or as the text report; tests call it directly.
func runVerify(ctx context.Context, o *verifyOptions, e *env) error {
	d, err := toolkit.Verify(ctx, o.job, o.tolerance, e.log)
	if d == nil {
		return privateDetails(e.stdout, o.json, o.flags.jf.respell(o.source, err))
	}
	// With err (the hitting set failed run's checks) the text reports the audit, and
	// --json prints no document but the rejection's.
	switch {
	case o.json && err == nil:
		if err := writeJSON(e.stdout, d); err != nil {
			return err
		}
	case !o.json:
		text := words.NewWrapped(e.stdout) // at 100 columns, as every text for people
		printVerify(text, d, err == nil)
		text.Flush()
	}
	if err != nil {
		return privateDetails(e.stdout, o.json, err)
	}
	if !d.Passed {
		// The checks' names only, without their counts: the error goes to stderr, which
		// is shareable (docs/FORMATS.md, "Private and shareable outputs").
		return &rejected{fmt.Sprintf("%s: fails %s (the report on stdout gives the figures)", d.Mechanism, strings.Join(d.FailedChecks, ", "))}
	}
	return nil
}

// printVerify prints verify's text report of d: the audit and, when whole, the
// comparison with the hitting set and the verdict.
func printVerify(w io.Writer, d *toolkit.VerifyDoc, whole bool) {
	under := fmt.Sprintf("ε=%v, δ=%v", d.Epsilon, d.Delta)
	if dp.Framework(d.Framework) != dp.EpsilonDelta {
		under = d.Privacy
	}
	fmt.Fprintf(w, "verify %s (column %s) for %s (%s): %s, %s\n", d.Mechanism, d.Column, under, privacySource(d.PrivacySource), words.Count(int64(d.Vertices), "vertex", "vertices"), words.Count(d.Edges, "edge", "edges"))

	// 1. Every DP inequality on every edge.
	audit := d.Audit
	fmt.Fprintf(w, "  DP audit: %d edges checked (both directions, both outputs: %d inequalities), %s (edge, output) with excess above %v\n",
		audit.Edges, audit.Inequalities, words.Count(audit.Violations, "violation", "violations"), audit.Tolerance)
	if audit.Edges > 0 {
		label, line, worst := "worst", "no edge", audit.Worst // nil: none ranked (never, with edges)
		if worst == nil || worst.Excess <= 0 {
			label = "tightest"
		}
		if worst != nil {
			line = edgeLine(*worst)
		}
		fmt.Fprintf(w, "  %s: %s\n", label, line)
	}
	if audit.Violations > 0 {
		fmt.Fprintln(w, "  violations, in edge order:")
		for _, v := range audit.FirstViolations {
			fmt.Fprintf(w, "    %s\n", edgeLine(v))
		}
		moreLine(w, audit.Violations, len(audit.FirstViolations))
	}
	if d.LedgerPrivate != nil {
		verdict := "private: graphdp release --ledger " + d.Ledger + " can draw from it, charged " + d.Privacy
		if !*d.LedgerPrivate {
			verdict = "not private (a DP inequality fails at tolerance 0, or a dataset without neighbours is answered deterministically): graphdp release refuses it"
		}
		fmt.Fprintf(w, "  recorded in the ledger %s (audit %s): %s\n", d.Ledger, d.AuditID, verdict)
	}
	if !whole {
		return
	}

	// 2. Agreement with the hitting set, and optimality.
	if d.HittingSet != nil {
		optimality(w, d.HittingSet)
	}
	if !d.Passed {
		fmt.Fprintln(w, "  FAILED")
		return
	}
	fmt.Fprintln(w, "  passed")
}

// optimality prints how the mechanism compares with the hitting set and with the
// optimal extension.
func optimality(w io.Writer, h *toolkit.VerifyHitDoc) {
	fmt.Fprintf(w, "  hitting set %s: %s, covers all %s; an extension exists\n", h.File, words.Count(int64(h.Vertices), "vertex", "vertices"), words.Count(h.BoundaryEdges, "boundary edge", "boundary edges"))

	fmt.Fprintf(w, "  agreement with the hitting set: %d of %d values within %g\n", h.Agree, h.Vertices, bfs.Tolerance)
	for _, m := range h.FirstDisagree {
		fmt.Fprintf(w, "    id %s: p_true %s, the hitting set gives %s (off by %.3g)\n", words.Quote(m.ID), words.Num(m.PTrue), words.Num(m.Expected), m.PTrue-m.Expected)
	}
	moreLine(w, int64(h.Disagree), len(h.FirstDisagree))

	why := func(m toolkit.MismatchDoc) string {
		if m.BoundBy != nil {
			return fmt.Sprintf("bound by %s at distance %d", words.Quote(*m.BoundBy), *m.Distance)
		}
		return "nothing binds it"
	}
	fmt.Fprintf(w, "  optimality (outside the hitting set): %d equal to the optimum, %d within %g, %d below (not optimal), %d above (impossible for a DP extension agreeing with the hitting set)\n",
		h.Equal, h.Close, bfs.Tolerance, h.Below, h.Above)
	if h.Below > 0 {
		fmt.Fprintf(w, "  not optimal (largest shortfall %.3g):\n", h.Shortfall)
		for _, m := range h.FirstBelow {
			fmt.Fprintf(w, "    id %s: p_true %s < optimum %s (%s): short by %.3g\n", words.Quote(m.ID), words.Num(m.PTrue), words.Num(m.Expected), why(m), m.Expected-m.PTrue)
		}
		moreLine(w, int64(h.Below), len(h.FirstBelow))
	}
	if h.Above > 0 {
		fmt.Fprintln(w, "  above the optimum (no DP mechanism agreeing with the hitting set gets there):")
		for _, m := range h.FirstAbove {
			fmt.Fprintf(w, "    id %s: p_true %s > optimum %s (%s) by %.3g\n", words.Quote(m.ID), words.Num(m.PTrue), words.Num(m.Expected), why(m), m.PTrue-m.Expected)
		}
		moreLine(w, int64(h.Above), len(h.FirstAbove))
	}
}

// privacySource says where a mechanism's (ε, δ) came from (job.Privacy.Source).
func privacySource(source string) string {
	if source == ledger.SourceMetadata {
		return "from its metadata"
	}
	return "as given"
}

// edgeLine describes one DP inequality pair on an edge.
func edgeLine(v toolkit.EdgeDoc) string {
	// No Pr[M(u) = j]: a dataset's p_one is what a release of it publishes (exactly
	// its answer when deterministic); --json still gives them, as the mechanism does.
	return fmt.Sprintf("edge %s – %s, output %d, excess %.3g", words.Quote(v.U), words.Quote(v.V), v.Output, v.Excess)
}

func moreLine(w io.Writer, total int64, shown int) {
	if n := total - int64(shown); n > 0 {
		fmt.Fprintf(w, "    … and %d more\n", n)
	}
}
