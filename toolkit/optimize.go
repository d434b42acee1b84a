package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/cover"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/optimize"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/report"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/memstat"
	"github.com/graphdp/graphdp/internal/progress"
	"github.com/graphdp/graphdp/internal/version"
)

// OptimizeJob is graphdp optimize: a job's graph, answers, ε and δ (Job; its
// hitting set and out are not used) with the utility's weights and the outputs.
type OptimizeJob struct {
	job.Job
	Weights      string // a table of id, weight; "" = the vertices file's weight column if it has one, else uniform
	WeightColumn string // "" = "weight"
	Out          string // the hitting set to write (.parquet or .csv: what run reads)
	MechanismOut string // "" = none; else exactly what `run` on Out writes
	SummaryOut   string // "" = none; the optimize summary as JSON
	HTML         string // "" = none; the boundary-homogeneous page (report.RegionHTML)
	Gap          float64
	MaxTime      time.Duration
	AllBoundary  bool
	// Objective is the utility maximised ("": optimize.DefaultObjective); Floors the
	// lower bounds on p_true by answer (docs/OPTIMIZE.md, "Objectives" and "Floors").
	Objective optimize.Objective
	Floors    optimize.Floors
	// Explicit marks the answers whose floor the user set (optimize.Options.Explicit):
	// the others are at least randomized response's α.
	Explicit [2]bool
	// Chords is the number of chords (and tangents) of μ-GDP's upper bound
	// (optimize.Options.Chords; 0: optimize.DefaultChords).
	Chords int
}

