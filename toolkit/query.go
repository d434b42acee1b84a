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
)

// QueryJob is one `graphdp query`: the optimal mechanism at a few datasets.
type QueryJob struct {
	Job     job.Job  // its hitting set is required
	IDs     []string // the datasets to answer for, as given on the command line...
	IDsFile string   // ...or the id column of this file
	Out     string   // a file to write the rows to ("": none)
}

// Answered is query's result: one row per requested dataset, in the order asked,
// and what Algorithm 2's searches touched.
type Answered struct {
	Inputs    *load.Inputs
	Checked   *pipeline.Checked
	Rows      []int32        // the requested vertices
	Mechanism *bfs.Mechanism // their values, row for row
	// Record is run's output rows for them; the caller releases it.
	Record arrow.RecordBatch
	// Touched, Scans: vertices and adjacency entries the searches touched in all;
	// Largest and Depth: the largest search's vertices and the deepest search.
	Touched, Largest int
	Scans            int64
	Depth            int32
}

// IDError is an id given on the command line that is not a dataset's (exit status 3).
type IDError struct{ msg string }

func (e *IDError) Error() string { return e.msg }

// Query checks the job's hitting set on the whole input as run does, answers for
// the requested datasets only (bfs.Query, the paper's Algorithm 2), and writes the
// rows to q.Out when given.
func Query(ctx context.Context, q QueryJob, log *slog.Logger) (*Answered, error) {
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
	a := &Answered{Inputs: x, Checked: c, Rows: rows, Mechanism: &bfs.Mechanism{
		POne: make([]float64, len(rows)), PTrue: make([]float64, len(rows)),
		Bind: make([]int32, len(rows)), Dist: make([]int32, len(rows)),
	}}
	qr, m := bfs.NewQuery(c.Instance), a.Mechanism
	for i, v := range rows {
		r, err := qr.Vertex(ctx, v)
		if err != nil {
			return nil, err
		}
		m.POne[i], m.PTrue[i], m.Bind[i], m.Dist[i] = r.POne, r.PTrue, r.Bind, r.Dist
		a.Touched += r.Vertices
		a.Scans += r.Scans
		a.Largest = max(a.Largest, r.Vertices)
		a.Depth = max(a.Depth, r.Depth)
	}
	names := job.OutputNames() // run's columns: the inputs' id and answer names
	if a.Record, err = pipeline.Record(&x.Loaded, names, nil, rows, m); err != nil {
		return nil, err
	}
	if q.Out != "" {
		if err := sink.WritePrivate(ctx, q.Out, a.Record, pipeline.Metadata(&x.Loaded, x.Pair, "query", names.Metadata())); err != nil {
			a.Record.Release()
			return nil, err
		}
	}
	return a, nil
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
