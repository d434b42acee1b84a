package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/graphdp/graphdp/pipeline"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/words"
)

// releaseOptions are release's flags.
type releaseOptions struct {
	logs   *logFlags
	job    pipeline.ReleaseJob
	config string
	quiet  bool
	rand   io.Reader // nil: crypto/rand (tests inject a stream)
}

// idFlags collects repeated --id values.
type idFlags []string

func (f *idFlags) String() string     { return fmt.Sprint([]string(*f)) }
func (f *idFlags) Set(v string) error { *f = append(*f, v); return nil }
func (f *idFlags) repeatable()        {}

// parseRelease parses flags: a run's config file may give the mechanism (its out)
// and the column names; flags override it.
func parseRelease(args []string, stderr io.Writer) (*releaseOptions, error) {
	o := &releaseOptions{}
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ids idFlags
	jf := addJobFlags(fs, "a run's YAML job file: its out is the mechanism, its columns, ε and δ apply",
		"mechanism", "out", "epsilon", "delta", "id-column", "answer-column", "p-one-column", "p-true-column", "distance-column")
	jf.usage = usageText{"--mechanism M --epsilon ε [--delta δ] (--id X … | --ids FILE) --out F [--ledger L --budget-epsilon E]", "Draws the private answers of chosen datasets from a mechanism (exact Bernoulli\nsampling) and writes only id and released."}
	jf.setUsage("epsilon", "the mechanism's ε ≥ 0 (required): what this release spends on each dataset; in the file's metadata and the ledger")
	jf.setUsage("delta", "the mechanism's δ in [0, 1): what this release spends on each dataset")
	fs.BoolVar(&o.job.AllowDeterministic, "allow-deterministic", false, "release datasets with p_one exactly 0 or 1 (their true answer, no privacy); refused without it")
	fs.StringVar(&o.job.Budget.Ledger, "ledger", "", "privacy ledger (JSON lines, created if missing): record this release and refuse one past the budget")
	var budgetEps, budgetDelta float64
	fs.Float64Var(&budgetEps, "budget-epsilon", math.NaN(), "with --ledger: total ε each dataset may spend (basic composition; required with --ledger)")
	fs.Float64Var(&budgetDelta, "budget-delta", 0, "with --ledger: total δ each dataset may spend")
	jf.setUsage("out", "output file: .parquet, .arrow/.feather or .csv (columns id, released)")
	fs.StringVar(&o.job.IDsFile, "ids", "", "table of the ids to release (.parquet or .csv, an id column)")
	fs.Var(&ids, "id", "an id to release (repeatable)")
	fs.BoolVar(&o.quiet, "quiet", false, "no summary line on stderr")
	o.logs = addLogFlags(fs)
	job, source, unknown, err := jf.parse(args)
	if err != nil {
		return nil, err
	}
	// A run config's out is the mechanism; release's own output is -out only.
	job.Mechanism = jf.mechanism(job)
	if !jf.set("out") {
		job.Out = ""
	}
	job.Summary = ""
	probs := job.Problems([]string{"mechanism", "out", "epsilon"}, unknown...)
	switch led := o.job.Budget.Ledger; {
	case led == "" && (jf.set("budget-epsilon") || jf.set("budget-delta")):
		probs = append(probs, "budget-epsilon and budget-delta: need --ledger (where the spending is recorded)")
	case led != "" && !jf.set("budget-epsilon"):
		probs = append(probs, "budget-epsilon: required with --ledger (the total ε each dataset may spend)")
	case led != "" && (math.IsNaN(budgetEps) || math.IsInf(budgetEps, 0) || budgetEps < 0):
		probs = append(probs, fmt.Sprintf("budget-epsilon: must be a finite number ≥ 0, got %v", budgetEps))
	case led != "" && (math.IsNaN(budgetDelta) || budgetDelta < 0 || budgetDelta > 1):
		probs = append(probs, fmt.Sprintf("budget-delta: must be in [0, 1], got %v", budgetDelta))
	}
	probs = append(probs, jf.fileProblems(&job, files.In("ids", o.job.IDsFile), files.Out("ledger", o.job.Budget.Ledger))...)
	o.job.Budget.Epsilon, o.job.Budget.Delta = budgetEps, budgetDelta
	switch {
	case o.job.IDsFile == "" && len(ids) == 0:
		probs = append(probs, "ids or id: required (which datasets to release)")
	case o.job.IDsFile != "" && len(ids) > 0:
		probs = append(probs, "ids and id: give one of them, not both")
	}
	if err := jf.problems(source, probs); err != nil {
		return nil, err
	}
	o.job.Mechanism, o.job.Out, o.job.IDs, o.job.Columns = job.Mechanism, job.Out, ids, job.MechanismColumns()
	o.job.Epsilon, o.job.Delta = job.Epsilon, job.Delta
	return o, nil
}

func cmdRelease(ctx context.Context, args []string, e *env) error {
	o, err := parseRelease(args, e.stderr)
	if err != nil {
		return err
	}
	if err := o.logs.apply(e, "release"); err != nil {
		return err
	}
	return runRelease(ctx, o, e)
}

// runRelease executes a parsed release; tests call it directly.
func runRelease(ctx context.Context, o *releaseOptions, e *env) error {
	r, err := pipeline.Release(ctx, o.job, o.rand)
	if err != nil {
		return err
	}
	if !o.quiet {
		fmt.Fprintf(e.stderr, "graphdp release: %s drawn from %s (ε = %g, δ = %g each), written to %s\n", words.Count(int64(r.Rows), "answer", "answers"), o.job.Mechanism, o.job.Epsilon, o.job.Delta, r.Out)
		if l := o.job.Budget.Ledger; l != "" {
			fmt.Fprintf(e.stderr, "  recorded in the ledger %s (release id %s; budget ε = %g, δ = %g per dataset)\n", l, r.ReleaseID, o.job.Budget.Epsilon, o.job.Budget.Delta)
		}
	}
	return nil
}
