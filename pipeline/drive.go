package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/words"

	"github.com/graphdp/graphdp/internal/memstat"
	"github.com/graphdp/graphdp/internal/version"
)

// Run executes a validated job on this machine (doc.go): its mechanism and its
// summary are published together or not at all (sink.Outputs).
func Run(ctx context.Context, job job.Job, log *slog.Logger) (*Summary, error) {
	b, err := Local(job)
	if err != nil {
		return nil, err
	}
	return Drive(ctx, job, b, log)
}

// Drive runs a validated job on backend b: the one sequence of a run's stages for
// every backend (Backend). The mechanism and the summary are published together or
// not at all (sink.Outputs).
func Drive(ctx context.Context, job job.Job, b Backend, log *slog.Logger) (*Summary, error) {
	return Policy{Repair: bfs.DefaultRepair}.Drive(ctx, job, b, log)
}

// Drive runs a validated job on backend b under the policy p (package Drive uses
// the default repair); tests reach a refused repair and the audit's internal error
// through it, on every backend. Every stage runs in the job's Context (its stores
// and delimiter), whoever calls.
func (p Policy) Drive(ctx context.Context, job job.Job, b Backend, log *slog.Logger) (*Summary, error) {
	ctx = job.Context(ctx)
	defer b.Close()
	out := sink.NewPrivateOutputs() // the mechanism and the summary: docs/FORMATS.md
	defer out.Abort()
	d := &driver{job: job, b: b, log: log, p: p}
	s, err := d.stages(ctx, out)
	if err != nil {
		return s, err
	}
	if err := out.Commit(ctx); err != nil {
		return s, err
	}
	log.Info("written", "stage", "write", "out", job.Out, "summary", job.Summary, "rows", s.Vertices)
	if job.Ledger != "" && !job.DryRun {
		private := s.Deterministic == nil || s.Deterministic.NotPrivate == 0
		if err := recordRun(ctx, job, d.graph[0], d.graph[1], d.pair, private); err != nil {
			return s, err
		}
		log.Info("audit recorded", "stage", "write", "ledger", job.Ledger, "private", private)
	}
	return s, nil
}

// driver is one run in progress.
type driver struct {
	job  job.Job
	b    Backend
	log  *slog.Logger
	p    Policy
	t    *timer
	prog *display
	st   *stages
	s    *Summary
	pair dp.Pair // the job's (Job.Pair), set by stages
	// graph is the fingerprints of the vertices and edges read, set by stages
	// (what an audit recorded in the ledger names).
	graph [2]string
}

