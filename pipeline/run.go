package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/report"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/progress"
	"github.com/graphdp/graphdp/internal/words"
)

// Loaded is a job's inputs, read and checked against each other.
type Loaded struct {
	Vertices  *ingest.Vertices
	Edges     *ingest.Edges          // File, Rows and Fingerprint: the rows are not kept (BuildGraph)
	Hit       *ingest.HittingSet     // Request.HittingSet, else nil
	Mechanism *ingest.Mechanism      // Request.Mechanism, else nil
	Table     *ingest.MechanismTable // Request.Table, else nil
	// DropBehind: the edges file is read without keeping it in the page cache
	// (dropBehind).
	DropBehind bool
	// Memory is the job's modelled memory and the budget Load checked it against.
	Memory MemoryModel
	// Provenance digests the inputs for the summary and the outputs' metadata.
	Provenance Provenance

	// The arcs of the edges file, added in Load's pass (BuildGraph finishes it).
	builder *graph.Builder
}

// Load reads a job's inputs: vertices first (they define the ids), then the edges
// and, concurrently, what req asks for (the hitting set, the mechanism). It is the
// one reader of inputs for every command (load.go). The edges' one pass checks every
// row and adds its arcs to the graph's build (graph.Builder); BuildGraph finishes
// it: the edge rows are never held (docs/PERFORMANCE.md, "Memory model"). Before the
// pass, Load refuses a job whose modelled memory exceeds the budget (memory.go:
// checkMemory; the engine's share when req reads a hitting set).
func Load(ctx context.Context, job *Job, req Request) (*Loaded, error) {
	prov, err := job.Provenance()
	if err != nil {
		return nil, &ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	ctx = job.Context(ctx)
	cols := job.IngestColumns()
	vs, err := ingest.ReadVertices(ctx, job.Vertices, cols)
	if err != nil {
		return nil, err
	}
	es, err := ingest.OpenEdges(ctx, job.Edges, cols, vs)
	if err != nil {
		return nil, err
	}
	defer es.Close()
	model := EstimateMemory(vs, es.Rows(), req.Engine, job.Workers)
	model.Build += csvBytes(job, req, es.Rows())
	budget, source := memoryBudget()
	if err := checkMemory(job, req, vs, es.Rows(), model, budget, source); err != nil {
		return nil, err
	}
	// When the file and the run's memory do not fit in the machine together, the
	// file's pages would crowd out the run's huge pages in the page cache
	// (docs/PERFORMANCE.md, "Issue 12, third round"): each row group's are
	// dropped once read.
	mem, _ := MachineMemory()
	drop := dropBehind(es.Size(), model, mem)
	if drop {
		es.DropBehind()
	}
	// Return the vertices' garbage to the OS before the scratch (12 bytes a row) is
	// allocated: Go clears a large allocation on one core, page faults included,
	// when any of its pages were used before, but not one made only of pages fresh
	// from the OS, which Add then touches first on every core (docs/PERFORMANCE.md,
	// "csr"). Below freshScratchRows the clear costs less than the collection.
	if es.Rows() >= freshScratchRows {
		debug.FreeOSMemory()
	}
	b := graph.NewBuilder(vs.IDs.Len(), es.Rows(), es.Workers())
	l := &Loaded{Vertices: vs, Edges: &ingest.Edges{File: es.File, Rows: es.Rows()}, DropBehind: drop, builder: b, Provenance: prov,
		Memory: MemoryModel{Memory: model, BudgetBytes: max(budget, 0), BudgetSource: source}}
	grp, gctx := errgroup.WithContext(ctx)
	grp.Go(func() error {
		return es.Scan(gctx, func(_ int, src, dst []int32) error {
			if err := b.Add(src, dst); err != nil {
				return fmt.Errorf("%s: %w", es.File, err)
			}
			return nil
		})
	})
	req.read(gctx, grp, job, l)
	if err = grp.Wait(); err == nil {
		l.Edges.Fingerprint, err = es.Fingerprint()
	}
	if err != nil {
		return nil, err
	}
	return l, nil
}

// dropBehind decides whether a run reads an edges file of size bytes without
// keeping it in the page cache: when the file and the run's modelled peak m do not
// fit in the machine's memory (0: unknown, keep) together.
func dropBehind(size int64, m Memory, machine int64) bool {
	return machine > 0 && size+m.Peak() > machine
}

// freshScratchRows is the edge-row count (12 bytes a row of scratch: 192 MiB)
// from which Load returns free memory to the OS before allocating it.
const freshScratchRows = 1 << 24

// BuildGraph builds the CSR graph from the arcs Load added, on at most workers
// goroutines (0: one per core).
func (l *Loaded) BuildGraph(ctx context.Context, workers int) (*graph.Graph, graph.BuildStats, error) {
	if l.builder == nil {
		return nil, graph.BuildStats{}, fmt.Errorf("pipeline: BuildGraph called twice")
	}
	b := l.builder
	l.builder = nil
	if err := ctx.Err(); err != nil {
		return nil, graph.BuildStats{}, err
	}
	// The read's garbage (decoding buffers, batches: a few hundred MB at 10^8
	// rows) goes before the offsets and the build's buffers are allocated, so that
	// they reuse its pages instead of adding fresh ones on top of the scratch, at
	// the build's peak (the heap holds almost no pointers: a collection costs
	// milliseconds).
	runtime.GC()
	g, st, err := b.Finish(workers)
	if err != nil {
		return nil, st, fmt.Errorf("%s: %w", l.Edges.File, err)
	}
	return g, st, nil
}

// Close releases what Load holds for BuildGraph (the build's scratch) when the
// graph is not built.
func (l *Loaded) Close() { l.builder = nil }

// Engine returns the engine a job names.
func Engine(job *Job) (bfs.Engine, error) {
	switch job.Engine {
	case "propagate":
		return bfs.Propagate{}, nil
	case "per-source":
		return bfs.PerSource{Workers: job.Workers}, nil
	case "rounds":
		return bfs.Rounds{Workers: job.Workers}, nil
	}
	return nil, fmt.Errorf("unknown engine %q", job.Engine)
}

// Run executes a validated job on this machine (doc.go): its mechanism and its
// summary are published together or not at all (sink.Outputs).
func Run(ctx context.Context, job Job, log *slog.Logger) (*Summary, error) {
	out := sink.NewOutputs()
	defer out.Abort()
	s, err := stageRun(ctx, job, log, out)
	if err != nil {
		return s, err
	}
	if err := out.Commit(ctx); err != nil {
		return s, err
	}
	log.Info("written", "stage", "write", "out", job.Out, "summary", job.Summary, "rows", s.Vertices)
	return s, nil
}

// stageRun is Run up to the publication: it stages the mechanism (job.Out) and,
// when job.Summary is set, the summary in out, for the caller to commit.
func stageRun(ctx context.Context, job Job, log *slog.Logger, out *sink.Outputs) (*Summary, error) {
	// Workers goes down to the engine and the CSR build; nothing here sets
	// process-wide state (GOMAXPROCS), which a library must leave to its program.
	eng, err := Engine(&job)
	if err != nil {
		return nil, err
	}
	pair, err := dp.New(job.Epsilon, job.Delta)
	if err != nil {
		return nil, &ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	t := newTimer()
	prog := newProgress(ctx, log, job.Progress)
	defer prog.close()
	s := &Summary{Version: Build().Version, Build: Build(), Runner: "local", Engine: eng.Name(), Epsilon: job.Epsilon, Delta: job.Delta}

	rows := new(progress.Counter)
	prog.phase("read", &rows.Done, rows.Total.Load, "rows")
	log.Info("reading inputs", "stage", "read", "vertices", job.Vertices, "edges", job.Edges, "hitting_set", job.HittingSet)
	l, err := Load(progress.With(ctx, rows), &job, Request{HittingSet: true, Engine: job.Engine})
	if err != nil {
		return nil, err
	}
	defer l.Close()
	// The id index (4 bytes a vertex with dense int ids, 12 with sparse ones) served
	// the inputs' references, all read now; the run writes ids from IDs. Dropped
	// before the build's peak.
	l.Vertices.Index = nil
	fillInputs(s, l)
	if w := s.EmptyEdges(); w != "" {
		log.Warn(strings.TrimPrefix(w, "WARNING: "), "stage", "read", "edges", job.Edges)
	}
	log.Info("read", "stage", "read", "vertices", s.Vertices, "edge_rows", s.EdgesRead, "hitting_set", s.HittingSet,
		"model_build_bytes", l.Memory.Build, "model_engine_bytes", l.Memory.Engine, "budget_bytes", l.Memory.BudgetBytes, "seconds", t.done("read").Seconds())
	if l.DropBehind {
		log.Info("the edges file and the run do not fit in memory together: its pages leave the page cache as they are read", "stage", "read", "edges", job.Edges)
	}

	// The read phase's pass added every arc to its block; the csr phase puts the
	// blocks in order and builds their lists.
	prog.phase("csr", nil, nil, "")
	g, st, err := l.BuildGraph(ctx, job.Workers)
	if err != nil {
		return nil, err
	}
	s.EdgesKept, s.Duplicates, s.SelfLoops = st.Kept, st.Duplicates, st.SelfLoops
	// The build's scratch (4 bytes a row) is garbage now; collect it so that the
	// engine's arrays reuse its pages rather than grow the heap to twice the graph
	// (the heap holds almost no pointers: a collection costs milliseconds, and on
	// a VM a page first touched can cost more than the collection:
	// docs/PERFORMANCE.md, "Issue 12, fourth round").
	runtime.GC()
	// The count of components (one core's union-find) runs beside the hitting-set
	// check, whose bitmaps stay in cache; the check phase ends when both have
	// (docs/PERFORMANCE.md, "Issue 12, fifth round").
	components := make(chan error, 1)
	go func() {
		var err error
		s.Components, err = g.CountComponents(ctx)
		components <- err
	}()
	log.Info("graph built", "stage", "csr", "edges_kept", st.Kept, "duplicates", st.Duplicates, "self_loops", st.SelfLoops,
		"seconds", t.done("csr").Seconds())

	checked := new(progress.Counter)
	prog.phase("check", &checked.Done, fixed(int64(g.N())), "vertices")
	in, err := bfs.NewInstance(g, l.Vertices.Answer, l.Hit.Vertex, l.Hit.PTrue, pair)
	if err != nil {
		return nil, err
	}
	settled := new(progress.Counter)
	err = checkHitting(progress.With(ctx, checked), s, job, l, in)
	if cerr := <-components; err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	t.done("check")
	// The check's bitmaps and the count's union-find (4 bytes a vertex) are
	// garbage: the engine's fields reuse their pages.
	runtime.GC()

	prog.phase("propagate (2 passes)", &settled.Done, fixed(2*int64(g.N())), "vertices settled")
	sol, err := bfs.Solve(progress.With(ctx, settled), in, eng, job.List)
	if err != nil {
		return nil, err
	}
	engineTime := t.done("propagate")
	s.Violations, s.Feasible, s.Repaired = sol.Infeasible, sol.Infeasible == 0, sol.Moved()
	s.Relaxations = sol.Relaxations
	s.RelaxPerSec = float64(sol.Relaxations) / max(engineTime.Seconds(), 1e-9)
	log.Info("mechanism computed", "stage", "propagate", "engine", eng.Name(), "relaxations", sol.Relaxations, "seconds", engineTime.Seconds())
	if sol.Infeasible > 0 {
		return s, infeasible(job, l, sol)
	}

	audited := new(progress.Counter)
	prog.phase("audit", &audited.Done, fixed(int64(g.N())), "vertices")
	audit, err := check.Verify(progress.With(ctx, audited), g, sol.POne, pair, 0, 3)
	if err != nil {
		return nil, err
	}
	s.AuditWorst = max(audit.Worst.Excess, 0)
	if audit.Edges == 0 {
		s.AuditWorst = 0
	}
	if audit.Violations > 0 {
		// The engines guarantee this cannot happen (bfs doc.go, invariant 4): a bug.
		w := audit.First[0]
		return s, fmt.Errorf("internal error: the computed mechanism fails the DP audit on %d edge outputs, e.g. %s–%s (excess %g); nothing written",
			audit.Violations, words.Quote(l.Vertices.IDs.String(int(w.U))), words.Quote(l.Vertices.IDs.String(int(w.V))), w.Excess)
	}
	var tally report.ClassTally
	for v, p := range sol.PTrue {
		s.MeanPTrue += p
		if p == 1 {
			s.Truthful++
		}
		tally.Add(l.Vertices.Answer[v], sol.POne[v], p)
	}
	if n := len(sol.PTrue); n > 0 {
		s.MeanPTrue /= float64(n)
	}
	cl := tally.Classes()
	s.Classes = &cl
	s.Deterministic = findDeterministic(g, sol.POne, l.Hit.Vertex, l.Vertices.IDs)
	if d := s.Deterministic; d.Count > 0 {
		log.Warn("datasets answered deterministically (p_one = 0 or 1)", "stage", "audit", "count", d.Count,
			"not_private", d.NotPrivate, "private", d.Private,
			"no_neighbours", d.Isolated, "no_constraint", d.Unconstrained, "forced_by_hitting_set", d.Forced)
	}
	if err := CheckDeterministic(job, s); err != nil {
		return s, err
	}
	t.done("audit")
	if job.DryRun {
		s.DryRun = true
		finish(s, t)
		return s, nil
	}

	// The engine's queues (and the graph, which nothing reads from here on) are garbage;
	// collect them so that the output record and the writer reuse their pages rather
	// than add fresh ones to the run's peak (docs/PERFORMANCE.md, "Memory model").
	n := int64(g.N())
	runtime.GC()
	written := new(progress.Counter)
	prog.phase("write", &written.Done, fixed(n), "rows")
	rec, err := BuildRecord(nil, l, sol)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	if err := out.Write(progress.With(ctx, written), job.Out, rec, Metadata(&job, eng.Name(), l)); err != nil {
		return nil, err
	}
	s.Out = job.Out
	log.Info("staged", "stage", "write", "out", job.Out, "rows", rec.NumRows(), "seconds", t.done("write").Seconds())
	finish(s, t)
	if job.Summary != "" {
		if err := out.WriteFile(ctx, job.Summary, s.EncodeJSON); err != nil {
			return s, err
		}
	}
	return s, nil
}

// findDeterministic finds the datasets answered with p_one exactly 0 or 1, why,
// and which are private (check.Deterministic).
func findDeterministic(g *graph.Graph, pone []float64, hit []int32, ids ingest.IDs) *check.Deterministic {
	inHit := make([]bool, g.N())
	for _, h := range hit {
		inHit[h] = true
	}
	// nil pair: the audit above passed (or run failed), so DP holds on every edge.
	d, _ := check.FindDeterministic(g, pone, inHit, nil, nil, func(v int32) string { return ids.String(int(v)) })
	return &d
}

func fillInputs(s *Summary, l *Loaded) {
	m := l.Memory
	s.Memory = &m
	s.Vertices = l.Vertices.IDs.Len()
	s.EdgesRead = l.Edges.Rows
	s.HittingSet = len(l.Hit.Vertex)
	p := l.Provenance
	s.Inputs.Vertices = Input{l.Vertices.File, p.Private(l.Vertices.Fingerprint), int64(s.Vertices)}
	s.Inputs.Edges = Input{l.Edges.File, p.Public(l.Edges.Fingerprint), s.EdgesRead}
	s.Inputs.HittingSet = Input{l.Hit.File, p.Private(l.Hit.Fingerprint), int64(s.HittingSet)}
}

func finish(s *Summary, t *timer) {
	s.Phases = t.phases
	s.WallSeconds = time.Since(t.start).Seconds()
	s.PeakRSSBytes = PeakRSS() // the peak since the last phase ended
	for _, p := range t.phases {
		s.PeakRSSBytes = max(s.PeakRSSBytes, p.PeakRSSBytes)
	}
}

// checkHitting rejects a set that misses boundary edges, naming the first ones.
func checkHitting(ctx context.Context, s *Summary, job Job, l *Loaded, in *bfs.Instance) error {
	hc, err := check.Hitting(ctx, in.G, in.Answer, in.Hit, job.List)
	if err != nil {
		return err
	}
	s.BoundaryEdges, s.Uncovered = hc.Boundary, hc.Uncovered
	if hc.Uncovered == 0 {
		return nil
	}
	ids := l.Vertices.IDs
	var first []Uncovered
	for _, x := range hc.First {
		first = append(first, Uncovered{ids.String(int(x.U)), ids.String(int(x.V))})
	}
	return NotHittingSet(l.Hit.File, hc.Uncovered, hc.Boundary, first)
}

// infeasible explains which hitting-set values conflict (the paper's feasibility
// lemma, docs/DESIGN.md §3.3).
func infeasible(job Job, l *Loaded, sol *bfs.Solution) error {
	ids, ans := l.Vertices.IDs, l.Vertices.Answer
	var first []Conflict
	for _, v := range sol.Violations {
		first = append(first, Conflict{Output: v.Output, H: ids.String(int(v.H)), By: ids.String(int(v.By)), AnsH: ans[v.H], AnsBy: ans[v.By],
			Dist: v.Dist, Given: v.Given, ByValue: v.ByValue, Bound: v.Bound})
	}
	return Infeasible(l.Hit.File, job.Epsilon, job.Delta, int64(sol.Infeasible), first)
}
