package toolkit

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/optimize"
	"github.com/graphdp/graphdp/report"
)

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
	// RandomizedFloor is randomized response's p_true, the pair's balanced α: the
	// floor of every answer whose floor the user did not set (optimize.RandomizedFloor).
	RandomizedFloor float64 `json:"randomized_response_floor"`
	// FloorWarnings warn of floors the user set below ½ (the parameters only).
	FloorWarnings []string `json:"floor_warnings,omitempty"`
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
	// draws it): a few certified solves from ½ to the largest floor, those that do
	// not fit in tradeBudget (or --max-time) bounded instead (TradePoint.Bounded).
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
	// Memory is the model load.Load checked the job against (the graph and propagate's
	// arrays; the solver's come on top).
	Memory *load.MemoryModel `json:"memory_model,omitempty"`
	// Estimate is a dry run's forecast of the solve (optimize.EstimateCost): the
	// solver's memory on top of Memory's, and EstimateSeconds the whole command's
	// wall time, low and high (reading, the solve, --mechanism-out's run).
	Estimate        *optimize.Estimate `json:"estimate,omitempty"`
	EstimateSeconds *[2]float64        `json:"estimate_seconds,omitempty"`
	// FirstSeconds is when, in the dry run's forecast, the command has a first
	// mechanism to write (the reading, the cover, the first candidate's extension);
	// MaxTimeWarning says that --max-time ends before it: nothing would be written.
	FirstSeconds   float64 `json:"first_mechanism_seconds,omitempty"`
	MaxTimeWarning string  `json:"max_time_warning,omitempty"`
}

// Floors are the floors on p_true by answer, for the summary.
type Floors struct {
	Answer0 float64 `json:"answer_0"`
	Answer1 float64 `json:"answer_1"`
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
	// Shareable (docs/FORMATS.md, "Private and shareable outputs"): the parameters,
	// the public graph and the verdict only. The utility, the bounds, the gains, the
	// per-answer figures, the boundary and the hitting set's size are computed from
	// the answers: --summary and --json (private) give them.
	fmt.Fprintf(w, "graphdp optimize: %d datasets, %d edges; weights: %s\n", s.Vertices, s.Edges, s.Weights)
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
	// The smallest p_true any dataset can have (the floors, parameters only); the
	// mechanism's own smallest is computed from the answers: classes.min_p_true.
	fmt.Fprintf(w, "  per-dataset minimum p_true: ≥ %.10g (randomized response's α = %.10g is the default floor; --min-accuracy lowers it)\n",
		min(s.Floors.Answer0, s.Floors.Answer1), s.RandomizedFloor)
	for _, fw := range s.FloorWarnings {
		fmt.Fprintf(w, "  WARNING: %s\n", fw)
	}
	if !s.Converged {
		fmt.Fprintf(w, "  WARNING: NOT within the target gap %.3g (time or iteration limit)\n", s.TargetGap)
	}
	if s.Deterministic != nil {
		// Their count only (the verdict): which datasets, and why, are in the summary.
		if l := s.Deterministic.Lines(); len(l) > 0 {
			fmt.Fprintf(w, "  %s\n", l[0])
		}
	}
	// No method name: an empty boundary needs no solver, so it tells the answers apart.
	fmt.Fprintf(w, "  solved in %.3gs\n", s.OptimizeSeconds)
	fmt.Fprintf(w, "  wrote %s (%s)\n", s.Out, s.HittingSetIs)
	if s.MechanismOut != "" {
		fmt.Fprintf(w, "  wrote %s (graphdp run on it)\n", s.MechanismOut)
	}
	fmt.Fprintf(w, "  utility, certified bound, gains and per-answer figures: private, in --summary and --json\n")
}

// regionGrid is the side of the boundary-homogeneous page's grid.
const regionGrid = 60

// tradePoints is how many floors the page's trade-off curve is solved at.
const tradePoints = 6

// tradeBudget is what the trade-off curve's solves may take after a solve of
// duration solve: a fifth of it, so that --html adds at most about a fifth to
// optimize's time. Its floors whose solves would not fit are bounded instead
// (optimize.TradeOff), and the page draws them so.
func tradeBudget(solve time.Duration) time.Duration { return solve / 5 }

// region lays out the boundary-homogeneous page's data.
func region(p *optimize.Problem, res *optimize.Result, s *OptimizeSummary) *report.Region {
	var trades []report.Trade
	for _, t := range s.TradeOff {
		trades = append(trades, report.Trade{Floor: t.Floor, Utility: t.Utility, Upper: t.Upper, Bounded: t.Bounded})
	}
	grid, h, cut := res.Grid(regionGrid), res.Homogeneous, ""
	if h == nil { // --max-time ended the search for the pair
		h, cut = &optimize.Homogeneous{}, "--max-time ended the solve before the best boundary-homogeneous pair was searched for: it is not marked."
		if grid == nil {
			grid = h.Grid(regionGrid) // no family: no value
			cut = "--max-time ended the solve before the boundary-homogeneous family was computed: no cell has a value, and the best pair is not marked."
		}
	}
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
	return &report.Region{Utility: grid, Cut: cut, TotalWeight: res.TotalWeight,
		Balanced:    report.Point{Alpha0: res.Alpha, Alpha1: res.Alpha, Utility: res.Balanced},
		Homogeneous: report.Point{Alpha0: h.Alpha0, Alpha1: h.Alpha1, Utility: h.Utility},
		Optimum:     report.Point{Alpha0: mean(0), Alpha1: mean(1), Utility: res.Utility},
		UpperBound:  res.Upper, Epsilon: s.Epsilon, Delta: s.Delta, Weights: s.Weights,
		Objective: s.Objective, TradeOff: trades, Chosen: report.Trade{Floor: s.Classes.MinPTrue, Utility: res.Utility, Upper: res.Upper}}
}
