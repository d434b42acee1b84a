package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/sink"
	"github.com/graphdp/graphdp/toolkit"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/words"
)

// reportOptions are report's flags over its job.
type reportOptions struct {
	logs   *logFlags
	job    job.Job                      // inputs, ε, δ, columns, list, provenance key
	cols   ingest.MechanismTableColumns // the mechanism table's, with the explanation
	config string
	json   bool
	html   string
	jf     *jobFlags
	stated job.Job // the job as parsed: ε and δ where given
}

// parseReport parses flags: a run's config file may give the inputs, ε, δ, the
// columns and (its out) the mechanism; flags override it.
func parseReport(args []string, stdout io.Writer) (*reportOptions, error) {
	o := &reportOptions{}
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stdout) // where -h prints (parseFlags)
	jf := addJobFlags(fs, "a run's YAML job file: inputs, ε, δ, columns; its out is the mechanism",
		slices.Concat([]string{"mechanism", "edges", "vertices"}, privacyFlags(), []string{"list", "delimiter",
			"src-column", "dst-column", "id-column", "answer-column", "p-one-column", "p-true-column", "distance-column", "provenance-key"})...)
	jf.usage = usageText{"--config FILE | --mechanism M --edges E --vertices V [--epsilon ε --delta δ] [--json] [--html FILE]", "Explains a mechanism: accuracy, why (distance to the binding dataset), against\nrandomized response, deterministic datasets, and the exact DP audit. The mechanism's\nε and δ come from its metadata (graphdp run writes them); a CSV mechanism needs --epsilon."}
	jf.setUsage("epsilon", "the mechanism's `ε`: read from its metadata; if given it must agree (required for a CSV mechanism, which has none)")
	jf.setUsage("delta", "the mechanism's `δ`: read from its metadata; if given it must agree (a CSV mechanism without it is audited at δ = 0)")
	jf.setUsage("list", "how many DP violations to list (`N`)")
	fs.BoolVar(&o.json, "json", false, "print the report as JSON instead of text")
	fs.StringVar(&o.html, "html", "", "also write a self-contained HTML page with plots to `FILE`")
	o.logs = addLogFlags(fs)
	job, source, unknown, err := jf.parse(args)
	if err != nil {
		return nil, err
	}
	job.Mechanism, job.Out, job.Summary, job.Ledger = jf.mechanism(job), "", "", "" // a run config's outputs are not report's
	probs := append(job.Problems([]string{"mechanism", "edges", "vertices"}, unknown...), jf.fileProblems(&job, files.Out("html", o.html))...)
	if err := jf.problems(source, probs); err != nil {
		return nil, err
	}
	o.jf, o.config, o.stated = jf, source, job
	o.job, o.cols = job, job.MechanismColumns().WithExplanation()
	return o, nil
}

func cmdReport(ctx context.Context, args []string, e *env) error {
	o, err := parseReport(args, e.stdout)
	if err != nil {
		return err
	}
	if err := o.logs.apply(e, "report"); err != nil {
		return err
	}
	return o.jf.inputs(ctx, func(ctx context.Context) error { return runReport(ctx, o, e) })
}

// runReport executes a parsed report; tests call it directly. The report is printed
// (and the page written) also when the DP audit fails; the status is then 3.
func runReport(ctx context.Context, o *reportOptions, e *env) error {
	if o.jf != nil {
		stated := o.stated
		if _, err := stated.MechanismPrivacy(ctx); err != nil {
			return o.jf.respell(o.config, err)
		}
		o.job.Epsilon, o.job.Delta = stated.Epsilon, stated.Delta
		if stated.Framework() != dp.EpsilonDelta {
			p, err := stated.Pair(ctx)
			if err != nil {
				return err
			}
			o.job.UsePair(p)
		}
	}
	r, err := toolkit.Report(ctx, o.job, o.cols)
	if err != nil {
		return err
	}
	if o.json {
		err = r.JSON(e.stdout)
	} else {
		text := words.NewWrapped(e.stdout) // at 100 columns, as every text for people
		if err = r.Text(text); err == nil {
			err = text.Flush()
		}
	}
	if err != nil {
		return err
	}
	if o.html != "" {
		// The page draws every dataset's answer: private, 0600 (docs/FORMATS.md).
		out := sink.NewPrivateOutputs()
		defer out.Abort()
		if err := out.WriteFile(ctx, o.html, r.HTML); err != nil {
			return err
		}
		if err := out.Commit(ctx); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "graphdp report: wrote %s (private: it draws every dataset's answer; mode 0600)\n", o.html)
	}
	if !r.Audit.Passed {
		// No count on stderr (shareable, docs/FORMATS.md): the report has it.
		return &rejected{fmt.Sprintf("%s: the mechanism fails the (ε,δ)-DP audit (the report on stdout lists the pairs that break it)", o.job.Mechanism)}
	}
	return nil
}
