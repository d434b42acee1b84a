package toolkit

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/graphdp/graphdp/dp"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/cover"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/optimize"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/report"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/memstat"
	"github.com/graphdp/graphdp/internal/version"
)

// OptimizeJob is graphdp optimize: a job's graph, answers, ε and δ (Job; its
// hitting set and out are not used) with the utility's weights and the outputs.
type OptimizeJob struct {
	pipeline.Job
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
	// Chords is the number of chords (and tangents) of μ-GDP's upper bound
	// (optimize.Options.Chords; 0: optimize.DefaultChords).
	Chords int
}

// OptimizeSummary is what optimize reports (JSON with --summary, shortly on stderr).
type OptimizeSummary struct {
	Version string  `json:"version"`
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	// Framework and Privacy are the privacy framework and its parameters in words
	// (Epsilon and Delta are 0 for the frameworks other than (ε,δ)).
	Framework string `json:"framework"`
	Privacy   string `json:"privacy"`
	// Lines is the number of row families of the LP (optimize.Result.Lines); for
	// μ-GDP, Chords is the grid asked and Relaxation says that the upper bound is
	// certified on the tangents' outer polytope while the mechanism is μ-GDP.
	Lines      int    `json:"lines,omitempty"`
	Chords     int    `json:"chords,omitempty"`
	Relaxation string `json:"relaxation,omitempty"`
	Vertices   int    `json:"vertices"`
	Edges      int64  `json:"edges"`
	Weights    string `json:"weights"` // where the weights came from

	BoundaryEdges int64  `json:"boundary_edges"`
	HittingSet    int    `json:"hitting_set"`      // its size
	HittingSetIs  string `json:"hitting_set_kind"` // "minimum boundary cover" or "every boundary vertex"

	// Objective is the utility maximised: "accuracy" (Σ w·p_true), "balanced" (each
	// answer weighs the same in total: Σ w'·p_true, w' = w/(2·W_answer)) or "worst"
	// (the smallest p_true, then balanced); utility, its bound and the gains are in
	// the objective's units.
	Objective string `json:"objective"`
	// Floors are the lower bounds on p_true met (answer_0, answer_1; 0: none), for
	// worst raised to its floor.
	Floors Floors `json:"min_accuracy"`
	// Worst is worst's certificate: the floor met and the bound no DP mechanism reaches.
	Worst *optimize.WorstCase `json:"worst,omitempty"`

	TotalWeight float64 `json:"total_weight"` // Σ w': the utility of answering truthfully
	Utility     float64 `json:"utility"`      // Σ w'·p_true of the written mechanism, rounded down
	UpperBound  float64 `json:"upper_bound"`  // certified: no (ε,δ)-DP mechanism does better
	Gap         float64 `json:"gap"`          // upper_bound − utility
	RelativeGap float64 `json:"relative_gap"` // gap / utility
	TargetGap   float64 `json:"target_relative_gap"`
	Converged   bool    `json:"converged"`
	// Classes are the written mechanism's per-answer figures (sensitivity,
	// specificity, balanced accuracy, min p_true), next to the utility.
	Classes report.Classes `json:"classes"`
	// Warnings say, in plain words, when the written mechanism is degenerate (a
	// constant answer, or an answer served worse than by a coin: report.Classes.Warnings)
	// and name the option that fixes it.
	Warnings []string `json:"warnings,omitempty"`
	// Deterministic are the written mechanism's datasets with p_one exactly 0 or 1,
	// and which of them are private (check.Deterministic; the mechanism is exactly
	// DP, so those with neighbours are).
	Deterministic *check.Deterministic `json:"deterministic,omitempty"`
	// TradeOff is the utility against a common floor on p_true (with --html, which
	// draws it): a few certified solves from ½ to the largest floor.
	TradeOff []optimize.TradePoint `json:"trade_off,omitempty"`

	Alpha              float64               `json:"balanced_alpha"`
	Balanced           float64               `json:"balanced_utility"` // the balanced α on the same hitting set, extended
	BalancedMeets      bool                  `json:"balanced_meets_floors"`
	GainOverBalanced   float64               `json:"gain_over_balanced"`
	Randomized         float64               `json:"randomized_response_utility"` // p_true = α everywhere
	GainOverRandomized float64               `json:"gain_over_randomized_response"`
	Homogeneous        *optimize.Homogeneous `json:"homogeneous,omitempty"` // docs/DESIGN.md §3.6
	Method             string                `json:"method"`
	Iterations         int                   `json:"iterations"`
	Restarts           int                   `json:"restarts"`
	Mixed              float64               `json:"mixing_weight"`
	Out                string                `json:"out"`
	MechanismOut       string                `json:"mechanism_out,omitempty"`
	WallSeconds        float64               `json:"wall_seconds"`
	OptimizeSeconds    float64               `json:"optimize_seconds"`
	PeakRSSBytes       int64                 `json:"peak_rss_bytes"`
	// DryRun: the inputs and weights were read and checked, nothing solved or
	// written (Job.DryRun); the hitting set's size is the cover's it would start from.
	DryRun bool `json:"dry_run,omitempty"`
	// Memory is the model Load checked the job against (the graph and propagate's
	// arrays; the solver's come on top).
	Memory *pipeline.MemoryModel `json:"memory_model,omitempty"`
}

