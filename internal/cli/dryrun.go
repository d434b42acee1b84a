package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/toolkit"

	"github.com/graphdp/graphdp/internal/words"
)

// --dry-run (run, optimize, release) reads and checks everything the command
// would, models its memory, prints the plan on stdout and writes nothing: no
// output, no summary, no ledger line. Its exit status is the real command's: a
// plan is printed only when the command would succeed; otherwise the same error
// is reported.

const dryRunUsage = "read and check everything, print the plan on stdout, write nothing (exit status as the command's without it)"

// mib writes a byte count for people (GiB, MiB or KiB).
func mib(b int64) string {
	if b >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	if b >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
}

// memoryLine describes a memory model and its budget.
func memoryLine(m *load.MemoryModel) string {
	if m == nil {
		return "not modelled"
	}
	budget := "no budget known"
	if m.BudgetBytes > 0 {
		budget = fmt.Sprintf("within %s, %s", mib(m.BudgetBytes), m.BudgetSource)
	}
	return fmt.Sprintf("model peak %s (graph build %s, engine %s; docs/PERFORMANCE.md, \"Memory model\"), %s", mib(m.Peak()), mib(m.Build), mib(m.Engine), budget)
}

// outputsLine lists the outputs a command would write (key=path, those given).
func outputsLine(outs ...[2]string) string {
	var parts []string
	for _, o := range outs {
		if o[1] != "" {
			parts = append(parts, fmt.Sprintf("%s %s", o[0], o[1]))
		}
	}
	return strings.Join(parts, "; ")
}

