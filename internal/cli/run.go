package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/pipeline"
)

// clusterFlags are run's job flags of the cluster runner (with --beam-flag: the
// "cluster (graphdp-beam)" group of help), defined only in a binary that links it.
var clusterFlags = []string{"runner", "beam-runner", "endpoint", "staging", "worker-timeout", "shard-size", "shards", "buckets", "rounds-per-pipeline"}

// runOptions are run's flags over its job.
type runOptions struct {
	job    job.Job
	logs   *logFlags
	quiet  bool
	dryRun bool
	json   bool
	jf     *jobFlags
}

// parseRun parses flags: defaults, then the config file, then the flags that were set.
// prog says which runners are linked in and which is the default.
func parseRun(args []string, stdout io.Writer, prog Program) (*runOptions, error) {
	o := &runOptions{}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stdout) // where -h prints (parseFlags)
	names := slices.Concat([]string{"edges", "vertices", "hitting-set", "out", "summary", "ledger"}, privacyFlags(),
		[]string{"engine", "relabel", "workers", "list", "max-deterministic", "allow-non-private", "delimiter", "provenance-key",
			"id-column", "answer-column", "src-column", "dst-column", "p-true-column"})
	// The cluster flags only where a cluster runner is linked in (graphdp-beam):
	// graphdp's help does not list flags it cannot use. Its config files may still
	// hold beam keys; runner: beam there names the binary to use.
	_, cluster := prog.Runners["beam"]
	if cluster {
		names = append(names, clusterFlags...)
	}
	jf := addJobFlags(fs, "YAML job file (flags override it)", names...)
	jf.usage = usageText{"--config FILE | --edges E --vertices V --hitting-set H --epsilon ε [--delta δ] --out M [flags]", "Computes the optimal (ε,δ)-DP mechanism of a dataset graph given the hitting set's p_true,\nchecks it (every boundary edge hit, an extension exists, the DP audit), and writes one\nrow per dataset."}
	jf.setUsage("hitting-set", "hitting-set `FILE`: columns id, p_true")
	jf.setUsage("list", "how many uncovered edges or violations to list (`N`)")
	jf.defaultRunner = prog.DefaultRunner
	if cluster && prog.DefaultRunner != "" {
		fs.Lookup("runner").DefValue = prog.DefaultRunner
	}
	o.logs = addLogFlags(fs)
	fs.BoolVar(&o.quiet, "quiet", false, "nothing on stderr but errors: no summary, no warnings (with --log-format json, the run summary record still comes)")
	fs.BoolVar(&o.dryRun, "dry-run", false, dryRunUsage)
	fs.BoolVar(&o.json, "json", false, jsonUsage+": the run summary, as --summary writes it, instead of the summary on stderr")
	var beamFlags []string
	if cluster {
		fs.Var(repeatedFunc(func(s string) error {
			if !strings.Contains(s, "=") {
				return fmt.Errorf("want name=value, got %q", s)
			}
			beamFlags = append(beamFlags, "--"+strings.TrimLeft(s, "-"))
			return nil
		}), "beam-flag", "with --runner beam: a runner flag passed through, as `NAME=VALUE` (repeatable; e.g. project=my-gcp-project)")
	}
	j, source, unknown, err := jf.parse(args)
	if err != nil {
		return nil, err
	}
	j.Beam.Extra = append(j.Beam.Extra, beamFlags...)
	probs := append(j.Problems(job.RunRequired, unknown...), jf.fileProblems(&j)...)
	if _, linked := prog.Runners[j.Runner]; j.Runner != "local" && !linked && slices.Contains(job.Runners, j.Runner) {
		probs = append(probs, fmt.Sprintf("runner: %s: %s does not include the %[1]s runner; run the same command with graphdp-%[1]s (go build ./cmd/graphdp-%[1]s; docs/BEAM.md)", j.Runner, prog.Name))
	}
	if o.dryRun && j.Runner != "local" {
		probs = append(probs, fmt.Sprintf("dry-run: checks the job on this machine, with the local runner, not %s: give --runner local with it", j.Runner))
	}
	if err := jf.problems(source, probs); err != nil {
		return nil, err
	}
	j.DryRun = o.dryRun
	o.job, o.jf = j, jf
	return o, nil
}

func cmdRun(ctx context.Context, args []string, e *env) error {
	o, err := parseRun(args, e.stdout, e.prog)
	if err != nil {
		return err
	}
	if f, ok := e.logw.(*os.File); ok && isTerminal(f) && !o.quiet && !e.json { // logw: stderr itself
		o.job.Progress = f
		// A log line (a warning) clears the status line first, so that it starts a
		// line of its own instead of running on from the status line.
		e.logw = clearingLine{f}
	}
	if err := o.logs.apply(e, "run"); err != nil {
		return err
	}
	return o.jf.inputs(ctx, func(ctx context.Context) error { return runRun(ctx, o, e) })
}

// runRun executes a parsed run; tests call it directly.
func runRun(ctx context.Context, o *runOptions, e *env) error {
	var (
		s   *pipeline.Summary
		err error
	)
	if r, ok := e.prog.Runners[o.job.Runner]; ok && !o.job.DryRun {
		s, err = r(ctx, o.job, e.log)
	} else {
		s, err = pipeline.Run(ctx, o.job, e.log)
	}
	if err != nil {
		return privateDetails(e.stdout, o.json, err)
	}
	switch {
	case o.json:
		return s.EncodeJSON(e.stdout)
	case o.job.DryRun:
		printRunPlan(e.stdout, o.job, s)
		return nil
	}
	switch {
	case e.json:
		// One record holding the summary's shareable part (also with --quiet: it is
		// data); the figures computed from the answers stay in the --summary file.
		jsonRecords(e.logw).Info("run summary", "command", "run", "summary", s.Shared(o.job.Summary))
	case !o.quiet:
		s.Human(e.stderr)
	}
	return nil
}

// isTerminal reports whether f is a character device (a terminal), where run draws
// its progress line (job.Job.Progress).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// clearingLine writes each write (one log record) after clearing the terminal's
// current line, where a progress status line may stand ("\r\033[K": to column 0,
// erase to the end); the status line is drawn again at its next tick.
type clearingLine struct{ w io.Writer }

func (c clearingLine) Write(p []byte) (int, error) {
	if _, err := io.WriteString(c.w, "\r\033[K"); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
