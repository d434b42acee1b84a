package pipeline

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/report"
)

// ReportJob is one `graphdp report`: explain a mechanism on its graph.
type ReportJob struct {
	Mechanism string
	Vertices  string
	Edges     string
	Epsilon   float64
	Delta     float64
	Pair      *dp.Pair                     // another framework's pair (Epsilon and Delta are then unused), or nil
	Columns   ingest.Columns               // vertices and edges
	MechCols  ingest.MechanismTableColumns // the mechanism table
	List      int                          // audit violations to list
	// Provenance digests the inputs the report names (provenance.go).
	Provenance Provenance
}

func reportFile(path string, d Digest) report.File {
	return report.File{Path: path, SHA256: d.SHA256, HMACSHA256: d.HMACSHA256}
}

// Report reads the vertices, then the edges and the mechanism concurrently, checks
// that the mechanism gives exactly the vertices (and their answers, where it has
// them), and computes the report. A failed DP audit is part of the report, not an
// error: the caller decides.
func Report(ctx context.Context, job ReportJob) (*report.Report, error) {
	pair, err := dp.New(job.Epsilon, job.Delta)
	if job.Pair != nil {
		pair, err = *job.Pair, nil
	}
	if err != nil {
		return nil, &ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	vs, err := ingest.ReadVertices(ctx, job.Vertices, job.Columns)
	if err != nil {
		return nil, err
	}
	var (
		es *ingest.Edges
		m  *ingest.MechanismTable
	)
	grp, gctx := errgroup.WithContext(ctx)
	grp.Go(func() (err error) {
		es, err = ingest.ReadEdges(gctx, job.Edges, job.Columns, vs)
		return err
	})
	grp.Go(func() (err error) {
		m, err = ingest.ReadMechanismTable(gctx, job.Mechanism, job.MechCols)
		return err
	})
	if err := grp.Wait(); err != nil {
		return nil, err
	}
	rowOf, err := m.Align(vs)
	if err != nil {
		return nil, err
	}
	n := vs.IDs.Len()
	pone := make([]float64, n)
	var dist, bind []int32
	var inHit []bool
	if m.Distance != nil {
		dist = make([]int32, n)
	}
	if m.InHit != nil {
		inHit = make([]bool, n)
	}
	// The binding vertex is read from the file, not solved again: the report explains
	// the mechanism it is given (which may come from optimize, Beam or elsewhere), and
	// it has no hitting-set input to solve from.
	var posOf []int32 // table row -> vertex position
	if m.Binding != nil {
		bind, posOf = make([]int32, n), make([]int32, n)
		for v, r := range rowOf {
			posOf[r] = int32(v)
		}
	}
	for v, r := range rowOf {
		pone[v] = m.POne[r]
		if dist != nil {
			dist[v] = m.Distance[r]
		}
		if inHit != nil {
			inHit[v] = m.InHit[r]
		}
		if bind != nil {
			bind[v] = -1
			if b := m.Binding[r]; b >= 0 {
				bind[v] = posOf[b]
			}
		}
	}
	g, _ := graph.Build(n, es.Src, es.Dst)
	return report.Compute(report.Input{
		Graph: g, Answer: vs.Answer, POne: pone, Distance: dist, Binding: bind, InHit: inHit, Pair: pair, List: job.List,
		ID:      func(v int32) string { return vs.IDs.String(int(v)) },
		Version: Version,
		Inputs: report.Inputs{
			Mechanism: reportFile(m.File, job.Provenance.Private(m.Fingerprint)),
			Vertices:  reportFile(vs.File, job.Provenance.Private(vs.Fingerprint)),
			Edges:     reportFile(es.File, job.Provenance.Public(es.Fingerprint)),
		},
	}), nil
}
