package cli

import (
	"context"
	"flag"

	"io"
	"slices"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/job"
)

// toolFlags are the job flags verify, query and hitting-set share with run (the
// jobFlags table) plus logging, with a usage text of the command's own. Keys of a
// run's config file that a command does not use (summary, engine, …) are ignored;
// each command's own output is a flag.
type toolFlags struct {
	name string
	fs   *flag.FlagSet
	jf   *jobFlags
	logs *logFlags
}

// toolInputs says which optional inputs a command takes.
type toolInputs struct {
	hittingSet string // "": not taken; else the flag's help text
	mechanism  bool
	provenance bool   // the command's outputs name the inputs by digest (--provenance-key)
	ledger     string // "": not taken; else the --ledger flag's help text (verify records its audit)
	// allowNonPrivate: the command writes a mechanism or its hitting set, refused
	// when datasets are not private unless --allow-non-private (pipeline.RefuseNotPrivate).
	allowNonPrivate bool
}

func newToolFlags(name, synopsis, about string, stdout io.Writer, take toolInputs) *toolFlags {
	t := &toolFlags{name: name, fs: flag.NewFlagSet(name, flag.ContinueOnError)}
	fs := t.fs
	fs.SetOutput(stdout) // where -h prints (parseFlags)
	names := slices.Concat([]string{"edges", "vertices"}, privacyFlags(),
		[]string{"list", "id-column", "answer-column", "src-column", "dst-column", "p-true-column", "delimiter"})
	if take.hittingSet != "" {
		names = append(names, "hitting-set")
	}
	if take.mechanism {
		names = append(names, "mechanism", "p-one-column")
	}
	if take.provenance {
		names = append(names, "provenance-key")
	}
	if take.ledger != "" {
		names = append(names, "ledger")
	}
	if take.allowNonPrivate {
		names = append(names, "allow-non-private")
	}
	t.jf = addJobFlags(fs, "YAML job file, as for run (flags override it)", names...)
	t.jf.usage = usageText{synopsis, about}
	if take.ledger != "" {
		t.jf.setUsage("ledger", take.ledger)
	}
	if take.hittingSet != "" {
		t.jf.setUsage("hitting-set", take.hittingSet)
	}
	t.logs = addLogFlags(fs)
	return t
}

// parse parses args and returns the job (config file, then flags) and the problems
// found so far: a config file's unknown keys and the shared keys' checks. The command
// adds its own and reports them all at once (source names where they came from).
func (t *toolFlags) parse(args []string, take toolInputs) (job job.Job, source string, probs []string, err error) {
	job, source, unknown, err := t.jf.parse(args)
	if err != nil {
		return job, source, nil, err
	}
	if take.hittingSet == "" {
		job.HittingSet = "" // a config file's hitting set is run's input, not this command's
	}
	if take.ledger == "" {
		job.Ledger = "" // likewise a run config's ledger
	}
	required := []string{"edges", "vertices", "epsilon"}
	if take.mechanism {
		// A mechanism's ε and δ come from its metadata (job.Job.MechanismPrivacy);
		// only a mechanism without any needs them given.
		job.Mechanism = t.jf.mechanism(job)
		required = []string{"edges", "vertices", "mechanism"}
	} else {
		job.Mechanism = ""
	}
	job.Out, job.Summary = "", "" // a run config's outputs are not this command's
	return job, source, job.Problems(required, unknown...), nil
}

// fileProblems checks the command's own outputs and inputs against the job's
// files (jobFlags.fileProblems).
func (t *toolFlags) fileProblems(job *job.Job, own ...files.File) []string {
	return t.jf.fileProblems(job, own...)
}

// done turns the problems into the error run gives (exit status 2), or nil.
func (t *toolFlags) done(source string, probs []string) error {
	return t.jf.problems(source, probs)
}

// logger configures log/slog for the command, as run does.
func (t *toolFlags) logger(e *env) error {
	return t.logs.apply(e, t.name)
}

// start configures logging as run does and runs the parsed command with its inputs
// checked first (jobFlags.inputs; extra: further columns to check, as there).
func (t *toolFlags) start(ctx context.Context, e *env, run func(context.Context) error, extra ...[2]string) error {
	if err := t.logger(e); err != nil {
		return err
	}
	return t.jf.inputs(ctx, run, extra...)
}