// Optimize runs graphdp optimize (docs/OPTIMIZE.md): read the graph and the
// weights, optimise, write the hitting set, and, with MechanismOut, run the job on
// it exactly as `graphdp run` does.
func Optimize(ctx context.Context, oj OptimizeJob, log *slog.Logger) (*OptimizeSummary, error) {
	start := time.Now()
	ctx = oj.Job.Context(ctx) // the weights are read with the job's delimiter too
	job := oj.Job
	// The graph is all optimize reads of the job's tables; the memory is checked as
	// the graph build's, the engine's (propagate, with MechanismOut) after the solve.
	// With --max-time, what comes before a first mechanism keeps firstBy through
	// fctx: reading here, the cover and the first candidate's extension in the solver.
	fctx, cancel := ctx, context.CancelFunc(func() {})
	readBy := firstBy(start, oj.MaxTime, 0)
	if oj.MaxTime > 0 && !oj.DryRun {
		fctx, cancel = context.WithDeadline(ctx, readBy)
	}
	defer cancel()
	phase(ctx, "read", time.Time{})
	x, err := load.LoadInputs(fctx, &job, load.Request{Engine: "propagate"})
	if err != nil {
		return nil, oj.late(ctx, err, start, readBy, "reading the inputs")
	}
	loaded := time.Since(start)
	vs := x.Vertices
	n := vs.IDs.Len()
	weight, from, err := readWeights(fctx, oj, job, vs)
	if err != nil {
		return nil, oj.late(ctx, err, start, readBy, "reading the weights")
	}
	log.Info("read", "stage", "read", "vertices", n, "edges", x.Graph.M(), "weights", from)
	if oj.DryRun {
		return planOptimize(ctx, oj, x, weight, from, start)
	}

	prob := &optimize.Problem{G: x.Graph, Answer: vs.Answer, Weight: weight, Pair: x.Pair}
	var hit []int32
	kind := "minimum boundary cover"
	if oj.AllBoundary {
		hit, kind = cover.BoundaryVertices(x.Graph, vs.Answer), "every boundary vertex"
	}
	t0 := time.Now()
	opts := optimize.Options{Gap: oj.Gap, Workers: job.Workers,
		Hit: hit, Objective: objectiveOr(oj.Objective), Floors: oj.Floors, Explicit: oj.Explicit, Chords: oj.Chords}
	var deadline time.Time
	if oj.MaxTime > 0 {
		deadline = start.Add(oj.MaxTime)
		reserve := writeReserve(loaded, oj)
		opts.Deadline, opts.FirstBy = deadline.Add(-reserve), firstBy(start, oj.MaxTime, reserve)
	}
	phase(ctx, "optimize", deadline)
	log.Info("optimize", "stage", "optimize", "objective", string(opts.Objective), "max_time", oj.MaxTime.String())
	res, err := optimize.Optimize(ctx, prob, opts)
	if err != nil {
		return nil, oj.late(ctx, err, start, opts.FirstBy, "the cover and the first candidate's extension")
	}
	solve := time.Since(t0)
	optSeconds := solve.Seconds()
	log.Info("optimized", "stage", "optimize", "seconds", optSeconds)
	var curve []optimize.TradePoint
	if oj.HTML != "" {
		// The page's trade-off curve: a few more certified solves, before anything
		// is written, within --max-time's deadline too.
		t1 := time.Now()
		budget := tradeBudget(solve)
		progress.Notify(ctx, OptimizePhase{Name: "trade-off curve", Deadline: deadline, End: t1.Add(budget)})
		if curve, err = optimize.TradeOff(ctx, prob, opts, res, tradePoints, budget, solve); err != nil {
			return nil, err
		}
		bounded := 0
		for _, p := range curve {
			bounded += words.Bit(p.Bounded)
		}
		log.Info("trade-off curve", "stage", "optimize", "points", len(curve), "bounded", bounded, "seconds", time.Since(t1).Seconds())
	}
	phase(ctx, "write", deadline)
	s, err := summarise(ctx, oj, x, res, from, kind, curve, optSeconds, log)
	if err != nil {
		return nil, err
	}
	// run's rule: a hitting set whose mechanism has datasets that are not private is
	// refused before anything is written.
	edges := pipeline.Input{Path: x.Loaded.Edges.File, Rows: x.Loaded.Edges.Rows}
	if err := pipeline.RefuseNotPrivate(&job, s.Deterministic, n, edges); err != nil {
		return nil, err
	}

	rec, err := pipeline.BuildHittingSet(nil, vs, job.OutputNames(), res.Hit, res.PTrue)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	meta := pipeline.Metadata(&x.Loaded, x.Pair, "", map[string]string{
		"graphdp.hitting_set": kind,
		"graphdp.policy":      "optimize: " + s.policy(),
		"graphdp.utility":     words.Num(res.Utility),
		"graphdp.upper_bound": words.Num(res.Upper),
	})
	// Every output is staged, then all are published together (sink.Outputs), each
	// 0600: all are computed from the answers (docs/FORMATS.md).
	out := sink.NewPrivateOutputs()
	defer out.Abort()
	if err := out.Write(ctx, oj.Out, rec, meta); err != nil {
		return nil, err
	}
	if oj.HTML != "" {
		if err := out.WriteFile(ctx, oj.HTML, func(w io.Writer) error {
			return report.RegionHTML(w, region(prob, res, s))
		}); err != nil {
			return s, err
		}
	}
	// The graph, the problem and the solve are not used from here on: collected,
	// the run of --mechanism-out, which reads and builds its own, reuses their pages.
	if oj.MechanismOut != "" {
		load.Collect(edges.Rows)
		if err := stageMechanism(ctx, oj, job, rec, meta, log, out); err != nil {
			return nil, err
		}
	}
	s.WallSeconds, s.PeakRSSBytes = time.Since(start).Seconds(), memstat.PeakRSS()
	if oj.SummaryOut != "" {
		if err := out.WriteFile(ctx, oj.SummaryOut, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(s)
		}); err != nil {
			return s, err
		}
	}
	if err := out.Commit(ctx); err != nil {
		return s, err
	}
	// Shareable (docs/FORMATS.md): no row count, the hitting set's size depends on the answers.
	log.Info("written", "stage", "write", "out", oj.Out, "mechanism_out", oj.MechanismOut, "html", oj.HTML, "summary", oj.SummaryOut)
	return s, nil
}

// OptimizePhase is the phase optimize has started, handed to ctx's listener for it
// (internal/progress) so that a caller can say what it is doing at any time: read,
// optimize (optimize.Progress then names the solver's own phases), trade-off curve,
// write. Deadline is --max-time's end, when set: a bound on what is left; End the
// phase's own expected end, where one is known (the trade-off curve's budget:
// its solves start only while expected to end before it).
type OptimizePhase struct {
	Name     string
	Deadline time.Time
	End      time.Time
}

// phase notifies the start of phase name (deadline: --max-time's end, or zero).
func phase(ctx context.Context, name string, deadline time.Time) {
	progress.Notify(ctx, OptimizePhase{Name: name, Deadline: deadline})
}

