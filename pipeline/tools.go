package pipeline

import (
	"context"
	"fmt"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// Inputs is what the toolkit commands (verify, query, hitting-set) read: the job's
// inputs (Load) and the graph built from its edges.
type Inputs struct {
	Loaded
	Graph *graph.Graph // the CSR graph of the edges file
	Build graph.BuildStats
	Pair  dp.Pair
}

// LoadInputs reads what req asks of the job's inputs (Load) and builds the graph.
func LoadInputs(ctx context.Context, job *Job, req Request) (*Inputs, error) {
	pair, err := dp.New(job.Epsilon, job.Delta)
	if err != nil {
		return nil, &ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	l, err := Load(ctx, job, req)
	if err != nil {
		return nil, err
	}
	x := &Inputs{Loaded: *l, Pair: pair}
	if x.Graph, x.Build, err = x.Loaded.BuildGraph(ctx, job.Workers); err != nil {
		return nil, err
	}
	return x, nil
}

// Checked is a hitting set that passed run's checks, with the optimal mechanism.
type Checked struct {
	Instance      *bfs.Instance
	Solution      *bfs.Solution
	BoundaryEdges int64
}

// Check applies run's checks to the hitting set — it touches every boundary edge, and
// its values admit a DP extension — and solves (propagation engine). A failed check
// is a *RejectError with run's message.
func Check(ctx context.Context, job Job, x *Inputs) (*Checked, error) {
	if x.Hit == nil {
		return nil, fmt.Errorf("pipeline: Check without a hitting set")
	}
	in, err := bfs.NewInstance(x.Graph, x.Vertices.Answer, x.Hit.Vertex, x.Hit.PTrue, x.Pair)
	if err != nil {
		return nil, err
	}
	var s Summary
	if err := checkHitting(ctx, &s, job, &x.Loaded, in); err != nil {
		return nil, err
	}
	sol, err := bfs.Solve(ctx, in, bfs.Propagate{}, job.List)
	if err != nil {
		return nil, err
	}
	if sol.Infeasible > 0 {
		return nil, infeasible(job, &x.Loaded, sol)
	}
	return &Checked{Instance: sol.Instance, Solution: sol, BoundaryEdges: s.BoundaryEdges}, nil
}