// stages is the run up to the publication: it stages the mechanism (job.Out) and,
// when job.Summary is set, the summary in out, for the caller to commit.
func (d *driver) stages(ctx context.Context, out *sink.Outputs) (*Summary, error) {
	j := &d.job
	pair, err := j.Pair(ctx)
	if err != nil {
		return nil, err
	}
	d.pair = pair
	prov, err := j.Provenance()
	if err != nil {
		return nil, &job.ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	runner, engine := d.b.Names()
	d.t = newTimer()
	d.prog = newProgress(ctx, d.log, j.Progress)
	defer d.prog.close()
	d.st = &stages{d: d}
	d.s = &Summary{Version: version.Build().Version, Build: version.Build(), Runner: runner, Engine: engine}
	d.s.SetPrivacy(j, pair)
	if w := d.s.Weak; w != "" {
		d.log.Warn(w, "stage", "read") // the parameters only: shareable
	}
	in, err := d.build(ctx, prov)
	if err != nil {
		return nil, err
	}
	d.graph = [2]string{in.Vertices.Fingerprint, in.Edges.Fingerprint}
	m, err := d.solve(ctx)
	if err != nil {
		return d.s, err
	}
	if err := d.audit(ctx, m); err != nil {
		return d.s, err
	}
	s := d.s
	if j.DryRun {
		s.DryRun = true
		finish(s, d.t)
		return s, nil
	}
	ld := &load.Loaded{Vertices: &ingest.Vertices{Fingerprint: in.Vertices.Fingerprint}, Edges: &ingest.Edges{Fingerprint: in.Edges.Fingerprint},
		Hit: &ingest.HittingSet{Fingerprint: in.HittingSet.Fingerprint}, Provenance: prov}
	// The output keeps the inputs' id and answer names and records them (sink.Names).
	names := j.OutputNames()
	rows, err := d.b.Write(ctx, d.st, out, j.Out, names, Metadata(ld, d.pair, engine, names.Metadata()))
	if err != nil {
		return nil, err
	}
	d.st.end()
	s.Out = j.Out
	d.log.Info("staged", "stage", "write", "out", j.Out, "rows", rows, "seconds", d.st.took[StageWrite].Seconds())
	finish(s, d.t)
	if j.Summary != "" {
		if err := out.WriteFile(ctx, j.Summary, s.EncodeJSON); err != nil {
			return s, err
		}
	}
	return s, nil
}

// build is the read, csr and check stages: the inputs' figures and digests, the
// graph's, and the hitting-set check, which rejects a set that misses boundary
// edges.
func (d *driver) build(ctx context.Context, prov job.Provenance) (*Built, error) {
	job, s, log := &d.job, d.s, d.log
	log.Info("reading inputs", "stage", "read", "vertices", job.Vertices, "edges", job.Edges, "hitting_set", job.HittingSet)
	in, err := d.b.Build(ctx, d.st)
	if err != nil {
		return nil, err
	}
	d.st.end()
	s.Memory = in.Memory
	s.Vertices, s.EdgesRead, s.HittingSet = int(in.Vertices.Rows), in.Edges.Rows, int(in.HittingSet.Rows)
	s.Inputs.Vertices = Input{in.Vertices.Path, prov.Private(in.Vertices.Fingerprint), in.Vertices.Rows}
	s.Inputs.Edges = Input{in.Edges.Path, prov.Public(in.Edges.Fingerprint), in.Edges.Rows}
	s.Inputs.HittingSet = Input{in.HittingSet.Path, prov.Private(in.HittingSet.Fingerprint), in.HittingSet.Rows}
	if w := s.EmptyEdges(); w != "" {
		log.Warn(strings.TrimPrefix(w, "WARNING: "), "stage", "read", "edges", job.Edges)
	}
	// Shareable (docs/FORMATS.md): the hitting set's size depends on the answers.
	attrs := []any{"stage", "read", "vertices", s.Vertices, "edge_rows", s.EdgesRead}
	if m := in.Memory; m != nil {
		attrs = append(attrs, "model_build_bytes", m.Build, "model_engine_bytes", m.Engine, "budget_bytes", m.BudgetBytes)
	}
	log.Info("read", append(attrs, "seconds", d.st.took[StageRead].Seconds())...)
	if in.DropBehind {
		log.Info("the edges file and the run do not fit in memory together: its pages leave the page cache as they are read", "stage", "read", "edges", job.Edges)
	}
	g := in.Graph
	s.EdgesKept, s.Duplicates, s.SelfLoops = g.Kept, g.Duplicates, g.SelfLoops
	log.Info("graph built", "stage", "csr", "edges_kept", g.Kept, "duplicates", g.Duplicates, "self_loops", g.SelfLoops,
		"seconds", d.st.took[StageCSR].Seconds())
	s.BoundaryEdges, s.Uncovered = in.Boundary, in.Uncovered
	if in.Uncovered > 0 {
		return nil, notHittingSetError(d.job.HittingSet)
	}
	return in, nil
}

// solve is the propagate and audit stages, under the run's repair policy:
// conflicting hitting-set values reject the input (the paper's feasibility lemma,
// docs/DESIGN.md §3.3). It returns the audited mechanism.
func (d *driver) solve(ctx context.Context) (*Audited, error) {
	s := d.s
	sol, err := d.b.Solve(ctx, d.st, d.p)
	if err != nil {
		return nil, err
	}
	d.st.end()
	s.Backend = sol.Report
	s.Components = sol.Components
	s.Violations, s.Feasible, s.Repaired = int(sol.Infeasible), sol.Infeasible == 0, sol.Repaired
	s.Relaxations = sol.Relaxations
	s.RelaxPerSec = float64(sol.Relaxations) / max(d.st.took[StagePropagate].Seconds(), 1e-9)
	if sol.Infeasible > 0 {
		return nil, infeasiblePair(d.job.HittingSet, d.pair, sol.Conflicts)
	}
	if sol.Mechanism == nil {
		return nil, fmt.Errorf("internal error: the %s backend returned a feasible solve without its audit; nothing written", s.Runner)
	}
	return sol.Mechanism, nil
}

// audit decides on the audited mechanism a: one that fails the (ε,δ)-DP audit is a
// bug (bfs doc.go, invariant 4) and nothing is written; datasets that are not
// private (RefuseNotPrivate) and too many deterministic datasets
// (checkDeterministic) reject the run.
func (d *driver) audit(ctx context.Context, a *Audited) error {
	s := d.s
	s.AuditWorst = max(a.Audit.Worst.Excess, 0)
	if a.Audit.Edges == 0 {
		s.AuditWorst = 0
	}
	if a.Audit.Violations > 0 {
		return fmt.Errorf("internal error: the computed mechanism fails the DP audit on %d edge outputs, e.g. %s–%s (excess %g); nothing written",
			a.Audit.Violations, words.Quote(a.FirstIDs[0]), words.Quote(a.FirstIDs[1]), a.Audit.First[0].Excess)
	}
	setStats(s, &a.Stats)
	s.Deterministic = &a.Deterministic
	if det := s.Deterministic; det.Count > 0 {
		level := slog.LevelInfo // private: a constant answer, no problem
		if det.NotPrivate > 0 {
			level = slog.LevelWarn
		}
		d.log.Log(ctx, level, "datasets answered deterministically (p_one = 0 or 1)", "stage", "audit", "count", det.Count,
			"not_private", det.NotPrivate, "private", det.Private,
			"no_neighbours", det.Isolated, "no_constraint", det.Unconstrained, "forced_by_hitting_set", det.Forced)
	}
	if err := RefuseNotPrivate(&d.job, s.Deterministic, s.Vertices, s.Inputs.Edges); err != nil {
		return err
	}
	return checkDeterministic(d.job, s)
}

func finish(s *Summary, t *timer) {
	s.Phases = t.phases
	s.WallSeconds = time.Since(t.start).Seconds()
	s.PeakRSSBytes = memstat.PeakRSS() // the peak since the last phase ended
	for _, p := range t.phases {
		s.PeakRSSBytes = max(s.PeakRSSBytes, p.PeakRSSBytes)
	}
}

// setStats puts the mechanism's figures in the summary.
func setStats(s *Summary, st *check.Stats) {
	s.MeanPTrue, s.Truthful = st.Mean(), st.Truthful()
	cl := st.Classes()
	s.Classes = &cl
}