// firstBy is when, under --max-time d from start, a first mechanism must exist for
// the command to end within d + d/10 + 2 s (docs/OPTIMIZE.md, "Limits"): half a
// second of that is kept for the summary and the refusal checks, reserve (writeReserve)
// for the writing.
func firstBy(start time.Time, d, reserve time.Duration) time.Time {
	return start.Add(firstWithin(d, reserve))
}

// firstWithin is firstBy's time from the start.
func firstWithin(d, reserve time.Duration) time.Duration {
	return maxTimeKept(d) - 500*time.Millisecond - reserve
}

// maxTimeKept is how long the whole command takes at most under --max-time d.
func maxTimeKept(d time.Duration) time.Duration { return d + d/10 + 2*time.Second }

// MaxTimeError is --max-time run out before optimize had a mechanism to write: in
// While (reading, or the cover and the first candidate's extension), After the command's
// start. Nothing was written.
type MaxTimeError struct {
	Limit, After time.Duration
	While        string
}

func (e *MaxTimeError) Error() string {
	return fmt.Sprintf("--max-time %v ran out after %.1fs, in %s, before there was a mechanism to write: "+
		"optimize reads the inputs, finds the cover and extends a first candidate on it (the balanced α, or the floors' own values where α misses them) "+
		"before anything else (graphdp optimize --dry-run estimates the time); give a longer --max-time; nothing written",
		e.Limit, e.After.Seconds(), e.While)
}

// late is err, or a *MaxTimeError when it is the deadline limit (firstBy's) met
// while: a deadline error once limit has passed, ctx (the command's own context)
// still running.
func (oj OptimizeJob) late(ctx context.Context, err error, start, limit time.Time, while string) error {
	if oj.MaxTime > 0 && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil && !time.Now().Before(limit) {
		return &MaxTimeError{Limit: oj.MaxTime, After: time.Since(start).Round(100 * time.Millisecond), While: while}
	}
	return err
}

// writeReserve is the part of --max-time kept for what follows the solve: the
// summary's checks and the hitting set's writing (a pass over the graph, a fifth of
// reading it, measured) and, with --mechanism-out, run on the hitting set (reading
// the inputs again, one propagation, writing every dataset's row: 2.8 times the
// reading at 10^7 datasets, docs/OPTIMIZE.md), plus a fixed 0.2 s for files and the
// page.
func writeReserve(loaded time.Duration, oj OptimizeJob) time.Duration {
	f := 0.2
	if oj.MechanismOut != "" {
		f += 3
	}
	return 200*time.Millisecond + time.Duration(f*float64(loaded))
}

// summarise is optimize's summary of the solve res (from the weights from, the
// hitting set of kind kind), with its warnings logged.
func summarise(ctx context.Context, oj OptimizeJob, x *load.Inputs, res *optimize.Result, from, kind string,
	curve []optimize.TradePoint, optSeconds float64, log *slog.Logger) (*OptimizeSummary, error) {
	vs := x.Vertices
	hom := res.Homogeneous
	hc, err := check.Hitting(ctx, x.Graph, vs.Answer, res.Hit, 0)
	if err != nil {
		return nil, err
	}
	s := &OptimizeSummary{Version: version.Version, Epsilon: x.Pair.Epsilon, Delta: x.Pair.Delta, Vertices: vs.IDs.Len(), Edges: x.Graph.M(),
		Weights: from, Objective: string(res.Objective), Floors: Floors{res.Floors[0], res.Floors[1]}, Worst: res.Worst,
		BalancedMeets: res.BalancedMeets, BoundaryEdges: hc.Boundary,
		HittingSet: len(res.Hit), HittingSetIs: kind,
		TotalWeight: res.TotalWeight, Utility: res.Utility, UpperBound: res.Upper, Gap: res.Gap,
		TargetGap: oj.Gap, Converged: res.Converged, Alpha: res.Alpha, Balanced: res.Balanced,
		GainOverBalanced: res.Utility - res.Balanced, Randomized: res.Randomized,
		GainOverRandomized: res.Utility - res.Randomized, Homogeneous: hom, Method: res.Method,
		Iterations: res.Iterations, Restarts: res.Restarts, Mixed: res.Mixed, Out: oj.Out,
		MechanismOut: oj.MechanismOut, OptimizeSeconds: optSeconds,
		Classes: report.ClassesOf(vs.Answer, res.Solution.POne, res.Solution.PTrue), TradeOff: curve}
	s.Framework, s.Privacy, s.Lines = string(x.Pair.Framework()), x.Pair.String(), res.Lines
	s.RandomizedFloor, s.FloorWarnings = optimize.RandomizedFloor(x.Pair), floorWarnings(oj)
	for _, w := range s.FloorWarnings {
		log.Warn(w, "stage", "optimize") // the parameters only: shareable
	}
	if spec := x.Pair.Spec(); spec != nil && spec.Tangent != nil && res.Lines > 0 { // chords of U* (optimize/lines.go)
		s.Chords = max(oj.Chords, 0)
		if s.Chords == 0 {
			s.Chords = optimize.DefaultChords
		}
		s.Relaxation = "the mechanism is " + spec.Words + " (solved on chords below U, an inner polytope); upper_bound is certified on tangents above U (an outer one), so gap covers both: more --chords narrow it"
	}
	// The warnings are per-answer figures: in the summary (private), not the log.
	s.Warnings = degenerate(s)
	s.Deterministic = pipeline.FindDeterministic(x.Graph, res.Solution.POne, res.Hit, vs.IDs)
	if s.TargetGap == 0 {
		s.TargetGap = optimize.DefaultGap
	}
	if res.Utility > 0 {
		s.RelativeGap = res.Gap / res.Utility
	}

	return s, nil
}

