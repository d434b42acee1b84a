package load

import (
	"context"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/job"
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
func LoadInputs(ctx context.Context, job *job.Job, req Request) (*Inputs, error) {
	pair, err := job.Pair(ctx)
	if err != nil {
		return nil, err
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
