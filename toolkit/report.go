package toolkit

import (
	"context"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/report"

	"github.com/graphdp/graphdp/internal/version"
)

func reportFile(path string, d job.Digest) report.File {
	return report.File{Path: path, SHA256: d.SHA256, HMACSHA256: d.HMACSHA256}
}

// Report reads the job's vertices, then its edges and its mechanism (job.Mechanism,
// a table with the columns cols) concurrently through the shared loader, checks
// that the mechanism gives exactly the vertices (and their answers, where it has
// them), and computes the report. A failed DP audit is part of the report, not an
// error: the caller decides.
func Report(ctx context.Context, job job.Job, cols ingest.MechanismTableColumns) (*report.Report, error) {
	pair, err := job.Pair(ctx)
	if err != nil {
		return nil, err
	}
	l, err := load.Load(ctx, &job, load.Request{Table: &cols})
	if err != nil {
		return nil, err
	}
	vs, m := l.Vertices, l.Table
	rowOf, err := m.Align(vs)
	if err != nil {
		l.Close()
		return nil, err
	}
	g, _, err := l.BuildGraph(ctx, job.Workers)
	if err != nil {
		return nil, err
	}
	in := report.Input{
		Graph: g, Answer: vs.Answer, Pair: pair, List: job.List,
		ID:      func(v int32) string { return vs.IDs.String(int(v)) },
		Version: version.Version,
		Inputs: report.Inputs{
			Mechanism: reportFile(m.File, l.Provenance.Private(m.Fingerprint)),
			Vertices:  reportFile(vs.File, l.Provenance.Private(vs.Fingerprint)),
			Edges:     reportFile(l.Edges.File, l.Provenance.Public(l.Edges.Fingerprint)),
		},
	}
	in.POne, in.Exact, in.Distance, in.Binding, in.InHit = alignTable(m, rowOf)
	return report.Compute(ctx, in)
}

// alignTable puts the table's columns in vertex order (rowOf: vertex → table row).
// The binding vertex is read from the file, not solved again: the report explains
// the mechanism it is given (which may come from optimize, Beam or elsewhere), and
// it has no hitting-set input to solve from.
func alignTable(m *ingest.MechanismTable, rowOf []int32) (pone, exact []float64, dist, bind []int32, inHit []bool) {
	n := len(rowOf)
	pone, exact = make([]float64, n), make([]float64, n)
	if m.Distance != nil {
		dist = make([]int32, n)
	}
	if m.InHit != nil {
		inHit = make([]bool, n)
	}
	var posOf []int32 // table row -> vertex position
	if m.Binding != nil {
		bind, posOf = make([]int32, n), make([]int32, n)
		for v, r := range rowOf {
			posOf[r] = int32(v)
		}
	}
	for v, r := range rowOf {
		pone[v], exact[v] = m.POne[r], m.Exact[r]
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
	return pone, exact, dist, bind, inHit
}
