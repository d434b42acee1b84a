package pipeline

import (
	"context"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/progress"
)

// local is the in-memory backend: the inputs read by load.Load, the CSR graph, the
// engine (bfs.Solve), and the checks (check.Hitting, check.Verify).
type local struct {
	job        job.Job
	eng        bfs.Engine
	l          *load.Loaded
	g          *graph.Graph
	in         *bfs.Instance
	sol        *bfs.Solution
	components int // of g, counted by Build
}

// Local is the backend of a run on this machine. Workers goes down to the engine and
// the CSR build; nothing here sets process-wide state (GOMAXPROCS), which a library
// must leave to its program.
func Local(job job.Job) (Backend, error) {
	eng, err := engineOf(&job)
	if err != nil {
		return nil, err
	}
	return &local{job: job, eng: eng}, nil
}

func (b *local) Names() (string, string) { return "local", b.eng.Name() }

// Build is load.Load, the CSR build of the blocks its pass filled, and
// check.Hitting beside the count of components.
func (b *local) Build(ctx context.Context, st Stages) (*Built, error) {
	l, err := load.Load(st.Count(ctx, StageRead), &b.job, load.Request{HittingSet: true, Engine: b.job.Engine})
	if err != nil {
		return nil, err
	}
	b.l = l
	// The id index (4 bytes a vertex with dense int ids, 12 with sparse ones) served
	// the inputs' references, all read now; the run writes ids from IDs. Dropped
	// before the build's peak.
	l.Vertices.Index = nil
	mm := l.Memory
	built := &Built{
		Vertices:   InputFile{l.Vertices.File, l.Vertices.Fingerprint, int64(l.Vertices.IDs.Len())},
		Edges:      InputFile{l.Edges.File, l.Edges.Fingerprint, l.Edges.Rows},
		HittingSet: InputFile{l.Hit.File, l.Hit.Fingerprint, int64(len(l.Hit.Vertex))},
		Memory:     &mm, DropBehind: l.DropBehind,
	}

	g, gs, err := l.BuildGraph(st.Begin(ctx, StageCSR), b.job.Workers)
	if err != nil {
		return nil, err
	}
	b.g = g
	built.Graph = GraphFigures{Kept: gs.Kept, Duplicates: gs.Duplicates, SelfLoops: gs.SelfLoops}
	// The build's scratch (4 bytes a row) is garbage now; collect it so that the
	// engine's arrays reuse its pages rather than grow the heap to twice the graph
	// (the heap holds almost no pointers: a collection costs milliseconds, and on
	// a VM a page first touched can cost more than the collection:
	// docs/PERFORMANCE.md, "Fresh memory and huge pages").
	load.Collect(b.l.Edges.Rows)

	// The count of components (one core's union-find) runs beside the hitting-set
	// check, whose bitmaps stay in cache; the check stage ends when both have
	// (docs/PERFORMANCE.md, "Check and audit").
	type count struct {
		n   int
		err error
	}
	components := make(chan count, 1)
	go func() {
		n, err := g.CountComponents(ctx)
		components <- count{n, err}
	}()
	cctx := st.Count(ctx, StageCheck)
	progress.From(cctx).Grow(int64(g.N()))
	err = b.check(cctx, built)
	c := <-components
	if err == nil {
		err = c.err
	}
	if err != nil {
		return nil, err
	}
	b.components = c.n
	// The check's bitmaps and the count's union-find (4 bytes a vertex) are
	// garbage: the engine's fields reuse their pages.
	load.Collect(b.l.Edges.Rows)
	return built, nil
}

// check is check.Hitting on the instance of the job's pair.
func (b *local) check(ctx context.Context, built *Built) error {
	pair, err := b.job.Pair(ctx) // checked by the driver
	if err != nil {
		return err
	}
	in, err := bfs.NewInstance(b.g, b.l.Vertices.Answer, b.l.Hit.Vertex, b.l.Hit.PTrue, pair)
	if err != nil {
		return err
	}
	b.in = in
	hc, err := check.Hitting(ctx, in.G, in.Answer, in.Hit, b.job.List)
	if err != nil {
		return err
	}
	built.Boundary, built.Uncovered = hc.Boundary, hc.Uncovered
	return nil
}

