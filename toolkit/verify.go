package toolkit

import (
	"context"
	"log/slog"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/pipeline"
)

// Verified is what verify found: the exact audit of every DP inequality and, with a
// hitting set, how the mechanism compares with it and with the optimal extension.
type Verified struct {
	Job     pipeline.Job // the job with the mechanism's ε and δ (its metadata, or as given)
	Privacy pipeline.Privacy
	Inputs  *pipeline.Inputs
	Audit   check.Audit
	Checked *pipeline.Checked // nil without a hitting set
	Optimal check.Optimality  // with a hitting set: check.CompareOptimal
}

// Verify audits job.Mechanism on the job's graph at tolerance, and, when the job
// names a hitting set, checks it as run does and compares the mechanism with it
// and with the optimum. A hitting set that fails run's checks returns the audit
// with the error.
func Verify(ctx context.Context, job pipeline.Job, tolerance float64, log *slog.Logger) (*Verified, error) {
	priv, err := job.MechanismPrivacy(ctx)
	if err != nil {
		return nil, err
	}
	log.Info("reading inputs", "stage", "read", "vertices", job.Vertices, "edges", job.Edges, "mechanism", job.Mechanism, "hitting_set", job.HittingSet)
	req := pipeline.Request{Mechanism: true, HittingSet: job.HittingSet != "", Engine: "propagate"}
	x, err := pipeline.LoadInputs(ctx, &job, req)
	if err != nil {
		return nil, err
	}
	v := &Verified{Job: job, Privacy: priv, Inputs: x}
	if v.Audit, err = check.Verify(ctx, x.Graph, x.Mechanism.POne, x.Pair, tolerance, job.List); err != nil {
		return nil, err
	}
	if x.Hit == nil {
		return v, nil
	}
	c, err := pipeline.Check(ctx, job, x)
	if err != nil {
		return v, err
	}
	v.Checked = c
	v.Optimal = check.CompareOptimal(x.Vertices.Answer, x.Mechanism.POne, x.Hit.Vertex, x.Hit.PTrue, c.Solution.PTrue, bfs.Tolerance, job.List)
	return v, nil
}