// floorWarnings warns of the floors the user set below ½ (Explicit): they let a
// dataset's answer be wrong more often than right, below randomized response's α.
func floorWarnings(oj OptimizeJob) []string {
	var out []string
	for c, name := range []string{"answer-0", "answer-1"} {
		if f := oj.Floors[c]; oj.Explicit[c] && f < 0.5 {
			out = append(out, fmt.Sprintf("the %s floor on p_true is %v, below ½ (and below randomized response's α, the default): a dataset's answer may be wrong more often than right", name, f))
		}
	}
	return out
}

// planOptimize is optimize's dry run once the inputs and weights are read: the
// solver's checks (optimize.Precheck), and what the solve would start from (the
// boundary, the hitting set's size, the objective's total weight); nothing solved
// or written.
func planOptimize(ctx context.Context, oj OptimizeJob, x *load.Inputs, weight []float64, from string, start time.Time) (*OptimizeSummary, error) {
	loaded := time.Since(start)
	vs := x.Vertices
	bc, err := cover.Boundary(ctx, x.Graph, vs.Answer)
	if err != nil {
		return nil, err
	}
	size, kind := len(bc.Vertices), "minimum boundary cover"
	if oj.AllBoundary {
		size, kind = bc.Boundary, "every boundary vertex"
	}
	obj := oj.Objective
	if obj == "" {
		obj = optimize.DefaultObjective
	}
	// The solver's own checks (the objective, floors some DP mechanism meets) as
	// Optimize makes them, without solving.
	prob := &optimize.Problem{G: x.Graph, Answer: vs.Answer, Weight: weight, Pair: x.Pair}
	po := optimize.Options{Objective: obj, Floors: oj.Floors, Explicit: oj.Explicit}
	total, err := optimize.Precheck(prob, po)
	if err != nil {
		return nil, err
	}
	floors := po.FloorsFor(x.Pair)
	po.Chords, po.MaxTime, po.Hit = oj.Chords, oj.MaxTime, nil
	if oj.AllBoundary {
		po.Hit = cover.BoundaryVertices(x.Graph, vs.Answer)
	}
	est, err := optimize.EstimateCost(ctx, prob, po)
	if err != nil {
		return nil, err
	}
	m := x.Memory
	s := &OptimizeSummary{RandomizedFloor: optimize.RandomizedFloor(x.Pair), FloorWarnings: floorWarnings(oj), Version: version.Version, Epsilon: oj.Epsilon, Delta: oj.Delta, Vertices: vs.IDs.Len(), Edges: x.Graph.M(),
		Objective: string(obj), Floors: Floors{floors[0], floors[1]}, Weights: from, BoundaryEdges: bc.BoundaryEdges, HittingSet: size, HittingSetIs: kind, TotalWeight: total,
		TargetGap: oj.Gap, Alpha: x.Pair.Balanced(), Out: oj.Out, MechanismOut: oj.MechanismOut, DryRun: true, Memory: &m, Estimate: est}
	// The time: the read measured, again for --mechanism-out's run, and the solve's.
	read := time.Since(start) - est.Propagation
	again := 0.0
	if oj.MechanismOut != "" {
		again = 1
	}
	s.EstimateSeconds = new([2]float64)
	for i, d := range []time.Duration{est.Low, est.High} {
		s.EstimateSeconds[i] = (read.Seconds()*(1+again) + d.Seconds() + again*est.Propagation.Seconds())
		if oj.MaxTime > 0 {
			s.EstimateSeconds[i] = min(s.EstimateSeconds[i], maxTimeKept(oj.MaxTime).Seconds())
		}
	}
	first := loaded + est.First
	s.FirstSeconds, s.MaxTimeWarning = first.Seconds(), oj.maxTimeWarning(first, loaded)
	if s.TargetGap == 0 {
		s.TargetGap = optimize.DefaultGap
	}
	s.WallSeconds, s.PeakRSSBytes = time.Since(start).Seconds(), memstat.PeakRSS()
	return s, nil
}

