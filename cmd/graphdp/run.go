package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/graphdp/graphdp/pipeline"
)

// runOptions are run's flags over its job.
type runOptions struct {
	job       pipeline.Job
	config    string
	logFormat string
	logLevel  string
	quiet     bool
}

// parseRun parses flags: defaults, then the config file, then the flags that were set.
func parseRun(args []string, stderr io.Writer) (*runOptions, error) {
	o := &runOptions{job: pipeline.DefaultJob()}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f pipeline.Job
	var eps float64
	fs.StringVar(&o.config, "config", "", "YAML job file (flags override it)")
	fs.StringVar(&f.Edges, "edges", "", "edges file (.parquet or .csv): columns src, dst")
	fs.StringVar(&f.Vertices, "vertices", "", "vertices file: columns id, answer")
	fs.StringVar(&f.HittingSet, "hitting-set", "", "hitting-set file: columns id, p_true")
	fs.StringVar(&f.Out, "out", "", "output file: .parquet, .arrow/.feather or .csv")
	fs.StringVar(&f.Summary, "summary", "", "write the run summary as JSON here")
	fs.Float64Var(&eps, "epsilon", 0, "ε ≥ 0 (required)")
	fs.Float64Var(&f.Delta, "delta", 0, "δ in [0, 1)")
	fs.StringVar(&f.Engine, "engine", "", "propagate (default, linear time) or per-source (the paper's Algorithm 1)")
	fs.IntVar(&f.Workers, "workers", 0, "cores to use (0: all)")
	fs.IntVar(&f.List, "list", 0, "how many uncovered edges or violations to list (default 10)")
	fs.StringVar(&f.Columns.ID, "id-column", "", "vertex id column (default id)")
	fs.StringVar(&f.Columns.Answer, "answer-column", "", "answer column (default answer)")
	fs.StringVar(&f.Columns.Src, "src-column", "", "edge source column (default src)")
	fs.StringVar(&f.Columns.Dst, "dst-column", "", "edge target column (default dst)")
	fs.StringVar(&f.Columns.PTrue, "p-true-column", "", "hitting-set value column (default p_true)")
	fs.StringVar(&f.Runner, "runner", "", "local (default) or beam")
	fs.StringVar(&f.Beam.Runner, "beam-runner", "", "with -runner beam: prism (default), flink, spark, dataflow")
	fs.StringVar(&f.Beam.Endpoint, "endpoint", "", "with -runner beam: the job service host:port")
	fs.StringVar(&o.logFormat, "log-format", "text", "log lines on stderr: text or json")
	fs.StringVar(&o.logLevel, "log-level", "warn", "debug, info, warn or error")
	fs.BoolVar(&o.quiet, "quiet", false, "no human summary on stderr")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, errHelp
		}
		return nil, &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	source := "flags"
	var unknown []string
	if o.config != "" {
		var err error
		if unknown, err = pipeline.LoadConfig(o.config, &o.job); err != nil {
			return nil, err
		}
		source = o.config + " with flags"
	}
	j := &o.job
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "edges":
			j.Edges = f.Edges
		case "vertices":
			j.Vertices = f.Vertices
		case "hitting-set":
			j.HittingSet = f.HittingSet
		case "out":
			j.Out = f.Out
		case "summary":
			j.Summary = f.Summary
		case "epsilon":
			j.SetEpsilon(eps)
		case "delta":
			j.Delta = f.Delta
		case "engine":
			j.Engine = f.Engine
		case "workers":
			j.Workers = f.Workers
		case "list":
			j.List = f.List
		case "id-column":
			j.Columns.ID = f.Columns.ID
		case "answer-column":
			j.Columns.Answer = f.Columns.Answer
		case "src-column":
			j.Columns.Src = f.Columns.Src
		case "dst-column":
			j.Columns.Dst = f.Columns.Dst
		case "p-true-column":
			j.Columns.PTrue = f.Columns.PTrue
		case "runner":
			j.Runner = f.Runner
		case "beam-runner":
			j.Beam.Runner = f.Beam.Runner
		case "endpoint":
			j.Beam.Endpoint = f.Beam.Endpoint
		}
	})
	if err := j.Validate(source, unknown...); err != nil {
		return nil, err
	}
	return o, nil
}

func cmdRun(ctx context.Context, args []string, e *env) error {
	o, err := parseRun(args, e.stderr)
	if err != nil {
		return err
	}
	log, err := newLogger(e.stderr, o.logFormat, o.logLevel)
	if err != nil {
		return err
	}
	e.log = log
	if f, ok := e.stderr.(*os.File); ok && pipeline.IsTerminal(f) && !o.quiet {
		o.job.Progress = f
	}
	return runRun(ctx, o, e)
}

// runRun executes a parsed run; tests call it directly.
func runRun(ctx context.Context, o *runOptions, e *env) error {
	var (
		s   *pipeline.Summary
		err error
	)
	switch o.job.Runner {
	case "beam":
		s, err = runBeam(ctx, o.job, e)
	default:
		s, err = pipeline.Run(ctx, o.job, e.log)
	}
	if err != nil {
		return err
	}
	if !o.quiet {
		s.Human(e.stderr)
	}
	return nil
}

// runBeam is replaced when the Beam runner is built in (beam.go).
var runBeam = func(ctx context.Context, job pipeline.Job, e *env) (*pipeline.Summary, error) {
	return nil, &usageError{"-runner beam: this graphdp was built without the Beam runner"}
}
