package beam

import (
	"context"
	"fmt"

	"github.com/graphdp/graphdp/beam/beamopt"
	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
)

// Solve runs the driver's repair loop (p.Repair.Run, bfs.Solve's) over the cluster: a
// solve is pipelines of RoundsPerPipeline block-centric rounds until no offer is
// pending, a repair one pipeline over the shards' staged values, and the finish
// pipeline decides feasibility, audits, finds the deterministic datasets and counts
// components (finish.go). Round numbers (staging versions) continue across repairs.
// The propagate stage is those pipelines; the audit stage names the first
// violation's ends, if any, and sums the mechanism's Stats from the shards' output
// blocks, in position order.
func (b *backend) Solve(ctx context.Context, st pipeline.Stages, p pipeline.Policy) (*pipeline.Solved, error) {
	sol, err := b.solve(st.Begin(ctx, pipeline.StagePropagate), p)
	if err != nil || sol.Infeasible > 0 {
		return sol, err
	}
	a, err := b.audit(st.Begin(ctx, pipeline.StageAudit))
	if err != nil {
		return nil, err
	}
	sol.Mechanism = a
	return sol, nil
}

// solve is the repair loop's pipelines; the conflicts of an infeasible solve are
// named by their ids.
func (b *backend) solve(ctx context.Context, p pipeline.Policy) (*pipeline.Solved, error) {
	if p.Audit != nil {
		b.c.Audit, b.c.AuditEpsilon, b.c.AuditDelta = true, p.Audit.Epsilon, p.Audit.Delta
	}
	c, l := b.c, b.l
	per := b.opts.RoundsPerPipeline
	switch {
	case per > 0:
	case l.Shards() == 1:
		// One shard settles to the fixed point in its first round and sends no
		// offers (it has no cut): the rounds after it would be empty stages.
		per = 1
	default:
		per = DefaultRoundsPerPipeline
	}
	b.rs = &beamopt.Report{Shards: l.Shards(), ShardSize: int(c.ShardSize), Buckets: c.Buckets, RoundsPerPipeline: per}
	if _, err := p.Repair.Run(ctx, &cluster{b: b, per: per}); err != nil {
		return nil, err
	}
	fd := b.fd
	// The rounds and the finish are over: in this process (Prism) the worker cache's
	// blocks, cuts and candidates are garbage (the output is assembled from staging).
	dropCache(c.Staging)
	b.returnMemory()
	sol := &pipeline.Solved{Components: fd.Components, Repaired: int(fd.Moved), Report: b.rs, Infeasible: fd.Infeasible}
	if fd.Infeasible > 0 {
		var err error
		if sol.Conflicts, err = conflicts(ctx, c, fd); err != nil {
			return nil, err
		}
	}
	return sol, nil
}

// cluster is the repair loop's bfs.Solver on the cluster. It holds no decision:
// which solve, which pass to repair and what is kept are bfs.Repair.Run's.
type cluster struct {
	b      *backend
	per    int // rounds per pipeline
	round  int // the last round run
	first  int // the last round of the first solve
	solves int
}

// Solve runs rounds pipelines to the fixed point and sums the shards' excess
// (excessOf, bfs.Excess.Add per shard).
func (s *cluster) Solve(ctx context.Context) (bfs.Excess, error) {
	round, x, err := s.b.rounds(ctx, s.round, s.per)
	if err != nil {
		return bfs.Excess{}, err
	}
	if s.solves == 0 {
		s.first = round
	}
	s.round = round
	s.solves++
	return x.Excess, nil
}

// Repair is one pipeline moving every shard's values of the colour onto their bounds
// (repairFn) as the next round's.
func (s *cluster) Repair(ctx context.Context, one bool) error {
	colour := 0
	if one {
		colour = 1
	}
	if err := s.b.exec(ctx, repairPipeline(s.b.c, s.b.pending(s.round), colour, s.round+1)); err != nil {
		return fmt.Errorf("beam: repair: %w", err) // no count: how many repairs depends on the answers
	}
	s.b.rs.Pipelines++
	s.round++
	// Not logged: repairs happen, and how many values move, by the hitting set's
	// values and answers; the summary (private) counts them (docs/FORMATS.md).
	return nil
}

