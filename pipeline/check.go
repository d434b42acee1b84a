package pipeline

import (
	"context"
	"fmt"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
)

// Checked is a hitting set that passed run's checks, with the optimal mechanism.
type Checked struct {
	Instance      *bfs.Instance
	Solution      *bfs.Solution
	BoundaryEdges int64
}

// Check applies run's checks to the hitting set — it touches every boundary edge, and
// its values admit a DP extension — and solves (propagation engine). A failed check
// is a *RejectError with run's message.
func Check(ctx context.Context, job job.Job, x *load.Inputs) (*Checked, error) {
	if x.Hit == nil {
		return nil, fmt.Errorf("pipeline: Check without a hitting set")
	}
	in, err := bfs.NewInstance(x.Graph, x.Vertices.Answer, x.Hit.Vertex, x.Hit.PTrue, x.Pair)
	if err != nil {
		return nil, err
	}
	boundary, err := checkHitting(ctx, job, &x.Loaded, in)
	if err != nil {
		return nil, err
	}
	sol, err := bfs.Solve(ctx, in, bfs.Propagate{}, job.List)
	if err != nil {
		return nil, err
	}
	if sol.Infeasible > 0 {
		return nil, infeasible(x.Pair, &x.Loaded, sol)
	}
	return &Checked{Instance: sol.Instance, Solution: sol, BoundaryEdges: boundary}, nil
}
