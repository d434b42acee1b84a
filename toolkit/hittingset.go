package toolkit

import (
	"context"
	"errors"
	"fmt"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/cover"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
)

// HittingSetJob is one `graphdp hitting-set`: build the hitting set run starts from.
type HittingSetJob struct {
	Job         job.Job
	Out         string
	AllBoundary bool // every boundary vertex, not a minimum cover
	// The values: Uniform (p_true = α everywhere), else ByAnswer (α₀, α₁ by answer),
	// else the balanced α of the job's (ε, δ).
	Uniform  *float64
	ByAnswer *[2]float64
}

// HittingSetDoc is hitting-set's result document: the set written and how it was
// found; what --json prints (docs/CLI.md, "JSON output").
type HittingSetDoc struct {
	Out              string  `json:"out"`
	Vertices         int     `json:"vertices"`
	BoundaryEdges    int64   `json:"boundary_edges"`
	BoundaryVertices int     `json:"boundary_vertices"`
	Matching         int     `json:"maximum_matching"`
	MinimumCover     int     `json:"minimum_cover"` // = maximum_matching (König)
	Written          int     `json:"written"`       // rows of out
	Kind             string  `json:"kind"`          // a minimum boundary-hitting set, or every boundary vertex
	Policy           string  `json:"policy"`
	MeanPTrue        float64 `json:"mean_p_true"` // of the optimal mechanism run will compute on it
}

// HittingSet builds the set, checks it as run will (it covers every boundary edge,
// by construction, and its values admit a DP extension), writes it to h.Out, and
// returns its result document.
func HittingSet(ctx context.Context, h HittingSetJob) (*HittingSetDoc, error) {
	job := h.Job
	x, err := load.LoadInputs(ctx, &job, load.Request{Engine: "propagate"})
	if err != nil {
		return nil, err
	}
	vs := x.Vertices
	bc, err := cover.Boundary(ctx, x.Graph, vs.Answer)
	if err != nil {
		return nil, err
	}
	b := &HittingSetDoc{Out: h.Out, Vertices: vs.IDs.Len(), BoundaryEdges: bc.BoundaryEdges, BoundaryVertices: bc.Boundary,
		Matching: bc.Matching, MinimumCover: len(bc.Vertices), Kind: "a minimum boundary-hitting set"}
	set := bc.Vertices
	if h.AllBoundary {
		set, b.Kind = cover.BoundaryVertices(x.Graph, vs.Answer), "every boundary vertex"
	}
	b.Written = len(set)
	policy := cover.Balanced(x.Pair)
	switch {
	case h.Uniform != nil:
		policy = cover.Uniform(*h.Uniform)
	case h.ByAnswer != nil:
		policy = cover.ByAnswer(h.ByAnswer[0], h.ByAnswer[1])
	}
	b.Policy = policy.Name
	ptrue := policy.Values(set, vs.Answer)

	x.Hit = &ingest.HittingSet{File: h.Out, Vertex: set, PTrue: ptrue}
	c, err := pipeline.Check(ctx, job, x)
	if err != nil {
		var re *pipeline.RejectError
		if errors.As(err, &re) && re.Kind == "infeasible" {
			re.Head = fmt.Sprintf("%s with %s is not feasible: %s", b.Kind, policy.Name, re.Head)
		}
		return nil, err
	}
	rec, err := pipeline.BuildHittingSet(nil, vs, job.OutputNames(), set, ptrue)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	meta := pipeline.Metadata(&x.Loaded, x.Pair, "", map[string]string{"graphdp.hitting_set": b.Kind, "graphdp.policy": policy.Name})
	if err := sink.WritePrivate(ctx, h.Out, rec, meta); err != nil {
		return nil, err
	}
	b.MeanPTrue = check.StatsOf(vs.Answer, c.Solution.POne, c.Solution.PTrue).Mean()
	return b, nil
}
