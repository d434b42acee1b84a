package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
)

// releaseOptions are release's flags.
type releaseOptions struct {
	job    pipeline.ReleaseJob
	config string
	quiet  bool
	rand   io.Reader // nil: crypto/rand (tests inject a stream)
}

// idFlags collects repeated --id values.
type idFlags []string

func (f *idFlags) String() string     { return fmt.Sprint([]string(*f)) }
func (f *idFlags) Set(v string) error { *f = append(*f, v); return nil }

// mechanismColumnFlags registers the mechanism table's column flags on fs.
func mechanismColumnFlags(fs *flag.FlagSet, c *ingest.MechanismTableColumns) {
	fs.StringVar(&c.ID, "id-column", "", "id column of every table (default id)")
	fs.StringVar(&c.Answer, "answer-column", "", "answer column (default answer)")
	fs.StringVar(&c.POne, "p-one-column", "", "mechanism's Pr[M = 1] column (default p_one)")
	fs.StringVar(&c.PTrue, "p-true-column", "", "mechanism's Pr[M = answer] column, used without p_one (default p_true)")
	fs.StringVar(&c.Distance, "distance-column", "", "mechanism's binding distance column (default binding_distance)")
}

// resolveMechanismColumns applies a config file's columns, then flags, over the defaults.
func resolveMechanismColumns(job *pipeline.Job, flags ingest.MechanismTableColumns) ingest.MechanismTableColumns {
	c := ingest.DefaultMechanismTableColumns()
	jc := job.IngestColumns()
	c.ID, c.Answer, c.PTrue = jc.ID, jc.Answer, jc.PTrue
	for _, p := range []struct {
		dst *string
		src string
	}{{&c.ID, flags.ID}, {&c.Answer, flags.Answer}, {&c.POne, flags.POne}, {&c.PTrue, flags.PTrue}, {&c.Distance, flags.Distance}} {
		if p.src != "" {
			*p.dst = p.src
		}
	}
	return c
}

// parseRelease parses flags: a run's config file may give the mechanism (its out)
// and the column names; flags override it.
func parseRelease(args []string, stderr io.Writer) (*releaseOptions, error) {
	o := &releaseOptions{}
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ids idFlags
	var cols ingest.MechanismTableColumns
	fs.StringVar(&o.config, "config", "", "a run's YAML job file: its out is the mechanism, its columns apply")
	fs.StringVar(&o.job.Mechanism, "mechanism", "", "mechanism table (.parquet or .csv): id and p_one (or p_true with answer)")
	fs.StringVar(&o.job.IDsFile, "ids", "", "table of the ids to release (.parquet or .csv, an id column)")
	fs.Var(&ids, "id", "an id to release (repeatable)")
	fs.StringVar(&o.job.Out, "out", "", "output file: .parquet, .arrow/.feather or .csv (columns id, released)")
	fs.BoolVar(&o.quiet, "quiet", false, "no summary line on stderr")
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
	o.job.IDs = ids
	job, source, probs, err := loadToolConfig(o.config)
	if err != nil {
		return nil, err
	}
	if o.job.Mechanism == "" {
		o.job.Mechanism = job.Out
	}
	o.job.Columns = resolveMechanismColumns(&job, cols)
	add := func(f string, a ...any) { probs = append(probs, fmt.Sprintf(f, a...)) }
	if o.job.Mechanism == "" {
		add("mechanism: required (a file path; or a run's config whose out is the mechanism)")
	}
	switch {
	case o.job.IDsFile == "" && len(ids) == 0:
		add("ids or id: required (which datasets to release)")
	case o.job.IDsFile != "" && len(ids) > 0:
		add("ids and id: give one of them, not both")
	}
	if o.job.Out == "" {
		add("out: required (a file path)")
	} else if _, err := sink.FormatOf(o.job.Out); err != nil {
		add("out: %s: unknown format %q (use .parquet, .arrow, .feather or .csv)", o.job.Out, filepath.Ext(o.job.Out))
	}
	if len(probs) > 0 {
		return nil, &pipeline.ConfigError{Source: source, Problems: probs}
	}
	return o, nil
}

// loadToolConfig reads a run's config file for a toolkit command, which uses its
// inputs, ε, δ and columns. It returns the job, the source to name in errors, and
// the file's unknown keys as problems to report with the others. job.Epsilon is NaN
// unless the file sets it (ε has no default).
func loadToolConfig(path string) (pipeline.Job, string, []string, error) {
	job := pipeline.DefaultJob()
	job.Epsilon = math.NaN()
	if path == "" {
		return job, "flags", nil, nil
	}
	unknown, err := pipeline.LoadConfig(path, &job)
	if err != nil {
		return job, "", nil, err
	}
	return job, path + " with flags", unknown, nil
}

func cmdRelease(ctx context.Context, args []string, e *env) error {
	o, err := parseRelease(args, e.stderr)
	if err != nil {
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
		fmt.Fprintf(e.stderr, "graphdp release: %d answers drawn from %s, written to %s\n", r.Rows, o.job.Mechanism, r.Out)
	}
	return nil
}
