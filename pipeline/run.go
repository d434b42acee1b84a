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

// checkHitting rejects a set that misses boundary edges, and returns the boundary
// edges.
func checkHitting(ctx context.Context, job job.Job, l *load.Loaded, in *bfs.Instance) (int64, error) {
	hc, err := check.Hitting(ctx, in.G, in.Answer, in.Hit, job.List)
	if err != nil {
		return 0, err
	}
	if hc.Uncovered > 0 {
		return 0, notHittingSetError(l.Hit.File)
	}
	return hc.Boundary, nil
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