// printRunPlan prints run's dry run: what was read, what a run would write, and
// what the checks found.
func printRunPlan(w io.Writer, job job.Job, s *pipeline.Summary) {
	fmt.Fprintln(w, "graphdp run --dry-run: the job passes every check; nothing written")
	in := s.Inputs
	fmt.Fprintf(w, "  inputs:    vertices %s (%s), edges %s (%s), hitting set %s (%s)\n",
		in.Vertices.Path, words.Count(in.Vertices.Rows, "row", "rows"), in.Edges.Path, words.Count(in.Edges.Rows, "row", "rows"),
		in.HittingSet.Path, words.Count(in.HittingSet.Rows, "row", "rows"))
	fmt.Fprintf(w, "  outputs:   %s (not written)\n", outputsLine([2]string{"out", job.Out}, [2]string{"summary", job.Summary}))
	workers := "all cores"
	if job.Workers > 0 {
		workers = words.Count(int64(job.Workers), "core", "cores")
	}
	fmt.Fprintf(w, "  engine:    %s on %s (runner local)\n", s.Engine, workers)
	fmt.Fprintf(w, "  privacy:   ε = %s, δ = %s\n", words.Num(s.Epsilon), words.Num(s.Delta))
	fmt.Fprintf(w, "  memory:    %s\n", memoryLine(s.Memory))
	fmt.Fprintf(w, "  graph:     %s, %s kept of %d rows read (%s, %s), %s\n",
		words.Count(int64(s.Vertices), "vertex", "vertices"), words.Count(s.EdgesKept, "edge", "edges"), s.EdgesRead,
		words.Count(s.Duplicates, "duplicate", "duplicates"), words.Count(s.SelfLoops, "self-loop", "self-loops"),
		words.Count(int64(s.Components), "component", "components"))
	fmt.Fprintf(w, "  checks:    the hitting set (%s) covers all %s; an extension exists; the DP audit passes (worst excess %.3g)\n",
		words.Count(int64(s.HittingSet), "vertex", "vertices"), words.Count(s.BoundaryEdges, "boundary edge", "boundary edges"), s.AuditWorst)
	fmt.Fprintf(w, "  mechanism: mean p_true %.6g, %s truthfully\n", s.MeanPTrue, words.Count(int64(s.Truthful), "vertex answers", "vertices answer"))
	if d := s.Deterministic; d != nil {
		for _, l := range d.Lines() {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}

// printOptimizePlan prints optimize's dry run.
func printOptimizePlan(w io.Writer, oj toolkit.OptimizeJob, s *toolkit.OptimizeSummary) {
	fmt.Fprintln(w, "graphdp optimize --dry-run: the inputs and weights pass every check; nothing solved or written")
	fmt.Fprintf(w, "  inputs:    vertices %s, edges %s: %s, %s\n", oj.Vertices, oj.Edges,
		words.Count(int64(s.Vertices), "dataset", "datasets"), words.Count(s.Edges, "edge", "edges"))
	fmt.Fprintf(w, "  objective: %s; weights: %s; total %.10g (the utility of answering truthfully)\n", s.Objective, s.Weights, s.TotalWeight)
	if f := s.Floors; f.Answer0 > 0 || f.Answer1 > 0 {
		fmt.Fprintf(w, "  floors:    p_true ≥ %s on answer-0 datasets, ≥ %s on answer-1 datasets: met by some DP mechanism\n", words.Num(f.Answer0), words.Num(f.Answer1))
	}
	fmt.Fprintf(w, "  outputs:   %s (not written)\n", outputsLine([2]string{"out", oj.Out}, [2]string{"mechanism-out", oj.MechanismOut},
		[2]string{"summary", oj.SummaryOut}, [2]string{"html", oj.HTML}))
	fmt.Fprintf(w, "  privacy:   ε = %s, δ = %s (balanced α = %.6g)\n", words.Num(s.Epsilon), words.Num(s.Delta), s.Alpha)
	fmt.Fprintf(w, "  memory:    %s; the solver's arrays come on top\n", memoryLine(s.Memory))
	fmt.Fprintf(w, "  problem:   %s; the values of %s (%s) to optimise\n",
		words.Count(s.BoundaryEdges, "boundary edge", "boundary edges"), words.Count(int64(s.HittingSet), "dataset", "datasets"), s.HittingSetIs)
	limit := "no time limit"
	if oj.MaxTime > 0 {
		limit = "at most " + oj.MaxTime.String()
	}
	fmt.Fprintf(w, "  solve:     to a relative gap of %.3g, %s\n", s.TargetGap, limit)
}

// printReleasePlan prints release's dry run d: the datasets, what each spends and,
// with a ledger, what each would have spent after it.
func printReleasePlan(w io.Writer, d *toolkit.ReleaseDoc) {
	fmt.Fprintln(w, "graphdp release --dry-run: the release passes every check; nothing drawn, recorded or written")
	fmt.Fprintf(w, "  mechanism: %s: %s per dataset (%s)\n", d.Mechanism, d.PrivacyWords, privacySource(d.PrivacySource))
	fmt.Fprintf(w, "  output:    %s (not written)\n", d.Out)
	ds := d.Datasets
	fmt.Fprintf(w, "  datasets:  %s\n", words.Count(int64(len(ds)), "dataset", "datasets"))
	shown := min(len(ds), planListed)
	if d.Budget == nil {
		for _, x := range ds[:shown] {
			fmt.Fprintf(w, "    id %s\n", words.Quote(x.ID))
		}
		moreLine(w, int64(len(ds)), shown)
		return
	}
	fmt.Fprintf(w, "  ledger:    %s: budget %s per dataset; every dataset fits (not recorded)\n", d.Ledger, budgetWords(budgetOf(*d.Budget, d.BudgetMu)))
	for _, x := range ds[:shown] {
		a := x.SpentAfter
		if d.BudgetMu > 0 {
			fmt.Fprintf(w, "    id %s: %s before; after it μ = %s spent (√(Σ μᵢ²))\n",
				words.Quote(x.ID), words.Count(int64(*x.ReleasesBefore), "release", "releases"), words.Up(a.Mu))
			continue
		}
		fmt.Fprintf(w, "    id %s: %s before; after it ε = %s, δ = %s spent (%s composition)\n",
			words.Quote(x.ID), words.Count(int64(*x.ReleasesBefore), "release", "releases"), words.Up(a.Epsilon), words.Up(a.Delta), a.Method)
	}
	moreLine(w, int64(len(ds)), shown)
}

// planListed is how many datasets a release plan lists.
const planListed = 10
