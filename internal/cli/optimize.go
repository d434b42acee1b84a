package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/optimize"
	"github.com/graphdp/graphdp/sink"
	"github.com/graphdp/graphdp/toolkit"

	"github.com/graphdp/graphdp/internal/files"
	"github.com/graphdp/graphdp/internal/progress"
	"github.com/graphdp/graphdp/internal/words"
)

// optimizeOptions are optimize's flags over its job.
type optimizeOptions struct {
	job       toolkit.OptimizeJob
	maxTime   string
	workers   int
	quiet     bool
	dryRun    bool
	json      bool
	objective string
	floor     [3]float64 // --min-accuracy-0, --min-accuracy-1, --min-accuracy
	flags     *toolFlags
}

const optimizeAbout = `Finds the hitting-set values whose optimal mechanism maximises a utility over
ALL (ε,δ)-DP mechanisms (--objective):
  balanced (default)  each answer weighs the same in total: the mean of the two
                      answers' weighted mean p_true (uniform weights: the mean of
                      sensitivity and specificity). Pick this one.
  worst               the smallest p_true of any dataset (the balanced α wherever
                      a boundary edge exists), then the balanced utility
  accuracy            the expected accuracy Σ w(v)·p_true(v) as weighted: with a
                      rare answer its optimum can be a constant answer
By default no dataset gets less than under randomized response: every p_true is
at least the framework's randomized-response value α ((e^ε+δ)/(e^ε+1) for (ε,δ),
Φ(μ/2) for μ-GDP, the balanced value of a profile or curve), which is always met.
--min-accuracy t (and per answer --min-accuracy-1, --min-accuracy-0) sets the floor
instead: every dataset's p_true ≥ t is a constraint, and a t below α lowers the
default (--min-accuracy 0: none; a floor below 0.5 is warned about). Floors no DP
mechanism meets are refused (exit 3) with the largest that are met. Weights w ≥ 0: a column (--weight-column,
default weight) of --weights FILE (id, weight; datasets not listed weigh 0), else of
the vertices file, else every dataset weighs 1. To count false positives and false
negatives differently, use --objective accuracy and weigh the datasets by answer
(docs/OPTIMIZE.md).
Solves the linear program of docs/OPTIMIZE.md (a first-order primal-dual method,
PDHG with restarts), rounds through run's certified engine, and certifies the
result with a dual bound: no DP mechanism's utility exceeds the upper bound shown.
Every framework: a privacy profile or trade-off curve is linear (the LP is exact);
under --gdp-mu the LP uses --chords chords below μ-GDP's bound (the mechanism is
μ-GDP) and the bound is certified on the tangents above it, so the gap covers both.
Writes the hitting set (--out, what run reads), optionally the mechanism
(--mechanism-out: exactly what run writes on that hitting set) and a JSON summary.`