// Finish runs the finish pipeline on the candidates of the solve v names.
func (s *cluster) Finish(ctx context.Context, v bfs.Verdict) (float64, error) {
	round := s.round
	if v.First {
		round = s.first
	}
	fd, err := s.b.finish(ctx, s.b.pending(round), round, v.Check, v.Tol)
	if err != nil {
		return 0, err
	}
	s.b.fd = fd
	return fd.MaxMove, nil
}

// pending names the shards' pending files of round.
func (b *backend) pending(round int) []string {
	files := make([]string, b.l.Shards())
	for sh := range files {
		files[sh] = pendingFile(b.c.Staging, round, sh)
	}
	return files
}

// rounds runs rounds pipelines from round until no offer is pending (the fixed
// point: doc.go invariant 4), and returns the last round and its report.
func (b *backend) rounds(ctx context.Context, round, per int) (int, roundsReport, error) {
	rs := b.rs
	for {
		if err := b.exec(ctx, roundsPipeline(b.c, b.pending(round), round, per)); err != nil {
			return 0, roundsReport{}, fmt.Errorf("beam: rounds: %w", err) // no round numbers: their count depends on the answers
		}
		rs.Pipelines++
		x, err := gatherReport(ctx, b.c.Staging, round+per, b.l)
		if err != nil {
			return 0, x, err
		}
		for k, r := range x.Rounds {
			r.Round = round + 1 + k
			if r.Shards > 0 {
				rs.Rounds++
				rs.Offers += r.Offers
				rs.OfferBytes += r.Bytes
				rs.Written += r.Written
				rs.CutArcs += r.CutArcs
				rs.PerRound = append(rs.PerRound, r)
			}
		}
		round += per
		// Not logged: the rounds and the offers pending depend on the hitting set, so
		// on the answers; the summary's beam report (private) has them.
		if x.Pending == 0 {
			return round, x, nil
		}
	}
}

// finish runs the finish pipeline on the candidates pending and gathers its findings.
func (b *backend) finish(ctx context.Context, pending []string, round int, check bool, tol float64) (*finished, error) {
	if err := b.exec(ctx, finishPipeline(b.c, pending, round, check, tol)); err != nil {
		return nil, fmt.Errorf("beam: finish: %w", err)
	}
	b.rs.Pipelines++
	return gatherFinish(ctx, b.c, b.l)
}

// audit is what the finish found: check.Verify's audit merged over the shards, the
// deterministic datasets (check.FindDeterministic per shard, joined along the cut:
// components.go); the first violation's ends named by id, or the mechanism's Stats.
func (b *backend) audit(ctx context.Context) (*pipeline.Audited, error) {
	fd := b.fd
	a := &pipeline.Audited{Audit: fd.Audit, Deterministic: fd.Deterministic}
	if fd.Audit.Violations > 0 && len(fd.Audit.First) > 0 {
		w := fd.Audit.First[0]
		id, _, err := idsAt(ctx, b.c, []int32{w.U, w.V})
		if err != nil {
			return nil, err
		}
		a.FirstIDs = [2]string{id[w.U], id[w.V]}
		return a, nil
	}
	if err := sumStats(ctx, b.c, b.l, &a.Stats); err != nil {
		return nil, err
	}
	return a, nil
}

// Write stages job.Out in out from the shards' output blocks (assemble).
func (b *backend) Write(ctx context.Context, st pipeline.Stages, out *sink.Outputs, path string, names sink.Names, meta map[string]string) (int64, error) {
	if err := assemble(st.Begin(ctx, pipeline.StageWrite), b.c, b.pl, b.l, b.fd, out, path, names, meta); err != nil {
		return 0, err
	}
	return int64(b.c.N), nil
}
