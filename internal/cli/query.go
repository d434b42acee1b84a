package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/sink"
	"github.com/graphdp/graphdp/toolkit"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/words"
)

// queryOptions are query's flags over its job.
type queryOptions struct {
	job   job.Job
	ids   []string // -id values, in order
	idsIn string   // -ids file
	out   string   // "" = CSV on stdout
	quiet bool
	json  bool
	flags *toolFlags
}

const queryAbout = `The optimal mechanism at the given datasets only, by the paper's Algorithm 2: a
breadth-first search from each that stops at the depth where no hitting-set dataset
can still lower the minimum. Same values as run (p_one, p_true, binding dataset and
distance), same columns, one row per requested id in the order asked.
Note: before answering, query still checks that the hitting set touches every boundary
edge and that its values admit a DP extension — like run, and on the whole input,
which it reads in full. Only the answers are local; stderr reports what they touched.`

func parseQuery(args []string, stdout io.Writer) (*queryOptions, error) {
	take := toolInputs{hittingSet: "hitting-set `FILE`: columns id, p_true (required)", provenance: true}
	t := newToolFlags("query", "--edges E --vertices V --hitting-set H --epsilon ε [--delta δ] (--id X [--id Y …] | --ids FILE) [--out F]", queryAbout, stdout, take)
	o := &queryOptions{flags: t}
	t.fs.Var(repeatedFunc(func(s string) error {
		o.ids = append(o.ids, s)
		return nil
	}), "id", "a dataset `ID` to answer for (repeatable)")
	t.fs.Var((*tableFlag)(&o.idsIn), "ids", "`TABLE` (.parquet or .csv file, folder or glob; repeatable) whose id column lists the datasets to answer for")
	t.fs.StringVar(&o.out, "out", "", "output `FILE`: .parquet, .arrow/.feather or .csv (default: CSV on stdout)")
	t.fs.BoolVar(&o.quiet, "quiet", false, "nothing on stderr but errors")
	t.fs.BoolVar(&o.json, "json", false, jsonUsage+": the rows (instead of CSV, unless --out) and what the searches touched")
	job, source, probs, err := t.parse(args, take)
	if err != nil {
		return nil, err
	}
	if job.HittingSet == "" {
		probs = append(probs, "hitting_set: required (a file path)")
	}
	switch {
	case len(o.ids) == 0 && o.idsIn == "":
		probs = append(probs, "id: give the datasets to answer for with --id (repeatable) or --ids FILE")
	case len(o.ids) > 0 && o.idsIn != "":
		probs = append(probs, "id: use --id or --ids, not both")
	}
	if p := sink.FormatProblem("out", o.out); o.out != "" && p != "" {
		probs = append(probs, p)
	}
	probs = append(probs, t.fileProblems(&job, files.Out("out", o.out), files.In("ids", o.idsIn))...)
	o.job = job
	return o, t.done(source, probs)
}

func cmdQuery(ctx context.Context, args []string, e *env) error {
	o, err := parseQuery(args, e.stdout)
	if err != nil {
		return err
	}
	return o.flags.start(ctx, e, func(ctx context.Context) error { return runQuery(ctx, o, e) })
}

// runQuery executes a parsed query (toolkit.Query) and prints the rows; tests call
// it directly.
func runQuery(ctx context.Context, o *queryOptions, e *env) error {
	d, err := toolkit.Query(ctx, toolkit.QueryJob{Job: o.job, IDs: o.ids, IDsFile: o.idsIn, Out: o.out}, e.log)
	if err != nil {
		return privateDetails(e.stdout, o.json, err)
	}
	defer d.Record.Release()
	if o.json {
		return writeJSON(e.stdout, d)
	}
	if o.out == "" {
		if err := sink.WriteCSVTo(ctx, e.stdout, d.Record); err != nil {
			return err
		}
	}
	if !o.quiet {
		// Shareable (docs/FORMATS.md): the searches' sizes, the hitting set's size and
		// the boundary depend on the answers; --json (private) gives them.
		fmt.Fprintf(e.stderr, "graphdp query: %s by Algorithm 2 of %s and %s\n",
			words.Count(int64(len(d.Rows)), "dataset answered", "datasets answered"), words.Count(int64(d.Vertices), "vertex", "vertices"), words.Count(d.Edges, "edge", "edges"))
		fmt.Fprintf(e.stderr, "  checked first, on the whole input: the hitting set covers every boundary edge and admits a DP extension\n")
		if d.Out != "" {
			fmt.Fprintf(e.stderr, "  wrote %s\n", d.Out)
		}
	}
	return nil
}
