package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/graphdp/graphdp/pipeline"
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

// parseRelease parses flags: a run's config file may give the mechanism (its out)
// and the column names; flags override it.
func parseRelease(args []string, stderr io.Writer) (*releaseOptions, error) {
	o := &releaseOptions{}
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ids idFlags
	jf := addJobFlags(fs, "a run's YAML job file: its out is the mechanism, its columns apply",
		"mechanism", "out", "id-column", "answer-column", "p-one-column", "p-true-column", "distance-column")
	jf.setUsage("out", "output file: .parquet, .arrow/.feather or .csv (columns id, released)")
	fs.StringVar(&o.job.IDsFile, "ids", "", "table of the ids to release (.parquet or .csv, an id column)")
	fs.Var(&ids, "id", "an id to release (repeatable)")
	fs.BoolVar(&o.quiet, "quiet", false, "no summary line on stderr")
	job, source, unknown, err := jf.parse(args)
	if err != nil {
		return nil, err
	}
	// A run config's out is the mechanism; release's own output is -out only.
	job.Mechanism = jf.mechanism(job)
	if !jf.set("out") {
		job.Out = ""
	}
	probs := job.Problems([]string{"mechanism", "out"}, unknown...)
	switch {
	case o.job.IDsFile == "" && len(ids) == 0:
		probs = append(probs, "ids or id: required (which datasets to release)")
	case o.job.IDsFile != "" && len(ids) > 0:
		probs = append(probs, "ids and id: give one of them, not both")
	}
	if err := pipeline.Problems(source, probs); err != nil {
		return nil, err
	}
	o.job.Mechanism, o.job.Out, o.job.IDs, o.job.Columns = job.Mechanism, job.Out, ids, job.MechanismColumns()
	return o, nil
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