// maxTimeWarning is the dry run's warning that --max-time ends before the first
// mechanism, forecast first after the start (loaded of it the reading), or "".
func (oj OptimizeJob) maxTimeWarning(first, loaded time.Duration) string {
	within := firstWithin(oj.MaxTime, writeReserve(loaded, oj))
	if oj.MaxTime <= 0 || first <= within {
		return ""
	}
	return fmt.Sprintf("--max-time %v leaves %.3g s for reading, the cover and the first candidate's extension, which take about %.3g s here: "+
		"optimize would stop there with nothing written", oj.MaxTime, max(within.Seconds(), 0), first.Seconds())
}

// stageMechanism stages in out what `graphdp run` on the hitting set rec writes:
// run itself, reading the hitting set from a private copy (the same bytes as
// oj.Out, which is only staged: published with the mechanism or not at all) in a
// folder of its own under the system's temporary folder, removed afterwards.
func stageMechanism(ctx context.Context, oj OptimizeJob, job job.Job, rec arrow.RecordBatch, meta map[string]string, log *slog.Logger, out *sink.Outputs) error {
	tmp, err := os.MkdirTemp("", "graphdp-optimize-")
	if err != nil {
		return fmt.Errorf("running the optimised hitting set: %w", err)
	}
	defer os.RemoveAll(tmp)
	hit := filepath.Join(tmp, filepath.Base(oj.Out))
	if err := sink.WritePrivate(ctx, hit, rec, meta); err != nil {
		return fmt.Errorf("running the optimised hitting set: %w", err)
	}
	rj := job
	rj.HittingSet, rj.Out, rj.Summary, rj.Engine, rj.Progress = hit, oj.MechanismOut, "", "propagate", nil
	if _, err := pipeline.RunStaged(ctx, rj, log, out); err != nil {
		return fmt.Errorf("running the optimised hitting set: %w", err)
	}
	return nil
}

// readWeights returns w(v) per vertex and a description of where they came from.
func readWeights(ctx context.Context, oj OptimizeJob, job job.Job, vs *ingest.Vertices) ([]float64, string, error) {
	n := vs.IDs.Len()
	col := oj.WeightColumn
	if col == "" {
		col = "weight"
	}
	idCol := job.IngestColumns().ID
	path := oj.Weights
	if path == "" {
		has, err := ingest.HasColumn(ctx, job.Vertices, col)
		if err != nil {
			return nil, "", err
		}
		if !has {
			w := make([]float64, n)
			for i := range w {
				w[i] = 1
			}
			return w, "uniform (every dataset weighs 1)", nil
		}
		path = job.Vertices
	}
	t, err := ingest.ReadWeights(ctx, path, idCol, col, vs)
	if err != nil {
		return nil, "", err
	}
	w := make([]float64, n) // datasets a separate table does not list weigh 0
	for i, v := range t.Vertex {
		w[v] = t.Weight[i]
	}
	from := fmt.Sprintf("column %q of %s", col, path)
	if missing := n - len(t.Vertex); missing > 0 {
		from += fmt.Sprintf("; %d datasets not listed weigh 0", missing)
	}
	return w, from, nil
}
