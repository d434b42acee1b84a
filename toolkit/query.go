package toolkit

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/words"
)

// QueryJob is one `graphdp query`: the optimal mechanism at a few datasets.
type QueryJob struct {
	Job     job.Job  // its hitting set is required
	IDs     []string // the datasets to answer for, as given on the command line...
	IDsFile string   // ...or the id column of this file
	Out     string   // a file to write the rows to ("": none)
}

// QueryDoc is query's result document: one row per requested dataset, in the order
// asked, and what Algorithm 2's searches touched; what --json prints (docs/CLI.md,
// "JSON output").
type QueryDoc struct {
	Rows          []QueryRowDoc  `json:"rows"` // one per requested id, in the order asked
	Out           string         `json:"out"`  // the file also written ("" without --out)
	Vertices      int            `json:"vertices"`
	Edges         int64          `json:"edges"`
	HittingSet    int            `json:"hitting_set"`    // its size: checked on the whole input first
	BoundaryEdges int64          `json:"boundary_edges"` // all covered
	Search        QuerySearchDoc `json:"search"`

	// Record is the same rows as run writes them (its columns: the inputs' id and
	// answer names), which the text prints as CSV; the caller releases it.
	Record arrow.RecordBatch `json:"-"`
}

// QueryRowDoc is run's output row for one dataset (ids as text).
type QueryRowDoc struct {
	ID              string  `json:"id"`
	Answer          int     `json:"answer"`
	PTrue           float64 `json:"p_true"`
	POne            float64 `json:"p_one"`
	InHittingSet    bool    `json:"in_hitting_set"`
	BindingID       *string `json:"binding_id"` // null: nothing binds it
	BindingDistance *int32  `json:"binding_distance"`
}

// QuerySearchDoc is what Algorithm 2's searches touched, all ids together: the
// vertices and adjacency entries touched in all, the largest search's vertices and
// the deepest search.
type QuerySearchDoc struct {
	Touched          int   `json:"vertices_touched"`
	AdjacencyEntries int64 `json:"adjacency_entries"`
	Largest          int   `json:"largest_search"`
	Depth            int32 `json:"depth"`
}

// IDError is an id given on the command line that is not a dataset's (exit status 3).
type IDError struct{ msg string }

func (e *IDError) Error() string { return e.msg }

// Query checks the job's hitting set on the whole input as run does, answers for
// the requested datasets only (bfs.Query, the paper's Algorithm 2), writes the
// rows to q.Out when given, and returns its result document.
func Query(ctx context.Context, q QueryJob, log *slog.Logger) (*QueryDoc, error) {
	job := q.Job
	x, err := load.LoadInputs(ctx, &job, load.Request{HittingSet: true, Engine: "propagate"})
	if err != nil {
		return nil, err
	}
	rows, err := queryRows(ctx, q, x.Vertices)
	if err != nil {
		return nil, err
	}
	c, err := pipeline.Check(ctx, job, x)
	if err != nil {
		return nil, err
	}
	log.Info("checked", "stage", "check") // shareable: no boundary count
	m := &bfs.Mechanism{POne: make([]float64, len(rows)), PTrue: make([]float64, len(rows)),
		Bind: make([]int32, len(rows)), Dist: make([]int32, len(rows))}
	vs := x.Vertices
	d := &QueryDoc{Rows: make([]QueryRowDoc, len(rows)), Out: q.Out, Vertices: vs.IDs.Len(), Edges: x.Graph.M(),
		HittingSet: len(x.Hit.Vertex), BoundaryEdges: c.BoundaryEdges}
	qr, s := bfs.NewQuery(c.Instance), &d.Search
	for i, v := range rows {
		r, err := qr.Vertex(ctx, v)
		if err != nil {
			return nil, err
		}
		m.POne[i], m.PTrue[i], m.Bind[i], m.Dist[i] = r.POne, r.PTrue, r.Bind, r.Dist
		s.Touched += r.Vertices
		s.AdjacencyEntries += r.Scans
		s.Largest = max(s.Largest, r.Vertices)
		s.Depth = max(s.Depth, r.Depth)
	}
	inH := make(map[int32]bool, len(x.Hit.Vertex))
	for _, h := range x.Hit.Vertex {
		inH[h] = true
	}
	for i, v := range rows {
		r := QueryRowDoc{ID: vs.IDs.String(int(v)), Answer: words.Bit(vs.Answer[v]), PTrue: m.PTrue[i], POne: m.POne[i], InHittingSet: inH[v]}
		if b := m.Bind[i]; b >= 0 {
			id, dist := vs.IDs.String(int(b)), m.Dist[i]
			r.BindingID, r.BindingDistance = &id, &dist
		}
		d.Rows[i] = r
	}
	names := job.OutputNames() // run's columns: the inputs' id and answer names
	if d.Record, err = pipeline.Record(&x.Loaded, names, nil, rows, m); err != nil {
		return nil, err
	}
	if q.Out != "" {
		if err := sink.WritePrivate(ctx, q.Out, d.Record, pipeline.Metadata(&x.Loaded, x.Pair, "query", names.Metadata())); err != nil {
			d.Record.Release()
			return nil, err
		}
	}
	return d, nil
}

// queryRows are the vertices q asks for, in its order.
func queryRows(ctx context.Context, q QueryJob, vs *ingest.Vertices) ([]int32, error) {
	if q.IDsFile != "" {
		l, err := ingest.ReadIDList(ctx, q.IDsFile, q.Job.IngestColumns(), vs)
		if err != nil {
			return nil, err
		}
		return l.Vertex, nil
	}
	var rows []int32
	for _, s := range q.IDs {
		v, err := lookupID(vs, s)
		if err != nil {
			return nil, err
		}
		rows = append(rows, v)
	}
	return rows, nil
}

// lookupID finds the vertex a command-line id names, in the vertices' id type.
func lookupID(vs *ingest.Vertices, s string) (int32, error) {
	if vs.IDs.Int != nil {
		id, ok := ingest.ParseID(s)
		if !ok {
			return 0, &IDError{fmt.Sprintf("--id %q: not an integer id (the ids in %s are integers, written in canonical decimal: no +, no leading zeros)", s, vs.File)}
		}
		if v, ok := vs.Index.LookupInt(id); ok {
			return v, nil
		}
	} else if v, ok := vs.Index.LookupString(s); ok {
		return v, nil
	}
	return 0, &IDError{fmt.Sprintf("--id %q: no such id in %s", s, vs.File)}
}