func parseOptimize(args []string, stdout io.Writer) (*optimizeOptions, error) {
	take := toolInputs{provenance: true, allowNonPrivate: true}
	t := newToolFlags("optimize", "--edges E --vertices V --epsilon ε [--delta δ] --out H [--mechanism-out M] [--weights W] [--gap G]", optimizeAbout, stdout, take)
	o := &optimizeOptions{flags: t}
	fs := t.fs
	oj := &o.job
	fs.StringVar(&oj.Out, "out", "", "hitting-set `FILE` to write: .parquet or .csv (what run reads) (required)")
	fs.StringVar(&oj.MechanismOut, "mechanism-out", "", "also write the mechanism to `FILE`, exactly as run on --out writes it (.parquet, .arrow/.feather or .csv)")
	fs.StringVar(&oj.SummaryOut, "summary", "", "write the optimize summary as JSON to `FILE`")
	fs.StringVar(&oj.HTML, "html", "", "write a page to `FILE` drawing the utility over the boundary-homogeneous (α₀, α₁) region, with the balanced, best homogeneous and optimal points")
	fs.Var((*tableFlag)(&oj.Weights), "weights", "weights `TABLE` (.parquet or .csv file, folder or glob; repeatable): id and the weight column (default: the vertices file's weight column if any, else uniform)")
	fs.StringVar(&oj.WeightColumn, "weight-column", "weight", "name of the weight `COLUMN`")
	fs.Var((*numberFlag)(&oj.Gap), "gap", "target relative gap `G` between the certified upper bound and the utility (default 1e-6)")
	fs.IntVar(&oj.Chords, "chords", 0, fmt.Sprintf("under --gdp-mu: `N` chords of μ-GDP's bound in the LP, tangents in the certificate (default %d; more narrow the gap)", optimize.DefaultChords))
	fs.StringVar(&o.maxTime, "max-time", "", "a deadline for the whole command (`DURATION`, e.g. 10m), kept within 10% + 2 s: the solve stops in time to write the best found, with its certified gap; when reading, the cover and the first candidate's extension do not fit in it, nothing is written (exit status 1)")
	fs.IntVar(&o.workers, "workers", 0, "`N` cores to use (0: all)")
	fs.BoolVar(&oj.AllBoundary, "all-boundary", false, "optimise the values of every boundary dataset, not of a minimum cover")
	fs.StringVar(&o.objective, "objective", string(optimize.DefaultObjective), "utility `NAME` to maximise: balanced (each answer weighs the same), worst (the smallest p_true) or accuracy (Σ w·p_true as weighted)")
	fs.Var((*numberFlag)(&o.floor[2]), "min-accuracy", "every dataset's p_true must be at least `P` (a constraint; default: randomized response's α; 0: none)")
	fs.Var((*numberFlag)(&o.floor[1]), "min-accuracy-1", "every answer-1 dataset's p_true (the sensitivity's floor, per dataset) must be at least `P` (default: α)")
	fs.Var((*numberFlag)(&o.floor[0]), "min-accuracy-0", "every answer-0 dataset's p_true (the specificity's floor, per dataset) must be at least `P` (default: α)")
	fs.BoolVar(&o.quiet, "quiet", false, "nothing on stderr but errors")
	fs.BoolVar(&o.dryRun, "dry-run", false, dryRunUsage+"; nothing is solved")
	fs.BoolVar(&o.json, "json", false, jsonUsage+": the optimize summary, as --summary writes it, instead of the summary on stderr")
	j, source, probs, err := t.parse(args, take)
	if err != nil {
		return nil, err
	}
	oj.Job = j // after the flags: Job holds what a config file gave
	oj.DryRun = o.dryRun
	if t.jf.set("workers") || oj.Workers == 0 {
		oj.Workers = o.workers
	}
	probs = append(probs, hittingSetOutProblems(oj.Out)...)
	if p := sink.FormatProblem("mechanism-out", oj.MechanismOut); oj.MechanismOut != "" && p != "" {
		probs = append(probs, p)
	}
	probs = append(probs, t.fileProblems(&j, files.In("weights", oj.Weights), files.Out("out", oj.Out),
		files.Out("mechanism-out", oj.MechanismOut), files.Out("summary", oj.SummaryOut), files.Out("html", oj.HTML))...)
	if oj.Chords < 0 || oj.Chords > 1<<14 {
		probs = append(probs, fmt.Sprintf("chords: must be in [0, %d] (0 means %d), got %d", 1<<14, optimize.DefaultChords, oj.Chords))
	}
	if !(oj.Gap >= 0 && oj.Gap < 1) {
		probs = append(probs, fmt.Sprintf("gap: must be in [0, 1) (0 means %g), got %v", optimize.DefaultGap, oj.Gap))
	}
	if o.maxTime != "" {
		d, err := time.ParseDuration(o.maxTime)
		if err != nil || d <= 0 {
			probs = append(probs, fmt.Sprintf("max-time: %q is not a positive duration (such as 90s or 10m)", o.maxTime))
		}
		oj.MaxTime = d
	}
	if oj.Workers < 0 || oj.Workers > job.MaxWorkers {
		probs = append(probs, fmt.Sprintf("workers: must be in [0, %d] (0 means one per core), got %d", job.MaxWorkers, oj.Workers))
	}
	if oj.WeightColumn == "" {
		probs = append(probs, "weight-column: must not be empty")
	}
	oj.Objective = optimize.Objective(o.objective)
	if !slices.Contains(optimize.Objectives, oj.Objective) {
		probs = append(probs, fmt.Sprintf("objective: %q is not one of balanced, worst, accuracy", o.objective))
	}
	for i, name := range []string{"min-accuracy-0", "min-accuracy-1", "min-accuracy"} {
		if f := o.floor[i]; !(f >= 0 && f <= 1) {
			probs = append(probs, fmt.Sprintf("%s: must be in [0, 1] (a p_true), got %v", name, f))
		}
	}
	oj.Floors = optimize.Floors{max(o.floor[0], o.floor[2]), max(o.floor[1], o.floor[2])}
	// A floor the user sets replaces the default (randomized response's α) on its
	// answers, below it too; an answer whose floor is not set keeps α.
	all := t.jf.set("min-accuracy")
	oj.Explicit = [2]bool{all || t.jf.set("min-accuracy-0"), all || t.jf.set("min-accuracy-1")}
	return o, t.done(source, probs)
}

func cmdOptimize(ctx context.Context, args []string, e *env) error {
	o, err := parseOptimize(args, e.stdout)
	if err != nil {
		return err
	}
	return o.flags.start(ctx, e, func(ctx context.Context) error { return runOptimize(ctx, o, e) }, [2]string{o.job.WeightColumn, "weight-column"})
}

// progressEvery is how often optimize prints a progress line: in every phase,
// whatever the solver does between its own notifications (at least
// every 5 s).
const progressEvery = 4 * time.Second

// optimizeStatus is what optimize's progress lines say: the phase (toolkit's:
// read, optimize, trade-off curve, write) and since when, the rows read (the read's
// ETA) and --max-time's end (a bound on what is left). Shareable (docs/FORMATS.md):
// the phases and their times, never the solver's iterates, gaps or steps, which are
// computed from the answers.
type optimizeStatus struct {
	mu    sync.Mutex
	start time.Time
	ph    toolkit.OptimizePhase
	since time.Time
	rows  *progress.Counter
}

