package pipeline

import (
	"context"
	"encoding/json"
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
	"github.com/graphdp/graphdp/optimize"
	"github.com/graphdp/graphdp/report"
	"github.com/graphdp/graphdp/sink"
)

// OptimizeJob is graphdp optimize: a job's graph, answers, ε and δ (Job; its
// hitting set and out are not used) with the utility's weights and the outputs.
type OptimizeJob struct {
	Job
	Weights      string // a table of id, weight; "" = the vertices file's weight column if it has one, else uniform
	WeightColumn string // "" = "weight"
	Out          string // the hitting set to write (.parquet or .csv: what run reads)
	MechanismOut string // "" = none; else exactly what `run` on Out writes
	SummaryOut   string // "" = none; the optimize summary as JSON
	HTML         string // "" = none; the boundary-homogeneous page (report.RegionHTML)
	Gap          float64
	MaxTime      time.Duration
	AllBoundary  bool
	// Progress, if set, receives the solver's progress (every KKT check).
	OnProgress func(optimize.Progress)
}

// OptimizeSummary is what optimize reports (JSON with --summary, shortly on stderr).
type OptimizeSummary struct {
	Version  string  `json:"version"`
	Epsilon  float64 `json:"epsilon"`
	Delta    float64 `json:"delta"`
	Vertices int     `json:"vertices"`
	Edges    int64   `json:"edges"`
	Weights  string  `json:"weights"` // where the weights came from

	BoundaryEdges int64  `json:"boundary_edges"`
	HittingSet    int    `json:"hitting_set"`      // its size
	HittingSetIs  string `json:"hitting_set_kind"` // "minimum boundary cover" or "every boundary vertex"

	TotalWeight float64 `json:"total_weight"` // Σ w: the utility of answering truthfully
	Utility     float64 `json:"utility"`      // Σ w·p_true of the written mechanism, rounded down
	UpperBound  float64 `json:"upper_bound"`  // certified: no (ε,δ)-DP mechanism does better
	Gap         float64 `json:"gap"`          // upper_bound − utility
	RelativeGap float64 `json:"relative_gap"` // gap / utility
	TargetGap   float64 `json:"target_relative_gap"`
	Converged   bool    `json:"converged"`

	Alpha              float64               `json:"balanced_alpha"`
	Balanced           float64               `json:"balanced_utility"` // the balanced α on the same hitting set, extended
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
	Memory *MemoryModel `json:"memory_model,omitempty"`
}

