package pipeline

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
)

// Inputs is what the toolkit commands (verify, query, hitting-set) read: the graph
// always; the hitting set and a mechanism table when the job names them.
type Inputs struct {
	Loaded                      // Hit is nil when job.HittingSet is empty
	Mechanism *ingest.Mechanism // nil when job.Mechanism is empty
	Graph     *graph.Graph      // the CSR graph of Edges (whose rows are then dropped)
	Build     graph.BuildStats
	Pair      dp.Pair
}

// LoadInputs reads vertices first (they define the ids), then edges, the hitting set
// and the mechanism concurrently, and builds the graph.
func LoadInputs(ctx context.Context, job *Job) (*Inputs, error) {
	pair, err := dp.New(job.Epsilon, job.Delta)
	if err != nil {
		return nil, &ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	cols := job.IngestColumns()
	vs, err := ingest.ReadVertices(ctx, job.Vertices, cols)
	if err != nil {
		return nil, err
	}
	x := &Inputs{Loaded: Loaded{Vertices: vs}, Pair: pair}
	grp, gctx := errgroup.WithContext(ctx)
	grp.Go(func() (err error) {
		x.Edges, err = ingest.ReadEdges(gctx, job.Edges, cols, vs)
		return err
	})
	if job.HittingSet != "" {
		grp.Go(func() (err error) {
			x.Hit, err = ingest.ReadHittingSet(gctx, job.HittingSet, cols, vs)
			return err
		})
	}
	if job.Mechanism != "" {
		grp.Go(func() (err error) {
			x.Mechanism, err = ingest.ReadMechanism(gctx, job.Mechanism, cols, vs)
			return err
		})
	}
	if err := grp.Wait(); err != nil {
		return nil, err
	}
	x.Graph, x.Build = graph.Build(vs.IDs.Len(), x.Edges.Src, x.Edges.Dst)
	x.Edges.Src, x.Edges.Dst = nil, nil
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
	if err := checkHitting(&s, job, &x.Loaded, in); err != nil {
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