func (st *optimizeStatus) phase(p toolkit.OptimizePhase) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.ph, st.since = p, time.Now()
}

// line is the progress line at now.
func (st *optimizeStatus) line(now time.Time) string {
	st.mu.Lock()
	defer st.mu.Unlock()
	name := st.ph.Name
	if name == "" {
		name = "starting"
	}
	l := fmt.Sprintf("  optimizing: %s (%.0fs)", name, now.Sub(st.start).Seconds())
	done, total := st.rows.Done.Load(), st.rows.Total.Load()
	switch {
	case name == "read" && done > 0 && total >= done:
		left := time.Duration(float64(now.Sub(st.since)) * float64(total-done) / float64(done))
		l += fmt.Sprintf(", %d of %d rows read, about %.0fs left to read", done, total, left.Seconds())
	case !st.ph.End.IsZero() && (st.ph.Deadline.IsZero() || st.ph.End.Before(st.ph.Deadline)):
		l += fmt.Sprintf(", about %.0fs left", max(0, st.ph.End.Sub(now).Seconds()))
	case !st.ph.Deadline.IsZero():
		l += fmt.Sprintf(", at most %.0fs left (--max-time)", max(0, st.ph.Deadline.Sub(now).Seconds()))
	}
	return l
}

// runOptimize executes a parsed optimize; tests call it directly.
func runOptimize(ctx context.Context, o *optimizeOptions, e *env) error {
	oj := o.job
	if !o.quiet && !o.json {
		st := &optimizeStatus{start: time.Now(), since: time.Now(), rows: new(progress.Counter)}
		ctx = progress.Listen(ctx, st.phase)
		ctx = progress.With(ctx, st.rows)
		tick := time.NewTicker(progressEvery)
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for {
				select {
				case now := <-tick.C:
					fmt.Fprintln(e.stderr, st.line(now))
				case <-done:
					return
				}
			}
		})
		defer func() { tick.Stop(); close(done); wg.Wait() }()
	}
	s, err := toolkit.Optimize(ctx, oj, e.log)
	var fe *optimize.FloorError
	if errors.As(err, &fe) {
		return floorRefusal(fe, o.floor)
	}
	if err != nil {
		return err
	}
	switch {
	case o.json:
		return writeJSON(e.stdout, s)
	case oj.DryRun:
		printOptimizePlan(e.stdout, oj, s)
		printOptimizeEstimate(e.stdout, s)
		return nil
	}
	if !o.quiet {
		s.Human(e.stderr)
	}
	return nil
}

// printOptimizeEstimate adds the dry run's forecast (toolkit.OptimizeSummary.Estimate).
func printOptimizeEstimate(w io.Writer, s *toolkit.OptimizeSummary) {
	est := s.Estimate
	if est == nil {
		return
	}
	lp := fmt.Sprintf("the default floors leave the balanced α (no LP): about %d propagations in all", optimize.EstimateDefault)
	if est.LP {
		lp = fmt.Sprintf("the LP: from the forest's dual, about %d propagations in all where it certifies the best candidate, to PDHG, up to %s steps of about two propagations each",
			optimize.EstimateForest, words.Num(optimize.EstimateSteps))
	}
	fmt.Fprintf(w, "  estimate:  %.3g s to %.3g s in all (one propagation measured: %.3g s; %s); the solver's memory %s on top of the above\n",
		s.EstimateSeconds[0], s.EstimateSeconds[1], est.Propagation.Seconds(), lp, mib(est.Bytes))
	fmt.Fprintf(w, "  first:     a mechanism to write after about %.3g s (reading, the cover, the first candidate's extension)\n", s.FirstSeconds)
	if s.MaxTimeWarning != "" {
		fmt.Fprintf(w, "  WARNING: %s\n", s.MaxTimeWarning)
	}
}

// floorRefusal words a FloorError with the flags (exit 3): the floors asked, why
// they are refused, and the largest ones met, printed exactly (the shortest decimal
// that reads back as the float64 limit, which is itself met).
func floorRefusal(fe *optimize.FloorError, asked [3]float64) error {
	var flags []string
	for i, name := range []string{"--min-accuracy-0", "--min-accuracy-1", "--min-accuracy"} {
		if asked[i] > 0 {
			flags = append(flags, name+" "+words.Num(asked[i]))
		}
	}
	return &rejected{fmt.Sprintf("%s: no (ε,δ)-DP mechanism gives every answer-1 dataset p_true ≥ %s and every answer-0 dataset p_true ≥ %s: "+
		"a boundary edge joins datasets of both answers, and DP bounds each end's accuracy by the other's; nothing written\n"+
		"  the largest --min-accuracy (both answers) is %s\n"+
		"  with --min-accuracy-1 %s, the largest --min-accuracy-0 is %s\n"+
		"  with --min-accuracy-0 %s, the largest --min-accuracy-1 is %s",
		strings.Join(flags, " "), words.Num(fe.Asked[1]), words.Num(fe.Asked[0]), words.Num(fe.Common), words.Num(fe.Asked[1]), words.Num(fe.Max0), words.Num(fe.Asked[0]), words.Num(fe.Max1))}
}
