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
	a, err := toolkit.Query(ctx, toolkit.QueryJob{Job: o.job, IDs: o.ids, IDsFile: o.idsIn, Out: o.out}, e.log)
	if err != nil {
		return privateDetails(e.stdout, o.json, err)
	}
	defer a.Record.Release()
	x, c, m, rows := a.Inputs, a.Checked, a.Mechanism, a.Rows
	vs := x.Vertices
	if o.out == "" && !o.json {
		if err := sink.WriteCSVTo(ctx, e.stdout, a.Record); err != nil {
			return err
		}
	}
	if o.json {
		inH := make(map[int32]bool, len(x.Hit.Vertex))
		for _, h := range x.Hit.Vertex {
			inH[h] = true
		}
		doc := queryJSON{Rows: make([]queryRowJSON, len(rows)), Out: o.out, Vertices: vs.IDs.Len(), Edges: x.Graph.M(),
			HittingSet: len(x.Hit.Vertex), BoundaryEdges: c.BoundaryEdges,
			Search: querySearchJSON{Touched: a.Touched, AdjacencyEntries: a.Scans, Largest: a.Largest, Depth: a.Depth}}
		for i, v := range rows {
			r := queryRowJSON{ID: vs.IDs.String(int(v)), Answer: words.Bit(vs.Answer[v]), PTrue: m.PTrue[i], POne: m.POne[i], InHittingSet: inH[v]}
			if b := m.Bind[i]; b >= 0 {
				id, d := vs.IDs.String(int(b)), m.Dist[i]
				r.BindingID, r.BindingDistance = &id, &d
			}
			doc.Rows[i] = r
		}
		return writeJSON(e.stdout, doc)
	}
	if !o.quiet {
		// Shareable (docs/FORMATS.md): the searches' sizes, the hitting set's size and
		// the boundary depend on the answers; --json (private) gives them.
		fmt.Fprintf(e.stderr, "graphdp query: %s by Algorithm 2 of %s and %s\n",
			words.Count(int64(len(rows)), "dataset answered", "datasets answered"), words.Count(int64(vs.IDs.Len()), "vertex", "vertices"), words.Count(x.Graph.M(), "edge", "edges"))
		fmt.Fprintf(e.stderr, "  checked first, on the whole input: the hitting set covers every boundary edge and admits a DP extension\n")
		if o.out != "" {
			fmt.Fprintf(e.stderr, "  wrote %s\n", o.out)
		}
	}
	return nil
}

// queryJSON is query --json's document (docs/CLI.md, "JSON output").
type queryJSON struct {
	Rows          []queryRowJSON  `json:"rows"` // one per requested id, in the order asked
	Out           string          `json:"out"`  // the file also written ("" without --out)
	Vertices      int             `json:"vertices"`
	Edges         int64           `json:"edges"`
	HittingSet    int             `json:"hitting_set"`    // its size: checked on the whole input first
	BoundaryEdges int64           `json:"boundary_edges"` // all covered
	Search        querySearchJSON `json:"search"`
}

// queryRowJSON is run's output row for one dataset (ids as text).
type queryRowJSON struct {
	ID              string  `json:"id"`
	Answer          int     `json:"answer"`
	PTrue           float64 `json:"p_true"`
	POne            float64 `json:"p_one"`
	InHittingSet    bool    `json:"in_hitting_set"`
	BindingID       *string `json:"binding_id"` // null: nothing binds it
	BindingDistance *int32  `json:"binding_distance"`
}

// querySearchJSON is what Algorithm 2's searches touched, all ids together.
type querySearchJSON struct {
	Touched          int   `json:"vertices_touched"`
	AdjacencyEntries int64 `json:"adjacency_entries"`
	Largest          int   `json:"largest_search"`
	Depth            int32 `json:"depth"`
}