// Optimize runs graphdp optimize (docs/OPTIMIZE.md): read the graph and the
// weights, optimise, write the hitting set, and, with MechanismOut, run the job on
// it exactly as `graphdp run` does.
func Optimize(ctx context.Context, oj OptimizeJob, log *slog.Logger) (*OptimizeSummary, error) {
	start := time.Now()
	job := oj.Job
	job.HittingSet, job.Mechanism, job.Out = "", "", ""
	x, err := LoadInputs(ctx, &job)
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
	res, err := optimize.Optimize(ctx, prob, optimize.Options{Gap: oj.Gap, MaxTime: oj.MaxTime, Workers: job.Workers,
		Hit: hit, Progress: oj.OnProgress})
	if err != nil {
		return nil, err
	}
	optSeconds := time.Since(t0).Seconds()
	hom := res.Homogeneous
	s := &OptimizeSummary{Version: Version, Epsilon: job.Epsilon, Delta: job.Delta, Vertices: n, Edges: x.Graph.M(),
		Weights: from, BoundaryEdges: check.Hitting(x.Graph, vs.Answer, res.Hit, 0).Boundary,
		HittingSet: len(res.Hit), HittingSetIs: kind,
		TotalWeight: res.TotalWeight, Utility: res.Utility, UpperBound: res.Upper, Gap: res.Gap,
		TargetGap: oj.Gap, Converged: res.Converged, Alpha: res.Alpha, Balanced: res.Balanced,
		GainOverBalanced: res.Utility - res.Balanced, Randomized: res.Randomized,
		GainOverRandomized: res.Utility - res.Randomized, Homogeneous: hom, Method: res.Method,
		Iterations: res.Iterations, Restarts: res.Restarts, Mixed: res.Mixed, Out: oj.Out,
		MechanismOut: oj.MechanismOut, OptimizeSeconds: optSeconds}
	if s.TargetGap == 0 {
		s.TargetGap = optimize.DefaultGap
	}
	if res.Utility > 0 {
		s.RelativeGap = res.Gap / res.Utility
	}

	rec, err := BuildHittingSet(nil, vs, job.IngestColumns(), res.Hit, res.PTrue)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	meta := OutputMetadata(job.Epsilon, job.Delta, &x.Loaded, map[string]string{
		"graphdp.hitting_set": kind,
		"graphdp.policy":      "optimize: maximises Σ w·p_true (" + from + ")",
		"graphdp.utility":     num(res.Utility),
		"graphdp.upper_bound": num(res.Upper),
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
	s.WallSeconds, s.PeakRSSBytes = time.Since(start).Seconds(), PeakRSS()
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

// planOptimize is optimize's dry run once the inputs and weights are read: what
// the solve would start from (the boundary, the hitting set's size, the total
// weight), nothing solved or written.
func planOptimize(ctx context.Context, oj OptimizeJob, x *Inputs, weight []float64, from string, start time.Time) (*OptimizeSummary, error) {
	vs := x.Vertices
	bc, err := cover.Boundary(ctx, x.Graph, vs.Answer)
	if err != nil {
		return nil, err
	}
	size, kind := len(bc.Vertices), "minimum boundary cover"
	if oj.AllBoundary {
		size, kind = bc.Boundary, "every boundary vertex"
	}
	var total float64
	for _, w := range weight {
		total += w
	}
	m := x.Memory
	s := &OptimizeSummary{Version: Version, Epsilon: oj.Epsilon, Delta: oj.Delta, Vertices: vs.IDs.Len(), Edges: x.Graph.M(),
		Weights: from, BoundaryEdges: bc.BoundaryEdges, HittingSet: size, HittingSetIs: kind, TotalWeight: total,
		TargetGap: oj.Gap, Alpha: x.Pair.Balanced(), Out: oj.Out, MechanismOut: oj.MechanismOut, DryRun: true, Memory: &m}
	if s.TargetGap == 0 {
		s.TargetGap = optimize.DefaultGap
	}
	s.WallSeconds, s.PeakRSSBytes = time.Since(start).Seconds(), PeakRSS()
	return s, nil
}

// stageMechanism stages in out what `graphdp run` on the hitting set rec writes:
// run itself, reading the hitting set from a private copy (the same bytes as
// oj.Out, which is only staged: published with the mechanism or not at all) in a
// folder of its own under the system's temporary folder, removed afterwards.
func stageMechanism(ctx context.Context, oj OptimizeJob, job Job, rec arrow.RecordBatch, meta map[string]string, log *slog.Logger, out *sink.Outputs) error {
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
	if _, err := stageRun(ctx, rj, log, out); err != nil {
		return fmt.Errorf("running the optimised hitting set: %w", err)
	}
	return nil
}

// readWeights returns w(v) per vertex and a description of where they came from.
func readWeights(ctx context.Context, oj OptimizeJob, job Job, vs *ingest.Vertices) ([]float64, string, error) {
	n := vs.IDs.Len()
	col := oj.WeightColumn
	if col == "" {
		col = "weight"
	}
	idCol := job.IngestColumns().ID
	path := oj.Weights
	if path == "" {
		has, err := ingest.HasColumn(job.Vertices, col)
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

// Human prints the short summary people read on stderr.
func (s *OptimizeSummary) Human(w io.Writer) {
	fmt.Fprintf(w, "graphdp optimize: %d datasets, %d edges (%d boundary); weights: %s\n", s.Vertices, s.Edges, s.BoundaryEdges, s.Weights)
	fmt.Fprintf(w, "  utility Σ w·p_true = %.10g of %.10g possible (total weight)\n", s.Utility, s.TotalWeight)
	state := "within the target"
	if !s.Converged {
		state = fmt.Sprintf("NOT within the target %.3g (time or iteration limit)", s.TargetGap)
	}
	fmt.Fprintf(w, "  certified upper bound %.10g: gap %.3g (relative %.3g, %s)\n", s.UpperBound, s.Gap, s.RelativeGap, state)
	fmt.Fprintf(w, "  balanced α = %.6g on the same hitting set: utility %.10g, gain %+.6g (%+.3g%%)\n", s.Alpha, s.Balanced, s.GainOverBalanced, 100*s.GainOverBalanced/max(s.Balanced, 1e-300))
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

// region lays out the boundary-homogeneous page's data.
func region(p *optimize.Problem, res *optimize.Result, s *OptimizeSummary) *report.Region {
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
		UpperBound:  res.Upper, Epsilon: s.Epsilon, Delta: s.Delta, Weights: s.Weights}
}