// Solve is bfs.Solve with the engine the job names (conflicts are explained by the
// hitting-set values' ids: the paper's feasibility lemma, docs/DESIGN.md §3.3), then
// check.Verify on the mechanism, the deterministic datasets and the Stats, summed
// in position order.
func (b *local) Solve(ctx context.Context, st Stages, p Policy) (*Solved, error) {
	pctx := st.Count(ctx, StagePropagate)
	progress.From(pctx).Grow(2 * int64(b.g.N()))
	sol, err := bfs.SolveRepair(pctx, b.in, b.eng, b.job.List, p.Repair)
	if err != nil {
		return nil, err
	}
	b.sol = sol
	s := &Solved{Components: b.components, Repaired: sol.Moved(), Relaxations: sol.Relaxations, Report: b.report(),
		Infeasible: int64(sol.Infeasible), Conflicts: conflicts(b.l, sol)}
	if sol.Infeasible > 0 {
		return s, nil
	}
	pair := b.in.Pair
	if p.Audit != nil {
		pair = *p.Audit
	}
	actx := st.Count(ctx, StageAudit)
	progress.From(actx).Grow(int64(b.g.N()))
	ids := b.l.Vertices.IDs
	audit, err := check.Verify(actx, b.g, dp.ExactValues(b.l.Vertices.Answer, sol.POne, sol.PTrue), pair, 0, 3)
	if err != nil {
		return nil, err
	}
	a := &Audited{Audit: audit}
	s.Mechanism = a
	if audit.Violations > 0 {
		w := audit.First[0]
		a.FirstIDs = [2]string{ids.String(int(w.U)), ids.String(int(w.V))}
		return s, nil
	}
	for v, p := range sol.PTrue {
		a.Stats.Add(b.l.Vertices.Answer[v], sol.POne[v], p)
	}
	a.Deterministic = *FindDeterministic(b.g, sol.POne, b.l.Hit.Vertex, ids)
	return s, nil
}

// Write stages the output record (one row per vertex, in the vertices file's order).
func (b *local) Write(ctx context.Context, st Stages, out *sink.Outputs, path string, names sink.Names, meta map[string]string) (int64, error) {
	ctx = st.Count(ctx, StageWrite)
	// The engine's queues (and the graph, which nothing reads from here on) are
	// garbage; collect them so that the output record and the writer reuse their
	// pages rather than add fresh ones to the run's peak (docs/PERFORMANCE.md,
	// "Fresh memory and huge pages").
	progress.From(ctx).Grow(int64(b.g.N()))
	b.g = nil
	load.Collect(max(b.l.Edges.Rows, int64(b.l.Vertices.IDs.Len())))
	rec, err := buildRecord(nil, b.l, names, b.sol)
	if err != nil {
		return 0, err
	}
	defer rec.Release()
	if err := out.Write(ctx, path, rec, meta); err != nil {
		return 0, err
	}
	return rec.NumRows(), nil
}

// report is the rounds engine's shards and renaming (RoundsReport); nothing for
// the other engines.
func (b *local) report() BackendReport {
	eng, ok := b.eng.(bfs.Rounds)
	if !ok {
		return nil
	}
	tally := eng.Tally(b.in) // the passes' layout and renaming, kept with the instance
	rl := tally.Relabelled
	return &RoundsReport{Shards: tally.Layout.Shards(), ShardSize: int(tally.Layout.Size), Passes: tally.Passes, Rounds: tally.Rounds, Offers: tally.Offers,
		Relabel: rl.Mode, Relabelled: rl.Applied,
		Arcs: rl.Arcs, CutArcsGiven: rl.CutGiven, CutArcsBFS: rl.CutBFS, CutSampled: rl.Sampled,
		CutShareGiven: rl.CutShare(rl.CutGiven), CutShareBFS: rl.CutShare(rl.CutBFS)}
}

// RoundsReport is the local rounds engine's part of the run summary: its shards,
// its passes' rounds and offers (both colours, and the passes after a repair:
// bfs.Rounds.Tally), and whether it renamed the vertices in breadth-first order
// (bfs.Rounds.Relabel), with the arcs the shards of either order cut (counted
// unless relabel is none; CutSampled: by auto's probe, over the arcs among the
// first vertices in breadth-first order, which found too little to rename).
type RoundsReport struct {
	Shards        int     `json:"shards"`
	ShardSize     int     `json:"shard_size"`
	Passes        int     `json:"passes"`
	Rounds        int     `json:"rounds"`
	Offers        int64   `json:"offers"`
	Relabel       string  `json:"relabel"`
	Relabelled    bool    `json:"relabelled"`
	Arcs          int64   `json:"arcs"`
	CutArcsGiven  int64   `json:"cut_arcs_given"`
	CutArcsBFS    int64   `json:"cut_arcs_bfs"`
	CutShareGiven float64 `json:"cut_share_given"`
	CutShareBFS   float64 `json:"cut_share_bfs"`
	CutSampled    bool    `json:"cut_sampled"`
}

// Key is the report's key in the JSON summary.
func (r *RoundsReport) Key() string { return "rounds" }

func (b *local) Close() {
	if b.l != nil {
		b.l.Close()
	}
}
