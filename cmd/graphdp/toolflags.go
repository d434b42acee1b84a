package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/graphdp/graphdp/pipeline"
)

// toolFlags are the job flags verify, query and hitting-set share with run — inputs,
// ε, δ, column names, -list, -config — applied like run's: defaults, then the config
// file, then the flags that were set. Keys of a config file that a command does not
// use (out, summary, engine, …) are ignored; each command's own output is a flag.
type toolFlags struct {
	name      string
	fs        *flag.FlagSet
	config    string
	f         pipeline.Job
	eps       float64
	logFormat string
	logLevel  string
}

// toolInputs says which optional inputs a command takes.
type toolInputs struct {
	hittingSet string // "": not taken; else the flag's help text
	mechanism  bool
}

func newToolFlags(name, synopsis, about string, stderr io.Writer, take toolInputs) *toolFlags {
	t := &toolFlags{name: name, fs: flag.NewFlagSet(name, flag.ContinueOnError)}
	fs := t.fs
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: graphdp %s %s\n\n%s\n\nflags:\n", name, synopsis, about)
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output(), "\nexit status: 0 ok, 1 failure, 2 usage or config error, 3 input rejected or check failed")
	}
	f := &t.f
	fs.StringVar(&t.config, "config", "", "YAML job file, as for run (flags override it)")
	fs.StringVar(&f.Edges, "edges", "", "edges file (.parquet or .csv): columns src, dst")
	fs.StringVar(&f.Vertices, "vertices", "", "vertices file: columns id, answer")
	if take.hittingSet != "" {
		fs.StringVar(&f.HittingSet, "hitting-set", "", take.hittingSet)
	}
	if take.mechanism {
		fs.StringVar(&f.Mechanism, "mechanism", "", "mechanism file to audit (.parquet or .csv): columns id and p_one, or id and p_true (default with -config: the config's out)")
		fs.StringVar(&f.Columns.POne, "p-one-column", "", "mechanism p_one column (default p_one)")
	}
	fs.Float64Var(&t.eps, "epsilon", 0, "ε ≥ 0 (required)")
	fs.Float64Var(&f.Delta, "delta", 0, "δ in [0, 1)")
	fs.IntVar(&f.List, "list", 0, "how many problems to list (default 10)")
	fs.StringVar(&f.Columns.ID, "id-column", "", "vertex id column (default id)")
	fs.StringVar(&f.Columns.Answer, "answer-column", "", "answer column (default answer)")
	fs.StringVar(&f.Columns.Src, "src-column", "", "edge source column (default src)")
	fs.StringVar(&f.Columns.Dst, "dst-column", "", "edge target column (default dst)")
	fs.StringVar(&f.Columns.PTrue, "p-true-column", "", "p_true column of the hitting set (and of a mechanism) (default p_true)")
	fs.StringVar(&t.logFormat, "log-format", "text", "log lines on stderr: text or json")
	fs.StringVar(&t.logLevel, "log-level", "warn", "debug, info, warn or error")
	return t
}

// parse parses args and returns the job (config file, then flags) and the problems
// found so far: a config file's unknown keys and the shared keys' checks. The command
// adds its own and reports them all at once (source names where they came from).
func (t *toolFlags) parse(args []string, take toolInputs) (job pipeline.Job, source string, probs []string, err error) {
	if err := t.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return job, "", nil, errHelp
		}
		return job, "", nil, &usageError{err.Error()}
	}
	if t.fs.NArg() > 0 {
		return job, "", nil, &usageError{fmt.Sprintf("unexpected argument %q", t.fs.Arg(0))}
	}
	job = pipeline.DefaultJob()
	source = "flags"
	if t.config != "" {
		unknown, err := pipeline.LoadConfig(t.config, &job)
		if err != nil {
			return job, "", nil, err
		}
		probs = append(probs, unknown...)
		source = t.config + " with flags"
	}
	f := &t.f
	t.fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "edges":
			job.Edges = f.Edges
		case "vertices":
			job.Vertices = f.Vertices
		case "hitting-set":
			job.HittingSet = f.HittingSet
		case "mechanism":
			job.Mechanism = f.Mechanism
		case "epsilon":
			job.SetEpsilon(t.eps)
		case "delta":
			job.Delta = f.Delta
		case "list":
			job.List = f.List
		case "id-column":
			job.Columns.ID = f.Columns.ID
		case "answer-column":
			job.Columns.Answer = f.Columns.Answer
		case "src-column":
			job.Columns.Src = f.Columns.Src
		case "dst-column":
			job.Columns.Dst = f.Columns.Dst
		case "p-true-column":
			job.Columns.PTrue = f.Columns.PTrue
		case "p-one-column":
			job.Columns.POne = f.Columns.POne
		}
	})
	if take.hittingSet == "" {
		job.HittingSet = "" // a config file's hitting set is run's input, not this command's
	}
	if !take.mechanism {
		job.Mechanism = ""
	} else if job.Mechanism == "" && t.config != "" {
		job.Mechanism = job.Out // a run's config: its output is the mechanism (as release and report read it)
	}
	add := func(format string, a ...any) { probs = append(probs, fmt.Sprintf(format, a...)) }
	for _, req := range []struct{ name, val string }{{"edges", job.Edges}, {"vertices", job.Vertices}} {
		if req.val == "" {
			add("%s: required (a file path)", req.name)
		}
	}
	if take.mechanism && job.Mechanism == "" {
		add("mechanism: required (a file path)")
	}
	// ε has no default (0 is legal); the Job records whether it was given.
	if !job.EpsilonSet() {
		add("epsilon: required (a number ≥ 0)")
	} else if math.IsNaN(job.Epsilon) || math.IsInf(job.Epsilon, 0) || job.Epsilon < 0 {
		add("epsilon: must be a finite number ≥ 0, got %v", job.Epsilon)
	}
	if math.IsNaN(job.Delta) || job.Delta < 0 || job.Delta >= 1 {
		add("delta: must be in [0, 1), got %v", job.Delta)
	}
	if job.List < 0 {
		add("list: must be ≥ 0, got %d", job.List)
	}
	return job, source, probs, nil
}

// done turns the problems into the error run gives (exit status 2), or nil.
func (t *toolFlags) done(source string, probs []string) error {
	if len(probs) > 0 {
		return &pipeline.ConfigError{Source: source, Problems: probs}
	}
	return nil
}

// logger configures log/slog for the command, as run does.
func (t *toolFlags) logger(e *env) error {
	log, err := newLogger(e.stderr, t.logFormat, t.logLevel)
	if err != nil {
		return err
	}
	e.log = log.With("command", t.name)
	return nil
}
