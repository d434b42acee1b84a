package pipeline

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/sink"
)

// engineOf returns the engine a job names.
func engineOf(job *job.Job) (bfs.Engine, error) {
	switch job.Engine {
	case "propagate":
		return bfs.Propagate{}, nil
	case "per-source":
		return bfs.PerSource{Workers: job.Workers}, nil
	case "rounds":
		return bfs.Rounds{Workers: job.Workers, Relabel: job.Relabel}, nil
	}
	return nil, fmt.Errorf("unknown engine %q", job.Engine)
}

// stageRun is Run up to the publication: it stages the mechanism (job.Out) and,
// when job.Summary is set, the summary in out, for the caller (optimize) to commit.
func stageRun(ctx context.Context, job job.Job, log *slog.Logger, out *sink.Outputs) (*Summary, error) {
	b, err := Local(job)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	d := &driver{job: job, b: b, log: log, p: Policy{Repair: bfs.DefaultRepair}}
	return d.stages(ctx, out)
}

// hitting is check.Hitting on in, the first uncovered edges named by their ids.
func hitting(ctx context.Context, l *load.Loaded, in *bfs.Instance, list int) (*Hitting, error) {
	hc, err := check.Hitting(ctx, in.G, in.Answer, in.Hit, list)
	if err != nil {
		return nil, err
	}
	h := &Hitting{Boundary: hc.Boundary, Uncovered: hc.Uncovered, Components: -1}
	ids := l.Vertices.IDs
	for _, x := range hc.First {
		h.First = append(h.First, Uncovered{ids.String(int(x.U)), ids.String(int(x.V))})
	}
	return h, nil
}

// checkHitting rejects a set that misses boundary edges.
func checkHitting(ctx context.Context, s *Summary, job job.Job, l *load.Loaded, in *bfs.Instance) error {
	h, err := hitting(ctx, l, in, job.List)
	if err != nil {
		return err
	}
	s.BoundaryEdges, s.Uncovered = h.Boundary, h.Uncovered
	if h.Uncovered == 0 {
		return nil
	}
	return notHittingSetError(l.Hit.File)
}

// conflicts names the conflicting hitting-set values of sol by their ids.
func conflicts(l *load.Loaded, sol *bfs.Solution) []Conflict {
	ids, ans := l.Vertices.IDs, l.Vertices.Answer
	var first []Conflict
	for _, v := range sol.Violations {
		first = append(first, Conflict{Output: v.Output, H: ids.String(int(v.H)), By: ids.String(int(v.By)), AnsH: ans[v.H], AnsBy: ans[v.By],
			Dist: v.Dist, Given: v.Given, ByValue: v.ByValue, Bound: v.Bound})
	}
	return first
}

// infeasible explains which hitting-set values conflict (the paper's feasibility
// lemma, docs/DESIGN.md §3.3).
func infeasible(pair dp.Pair, l *load.Loaded, sol *bfs.Solution) error {
	return infeasiblePair(l.Hit.File, pair, conflicts(l, sol))
}