// Floors are the floors on p_true by answer, for the summary.
type Floors struct {
	Answer0 float64 `json:"answer_0"`
	Answer1 float64 `json:"answer_1"`
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
	x, err := pipeline.LoadInputs(ctx, &job, pipeline.Request{Engine: "propagate"})
	if err != nil {
		return nil, err
	}
	vs := x.Vertices
	n := vs.IDs.Len()
	weight, from, err := readWeights(ctx, oj, job, vs)
	if err != nil {
		return nil, err
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
	opts := optimize.Options{Gap: oj.Gap, MaxTime: oj.MaxTime, Workers: job.Workers,
		Hit: hit, Objective: objectiveOr(oj.Objective), Floors: oj.Floors, Chords: oj.Chords}
	res, err := optimize.Optimize(ctx, prob, opts)
	if err != nil {
		return nil, err
	}
	optSeconds := time.Since(t0).Seconds()
	var curve []optimize.TradePoint
	if oj.HTML != "" {
		// The page's trade-off curve: a few more certified solves, before anything is written.
		t1 := time.Now()
		if curve, err = optimize.TradeOff(ctx, prob, opts, res, tradePoints); err != nil {
			return nil, err
		}
		log.Info("trade-off curve", "stage", "optimize", "points", len(curve), "seconds", time.Since(t1).Seconds())
	}
	s, err := summarise(ctx, oj, x, res, from, kind, curve, optSeconds, log)
	if err != nil {
		return nil, err
	}

	rec, err := pipeline.BuildHittingSet(nil, vs, job.IngestColumns(), res.Hit, res.PTrue)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	meta := x.Loaded.Metadata(x.Pair, "", map[string]string{
		"graphdp.hitting_set": kind,
		"graphdp.policy":      "optimize: " + s.policy(),
		"graphdp.utility":     words.Num(res.Utility),
		"graphdp.upper_bound": words.Num(res.Upper),
	})
	// Every output is staged, then all are published together (sink.Outputs).
	out := sink.NewOutputs()
	defer out.Abort()
	if err := out.Write(ctx, oj.Out, rec, meta); err != nil {
		return nil, err
	}
	if oj.MechanismOut != "" {
		if err := stageMechanism(ctx, oj, job, rec, meta, log, out); err != nil {
			return nil, err
		}
	}
	s.WallSeconds, s.PeakRSSBytes = time.Since(start).Seconds(), memstat.PeakRSS()
	if oj.HTML != "" {
		if err := out.WriteFile(ctx, oj.HTML, func(w io.Writer) error {
			return report.RegionHTML(w, region(prob, res, s))
		}); err != nil {
			return s, err
		}
	}
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
	log.Info("written", "stage", "write", "out", oj.Out, "rows", len(res.Hit), "mechanism_out", oj.MechanismOut, "html", oj.HTML, "summary", oj.SummaryOut)
	return s, nil
}

// summarise is optimize's summary of the solve res (from the weights from, the
// hitting set of kind kind), with its warnings logged.
func summarise(ctx context.Context, oj OptimizeJob, x *pipeline.Inputs, res *optimize.Result, from, kind string,
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
	if x.Pair.Framework() == dp.GaussianDP && res.Lines > 0 {
		s.Chords = max(oj.Chords, 0)
		if s.Chords == 0 {
			s.Chords = optimize.DefaultChords
		}
		s.Relaxation = "the mechanism is μ-GDP (solved on chords below U, an inner polytope); upper_bound is certified on tangents above U (an outer one), so gap covers both: more --chords narrow it"
	}
	s.Warnings = degenerate(s)
	s.Deterministic = pipeline.FindDeterministic(x.Graph, res.Solution.POne, res.Hit, vs.IDs)
	if n := len(s.Warnings); n > 0 {
		fix := strings.TrimPrefix(strings.TrimSpace(s.Warnings[n-1]), "fix: ")
		for _, l := range s.Warnings[:n-1] {
			log.Warn(strings.TrimPrefix(l, "WARNING: "), "stage", "optimize", "fix", fix)
		}
	}
	if s.TargetGap == 0 {
		s.TargetGap = optimize.DefaultGap
	}
	if res.Utility > 0 {
		s.RelativeGap = res.Gap / res.Utility
	}

	return s, nil
}

// planOptimize is optimize's dry run once the inputs and weights are read: the
// solver's checks (optimize.Precheck), and what the solve would start from (the
// boundary, the hitting set's size, the objective's total weight); nothing solved
// or written.
func planOptimize(ctx context.Context, oj OptimizeJob, x *pipeline.Inputs, weight []float64, from string, start time.Time) (*OptimizeSummary, error) {
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
	total, err := optimize.Precheck(prob, optimize.Options{Objective: obj, Floors: oj.Floors})
	if err != nil {
		return nil, err
	}
	m := x.Memory
	s := &OptimizeSummary{Version: version.Version, Epsilon: oj.Epsilon, Delta: oj.Delta, Vertices: vs.IDs.Len(), Edges: x.Graph.M(),
		Objective: string(obj), Floors: Floors{oj.Floors[0], oj.Floors[1]}, Weights: from, BoundaryEdges: bc.BoundaryEdges, HittingSet: size, HittingSetIs: kind, TotalWeight: total,
		TargetGap: oj.Gap, Alpha: x.Pair.Balanced(), Out: oj.Out, MechanismOut: oj.MechanismOut, DryRun: true, Memory: &m}
	if s.TargetGap == 0 {
		s.TargetGap = optimize.DefaultGap
	}
	s.WallSeconds, s.PeakRSSBytes = time.Since(start).Seconds(), memstat.PeakRSS()
	return s, nil
}

// stageMechanism stages in out what `graphdp run` on the hitting set rec writes:
// run itself, reading the hitting set from a private copy (the same bytes as
// oj.Out, which is only staged: published with the mechanism or not at all) in a
// folder of its own under the system's temporary folder, removed afterwards.
func stageMechanism(ctx context.Context, oj OptimizeJob, job pipeline.Job, rec arrow.RecordBatch, meta map[string]string, log *slog.Logger, out *sink.Outputs) error {
	tmp, err := os.MkdirTemp("", "graphdp-optimize-")
	if err != nil {
		return fmt.Errorf("running the optimised hitting set: %w", err)
	}
	defer os.RemoveAll(tmp)
	hit := filepath.Join(tmp, filepath.Base(oj.Out))
	if err := sink.Write(ctx, hit, rec, meta); err != nil {
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
func readWeights(ctx context.Context, oj OptimizeJob, job pipeline.Job, vs *ingest.Vertices) ([]float64, string, error) {
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

// objectiveWords says what the utility is, for people.
var objectiveWords = map[string]string{
	"accuracy": "accuracy Σ w·p_true",
	"balanced": "balanced Σ w'·p_true, each answer weighing ½ in total (uniform weights: the balanced accuracy)",
	"worst":    "worst: the smallest p_true, then the balanced utility Σ w'·p_true",
}

// policy is the objective and floors in one line (the output's metadata).
func (s *OptimizeSummary) policy() string {
	p := fmt.Sprintf("objective %s (%s)", s.Objective, s.Weights)
	if s.Floors.Answer0 > 0 || s.Floors.Answer1 > 0 {
		p += fmt.Sprintf("; p_true ≥ %v on answer 1, ≥ %v on answer 0", s.Floors.Answer1, s.Floors.Answer0)
	}
	return p
}

// degenerate is the warnings about the written mechanism and the option that fixes
// them: the balanced objective for the accuracy objective's constant answers, a
// floor under the answer served worse than by a coin otherwise.
func degenerate(s *OptimizeSummary) []string {
	ws := s.Classes.Warnings()
	if ws == nil {
		return nil
	}
	var fix string
	switch c := s.Classes; {
	case s.Objective == string(optimize.Accuracy):
		fix = "fix: --objective balanced (the default) weighs both answers the same; --min-accuracy t puts a floor under every dataset's p_true (the largest possible is printed if t is too high)"
	case c.Answer1.Datasets > 0 && c.Answer1.Mean < report.PoorMean:
		fix = "fix: --min-accuracy-1 t puts a floor under every answer-1 dataset's p_true (the largest possible is printed if t is too high)"
	case c.Answer0.Datasets > 0 && c.Answer0.Mean < report.PoorMean:
		fix = "fix: --min-accuracy-0 t puts a floor under every answer-0 dataset's p_true (the largest possible is printed if t is too high)"
	default:
		fix = "fix: --min-accuracy t puts a floor under every dataset's p_true"
	}
	return append(ws, "  "+fix)
}

// Human prints the short summary people read on stderr.
func (s *OptimizeSummary) Human(w io.Writer) {
	fmt.Fprintf(w, "graphdp optimize: %d datasets, %d edges (%d boundary); weights: %s\n", s.Vertices, s.Edges, s.BoundaryEdges, s.Weights)
	fmt.Fprintf(w, "  objective: %s\n", objectiveWords[s.Objective])
	var floors []string
	for _, f := range []struct {
		t    float64
		name string
	}{{s.Floors.Answer1, "answer-1"}, {s.Floors.Answer0, "answer-0"}} {
		if f.t > 0 {
			floors = append(floors, fmt.Sprintf("p_true ≥ %.10g on every %s dataset", f.t, f.name))
		}
	}
	if floors != nil {
		fmt.Fprintf(w, "  floors met: %s\n", strings.Join(floors, ", "))
	}
	if wc := s.Worst; wc != nil {
		why := ""
		if wc.Edge && wc.Floor == wc.Alpha {
			why = "; the balanced α, which a boundary edge bounds"
		}
		fmt.Fprintf(w, "  worst p_true %s, the most possible (certified: no DP mechanism gives every dataset p_true ≥ %s%s)\n",
			strconv.FormatFloat(wc.Lower, 'g', -1, 64), strconv.FormatFloat(wc.Upper, 'g', -1, 64), why)
	}
	fmt.Fprintf(w, "  utility = %.10g of %.10g possible (total weight)\n", s.Utility, s.TotalWeight)
	state := "within the target"
	if !s.Converged {
		state = fmt.Sprintf("NOT within the target %.3g (time or iteration limit)", s.TargetGap)
	}
	fmt.Fprintf(w, "  %s\n", s.Classes.Line())
	for _, l := range s.Warnings {
		fmt.Fprintf(w, "  %s\n", l)
	}
	if s.Deterministic != nil {
		for _, l := range s.Deterministic.Lines() {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	fmt.Fprintf(w, "  certified upper bound %.10g: gap %.3g (relative %.3g, %s)\n", s.UpperBound, s.Gap, s.RelativeGap, state)
	meets := ""
	if !s.BalancedMeets {
		meets = " (misses the floors)"
	}
	fmt.Fprintf(w, "  balanced α = %.6g on the same hitting set%s: utility %.10g, gain %+.6g (%+.3g%%)\n", s.Alpha, meets, s.Balanced, s.GainOverBalanced, 100*s.GainOverBalanced/max(s.Balanced, 1e-300))
	fmt.Fprintf(w, "  randomized response (p_true = α everywhere): utility %.10g, gain %+.6g\n", s.Randomized, s.GainOverRandomized)
	if h := s.Homogeneous; h != nil && h.Feasible {
		a := func(x float64, count int) string {
			if count == 0 {
				return "— (none in the hitting set)"
			}
			return fmt.Sprintf("%.6g", x)
		}
		fmt.Fprintf(w, "  best boundary-homogeneous pair: α₀ = %s, α₁ = %s, utility %.10g\n", a(h.Alpha0, h.Hit0), a(h.Alpha1, h.Hit1), h.Utility)
	}
	fmt.Fprintf(w, "  %s: %d iterations, %d restarts, %.3gs\n", s.Method, s.Iterations, s.Restarts, s.OptimizeSeconds)
	fmt.Fprintf(w, "  wrote %s (%d datasets, %s)\n", s.Out, s.HittingSet, s.HittingSetIs)
	if s.MechanismOut != "" {
		fmt.Fprintf(w, "  wrote %s (graphdp run on it)\n", s.MechanismOut)
	}
}

// regionGrid is the side of the boundary-homogeneous page's grid.
const regionGrid = 60

// tradePoints is how many floors the page's trade-off curve is solved at.
const tradePoints = 6

// region lays out the boundary-homogeneous page's data.
func region(p *optimize.Problem, res *optimize.Result, s *OptimizeSummary) *report.Region {
	var trades []report.Trade
	for _, t := range s.TradeOff {
		trades = append(trades, report.Trade{Floor: t.Floor, Utility: t.Utility, Upper: t.Upper})
	}
	h := res.Homogeneous
	var sum, cnt [2]float64
	for i, v := range res.Hit {
		a := 0
		if p.Answer[v] {
			a = 1
		}
		sum[a] += res.PTrue[i]
		cnt[a]++
	}
	mean := func(a int) float64 {
		if cnt[a] == 0 {
			return 1
		}
		return sum[a] / cnt[a]
	}
	return &report.Region{Utility: h.Grid(regionGrid), TotalWeight: res.TotalWeight,
		Balanced:    report.Point{Alpha0: res.Alpha, Alpha1: res.Alpha, Utility: res.Balanced},
		Homogeneous: report.Point{Alpha0: h.Alpha0, Alpha1: h.Alpha1, Utility: h.Utility},
		Optimum:     report.Point{Alpha0: mean(0), Alpha1: mean(1), Utility: res.Utility},
		UpperBound:  res.Upper, Epsilon: s.Epsilon, Delta: s.Delta, Weights: s.Weights,
		Objective: s.Objective, TradeOff: trades, Chosen: report.Trade{Floor: s.Classes.MinPTrue, Utility: res.Utility, Upper: res.Upper}}
}
