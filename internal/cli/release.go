package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/toolkit"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/words"
)

// releaseOptions are release's flags.
type releaseOptions struct {
	logs   *logFlags
	job    toolkit.ReleaseJob
	config string
	quiet  bool
	json   bool
	rand   io.Reader // nil: crypto/rand (tests inject a stream)
	jf     *jobFlags // names problems found after parsing the way the user gave them
}

// idFlags collects repeated --id values.
type idFlags []string

func (f *idFlags) String() string     { return fmt.Sprint([]string(*f)) }
func (f *idFlags) Set(v string) error { *f = append(*f, v); return nil }
func (f *idFlags) repeatable()        {}

// parseRelease parses flags: a run's config file may give the mechanism (its out)
// and the column names; flags override it.
func parseRelease(args []string, stdout io.Writer) (*releaseOptions, error) {
	o := &releaseOptions{}
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stdout) // where -h prints (parseFlags)
	var ids idFlags
	jf := addJobFlags(fs, "a run's YAML job file: its out is the mechanism, its columns, ε and δ apply",
		"mechanism", "out", "ledger", "epsilon", "delta", "id-column", "answer-column", "p-one-column", "p-true-column", "distance-column", "delimiter")
	o.jf = jf
	jf.usage = usageText{"--mechanism M (--id X … | --ids FILE) --out F (--ledger L | --no-ledger)", "Draws the private answers of chosen datasets from a mechanism (exact Bernoulli\nsampling) and writes only id and released, to a new file. What it spends on each\ndataset is what the ledger (graphdp ledger init) recorded when graphdp run or\ngraphdp verify audited this very mechanism (--ledger there); the release is recorded\nin the ledger and refused past its budget, or for a mechanism the ledger has no audit of."}
	jf.setUsage("ledger", "privacy ledger `FILE` (made by graphdp ledger init) holding this mechanism's audit: the release is charged what it recorded, recorded, and refused past the budget")
	jf.setUsage("epsilon", "the mechanism's `ε`: what the ledger's audit recorded (or, with --no-ledger, its metadata); if given it must agree (required for a CSV mechanism with --no-ledger)")
	jf.setUsage("delta", "the mechanism's `δ`: as --epsilon")
	fs.BoolVar(&o.job.NoLedger, "no-ledger", false, "release without a ledger: nothing is charged here (you account elsewhere); datasets answered deterministically are refused")
	var budgetEps, budgetDelta numberFlag
	fs.Var(&budgetEps, "budget-epsilon", "with --ledger: the budget `ε` you expect; refused unless it is the ledger's (the budget lives in the ledger)")
	fs.Var(&budgetDelta, "budget-delta", "with --ledger: the budget `δ` you expect; refused unless it is the ledger's")
	jf.setUsage("out", "output `FILE`: .parquet, .arrow/.feather or .csv (columns id, released)")
	fs.Var((*tableFlag)(&o.job.IDsFile), "ids", "`TABLE` of the ids to release (.parquet or .csv file, folder or glob; repeatable; an id column)")
	fs.Var(&ids, "id", "an `ID` to release (repeatable)")
	fs.BoolVar(&o.quiet, "quiet", false, "nothing on stderr but errors")
	fs.BoolVar(&o.json, "json", false, jsonUsage+" instead of the summary on stderr (never the answers drawn)")
	fs.BoolVar(&o.job.DryRun, "dry-run", false, dryRunUsage+": nothing drawn, no ledger line")
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
	probs := job.Problems([]string{"mechanism", "out"}, unknown...)
	led := job.Ledger
	switch {
	case led == "" && !o.job.NoLedger:
		probs = append(probs, "ledger: required: a release is charged to a ledger (graphdp ledger init makes one); --no-ledger releases without one, if you account elsewhere")
	case led != "" && o.job.NoLedger:
		probs = append(probs, "ledger and no-ledger: give one of them, not both")
	}
	if led == "" && (jf.set("budget-epsilon") || jf.set("budget-delta")) {
		probs = append(probs, "budget-epsilon and budget-delta: need --ledger (the budget lives in the ledger)")
	}
	if p := toolkit.ExistingFile(job.Out); p != "" {
		probs = append(probs, p)
	}
	if jf.set("budget-epsilon") {
		v := float64(budgetEps)
		o.job.BudgetEpsilon = &v
	}
	if jf.set("budget-delta") {
		v := float64(budgetDelta)
		o.job.BudgetDelta = &v
	}
	// The ledger (in job.Files) is a file of its own: not the output, the mechanism
	// or the ids file, by any path (package files; Release checks again under the
	// ledger's lock).
	probs = append(probs, jf.fileProblems(&job, files.In("ids", o.job.IDsFile))...)
	switch {
	case o.job.IDsFile == "" && len(ids) == 0:
		probs = append(probs, "ids or id: required (which datasets to release)")
	case o.job.IDsFile != "" && len(ids) > 0:
		probs = append(probs, "ids and id: give one of them, not both")
	}
	if err := jf.problems(source, probs); err != nil {
		return nil, err
	}
	o.config = source
	o.job.Mechanism, o.job.Out, o.job.IDs, o.job.Columns, o.job.Ledger = job.Mechanism, job.Out, ids, job.MechanismColumns(), job.Ledger
	o.job.Stated = job.Stated()
	return o, nil
}

func cmdRelease(ctx context.Context, args []string, e *env) error {
	o, err := parseRelease(args, e.stdout)
	if err != nil {
		return err
	}
	if err := o.logs.apply(e, "release"); err != nil {
		return err
	}
	return o.jf.inputs(ctx, func(ctx context.Context) error { return runRelease(ctx, o, e) })
}

// runRelease executes a parsed release and prints its document; tests call it
// directly.
func runRelease(ctx context.Context, o *releaseOptions, e *env) error {
	d, err := toolkit.Release(ctx, o.job, o.rand)
	if err != nil {
		return o.jf.respell(o.config, err)
	}
	switch {
	case o.json:
		return writeJSON(e.stdout, d)
	case d.DryRun:
		printReleasePlan(e.stdout, d)
		return nil
	}
	if !o.quiet {
		from := "from its metadata"
		switch {
		case d.AuditID != "":
			from = fmt.Sprintf("as the ledger's audit recorded, line %d", d.AuditLine)
		case d.PrivacySource == ledger.SourceStated:
			from = "as given"
		}
		spent := d.PrivacyWords + " each"
		fmt.Fprintf(e.stderr, "graphdp release: %s drawn from %s (%s, %s), written to %s\n", words.Count(int64(d.Rows), "answer", "answers"), d.Mechanism, spent, from, d.Out)
		if d.Budget != nil && d.BudgetMu > 0 {
			fmt.Fprintf(e.stderr, "  charged to each dataset as μ = %s, composing with its earlier releases to √(Σ μᵢ²) (docs/LEDGER.md, \"A μ-GDP budget\")\n", words.Up(d.Mu))
		} else if d.Budget != nil && d.Framework != ledger.Framework {
			fmt.Fprintf(e.stderr, "  charged to each dataset as ε = %s, δ = %s, which it guarantees (docs/LEDGER.md, \"Other frameworks\")\n", words.Up(d.Epsilon), words.Up(d.Delta))
		}
		if d.Budget == nil {
			fmt.Fprintf(e.stderr, "  not charged: released with --no-ledger\n")
		} else {
			fmt.Fprintf(e.stderr, "  recorded in the ledger %s (release id %s; budget %s per dataset; graphdp ledger show %s)\n", d.Ledger, d.ReleaseID, budgetWords(budgetOf(*d.Budget, d.BudgetMu)), d.Ledger)
		}
	}
	return nil
}
