package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
)

// reportOptions are report's flags over its job.
type reportOptions struct {
	job    pipeline.ReportJob
	config string
	json   bool
	html   string
}

// parseReport parses flags: a run's config file may give the inputs, ε, δ, the
// columns and (its out) the mechanism; flags override it.
func parseReport(args []string, stderr io.Writer) (*reportOptions, error) {
	o := &reportOptions{}
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		f        pipeline.ReportJob
		cols     ingest.MechanismTableColumns
		src, dst string
	)
	fs.StringVar(&o.config, "config", "", "a run's YAML job file: inputs, ε, δ, columns; its out is the mechanism")
	fs.StringVar(&f.Mechanism, "mechanism", "", "mechanism table (.parquet or .csv): id and p_one (or p_true with answer)")
	fs.StringVar(&f.Edges, "edges", "", "edges file: columns src, dst")
	fs.StringVar(&f.Vertices, "vertices", "", "vertices file: columns id, answer")
	fs.Float64Var(&f.Epsilon, "epsilon", 0, "ε ≥ 0 (required)")
	fs.Float64Var(&f.Delta, "delta", 0, "δ in [0, 1)")
	fs.IntVar(&f.List, "list", 10, "how many DP violations to list")
	fs.BoolVar(&o.json, "json", false, "print the report as JSON instead of text")
	fs.StringVar(&o.html, "html", "", "also write a self-contained HTML page with plots here")
	fs.StringVar(&src, "src-column", "", "edge source column (default src)")
	fs.StringVar(&dst, "dst-column", "", "edge target column (default dst)")
	mechanismColumnFlags(fs, &cols)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, errHelp
		}
		return nil, &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return nil, &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	job, source, probs, err := loadToolConfig(o.config)
	if err != nil {
		return nil, err
	}
	j := &o.job
	j.Mechanism, j.Edges, j.Vertices, j.Delta, j.List = job.Out, job.Edges, job.Vertices, job.Delta, f.List
	epsSet := !math.IsNaN(job.Epsilon) // loadToolConfig leaves NaN when the file has no epsilon
	j.Epsilon = job.Epsilon
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "mechanism":
			j.Mechanism = f.Mechanism
		case "edges":
			j.Edges = f.Edges
		case "vertices":
			j.Vertices = f.Vertices
		case "epsilon":
			j.Epsilon, epsSet = f.Epsilon, true
		case "delta":
			j.Delta = f.Delta
		case "src-column":
			job.Columns.Src = src
		case "dst-column":
			job.Columns.Dst = dst
		}
	})
	j.MechCols = resolveMechanismColumns(&job, cols)
	j.Columns = job.IngestColumns()
	j.Columns.ID, j.Columns.Answer = j.MechCols.ID, j.MechCols.Answer

	add := func(f string, a ...any) { probs = append(probs, fmt.Sprintf(f, a...)) }
	for _, p := range []struct{ name, val string }{{"mechanism", j.Mechanism}, {"edges", j.Edges}, {"vertices", j.Vertices}} {
		if p.val == "" {
			add("%s: required (a file path)", p.name)
		}
	}
	if !epsSet {
		add("epsilon: required (a number ≥ 0)")
	} else if math.IsNaN(j.Epsilon) || math.IsInf(j.Epsilon, 0) || j.Epsilon < 0 {
		add("epsilon: must be a finite number ≥ 0, got %v", j.Epsilon)
	}
	if math.IsNaN(j.Delta) || j.Delta < 0 || j.Delta >= 1 {
		add("delta: must be in [0, 1), got %v", j.Delta)
	}
	if j.List < 0 {
		add("list: must be ≥ 0, got %d", j.List)
	}
	if len(probs) > 0 {
		return nil, &pipeline.ConfigError{Source: source, Problems: probs}
	}
	return o, nil
}

func cmdReport(ctx context.Context, args []string, e *env) error {
	o, err := parseReport(args, e.stderr)
	if err != nil {
		return err
	}
	return runReport(ctx, o, e)
}

// runReport executes a parsed report; tests call it directly. The report is printed
// (and the page written) also when the DP audit fails; the status is then 3.
func runReport(ctx context.Context, o *reportOptions, e *env) error {
	r, err := pipeline.Report(ctx, o.job)
	if err != nil {
		return err
	}
	if o.json {
		err = r.JSON(e.stdout)
	} else {
		err = r.Text(e.stdout)
	}
	if err != nil {
		return err
	}
	if o.html != "" {
		if err := sink.WriteFileAtomic(o.html, r.HTML); err != nil {
			return err
		}
	}
	if !r.Audit.Passed {
		return &rejected{fmt.Sprintf("%s: the mechanism fails the (ε,δ)-DP audit: %d (edge, output) pairs break it (see the report)", o.job.Mechanism, r.Audit.Violations)}
	}
	return nil
}
