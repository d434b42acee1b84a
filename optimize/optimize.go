package optimize

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/cover"
	"github.com/graphdp/graphdp/dp"

	"github.com/graphdp/graphdp/internal/progress"
)

// Options steer Optimize. The zero value asks for a relative gap of DefaultGap with
// no time limit.
type Options struct {
	// Gap is the target: stop once the certified upper bound is within Gap·utility
	// of the certified utility (0: DefaultGap).
	Gap float64
	// MaxTime stops the iterations (the best mechanism found so far is still
	// extended and certified; Result.Converged says whether Gap was reached). 0: none.
	MaxTime time.Duration
	// Deadline, if set, is when Optimize must have returned, with MaxTime's
	// meaning: the iterations stop early enough for the last rounding and
	// certification to end by then (estimated from the steps' own duration), and
	// PDHG is not started once it has passed. TradeOff's solves share it.
	Deadline time.Time
	// FirstBy, if set, is when a first mechanism must exist: the cover and the
	// first candidate's extension (the balanced α, or a floor seed where α misses
	// the floors) run under it, and past it Optimize fails with the context's
	// DeadlineExceeded (nothing to return). Once there is a candidate, the search
	// for better ones is not started past Deadline, and an extension or search
	// under way is cut at FirstBy; the best so far is returned.
	FirstBy time.Time
	// MaxIterations bounds the PDHG steps (0: DefaultMaxIterations).
	MaxIterations int
	// Workers sets the parallelism of the iterations: 4·Workers vertex ranges (4 for
	// 0 or 1) processed concurrently; the ranges, hence the result, depend on it only.
	Workers int
	// Hit is the boundary-hitting set whose values are optimised (ascending
	// positions; it must touch every boundary edge, as run requires); nil means a
	// minimum one (cover.Boundary).
	Hit []int32
	// Objective is the utility maximised ("": Accuracy, the weights as given).
	Objective Objective
	// Floors are lower bounds on every dataset's p_true by answer, constraints of
	// the same LP; floors no DP mechanism meets are refused with a *FloorError.
	// By default an answer's floor is at least randomized response's p_true, the
	// pair's balanced value α (RandomizedFloor): no dataset is sacrificed below it
	// for a gain elsewhere. Explicit lowers that default.
	Floors Floors
	// Explicit marks the answers whose floor the caller set: Floors[c] is then taken
	// as it is, below α too (0: none). An answer not marked gets max(Floors[c], α).
	Explicit [2]bool
	// Chords is the number of chords of μ-GDP's upper bound U* in the solve, and of
	// tangents in the certificate (lines.go; 0: DefaultChords). More chords narrow the
	// certified gap between the inner and outer polytopes and cost a row per arc each.
	// Unused by the other frameworks, whose LP is exact.
	Chords int

	warmY []float64 // multipliers to start PDHG from (TradeOff: the previous solve's)
}

// DefaultGap is the default target relative gap.
const DefaultGap = 1e-6

// DefaultMaxIterations bounds the steps when Options.MaxIterations is 0.
const DefaultMaxIterations = 1 << 20

// Progress is the solver's state at a check.
type Progress struct {
	Iteration, Restarts int
	Primal, Dual        float64 // LP objective of the current point and the float upper bound of its dual
	PrimalResidual      float64 // largest DP-row excess of the current point (p_one units)
	RelGap              float64 // (Dual − Primal)/|Primal|
	PrimalWeight        float64
	// Certified is set after a rounding: the utility of the extended mechanism
	// (rounded down) and the certified upper bound (rounded up).
	Certified         bool
	Utility, Upper    float64
	Elapsed           time.Duration
	CertifiedRelative float64 // (Upper − Utility)/Utility
}

// Result is the optimised hitting set and its mechanism, with the certificate.
type Result struct {
	Hit      []int32   // the boundary-hitting set, ascending positions
	PTrue    []float64 // its values: bfs.Solve on them gives Solution without repair
	Solution *bfs.Solution

	Objective Objective // the utility maximised
	Floors    Floors    // the floors met: the asked ones, raised to the Worst floor for Worst
	Worst     *WorstCase

	Utility     float64 // Σ w'·p_true of Solution (w' the objective's weights), rounded down
	Upper       float64 // certified: no (ε,δ)-DP mechanism meeting Floors has a larger utility
	Gap         float64 // Upper − Utility ≥ 0 (rounded up)
	TotalWeight float64 // Σ w', the utility of answering truthfully
	Converged   bool    // Gap ≤ Options.Gap·Utility

	// Balanced is the utility of the balanced α on Hit (the paper's corollary), rounded
	// down; it is a candidate only when it meets the floors (BalancedMeets).
	Balanced         float64
	BalancedMeets    bool
	BalancedSolution *bfs.Solution // its mechanism
	Alpha            float64       // the balanced α = (e^ε+δ)/(e^ε+1), rounded down
	Randomized       float64       // utility of randomized response (p_true = α everywhere), rounded down
	// Homogeneous is the best boundary-homogeneous pair (docs/DESIGN.md §3.6); nil
	// when a deadline ended the search before it (Method "time").
	Homogeneous *Homogeneous

	Iterations, Restarts int
	Mixed                float64 // the last rounding's mixing weight t (round.go)
	Method               string  // "pdhg", "balanced" (already within the gap), "forest" (forest.go), "exact" (ε = δ = 0) or "time" (a deadline)
	// Lines is the number of row families of the LP (lines.go): 1 for (ε,δ), the
	// pairs of a profile, the pieces of a trade-off curve, μ-GDP's chords. For μ-GDP
	// Upper is certified on the outer polytope (tangents), so it bounds every μ-GDP
	// mechanism, and Utility is a μ-GDP mechanism's: Gap covers the relaxation.
	Lines int

	y     []float64 // PDHG's best multipliers (nil without PDHG): TradeOff's warm start
	lines []line    // the LP's lines (nil without the LP): for tests
	fam   *family   // the homogeneous family, once built (Grid)
}

// Grid is the utility over the boundary-homogeneous family (Homogeneous.Grid), the
// family's even when a deadline ended the search for its best pair; nil when the
// family was not built.
func (r *Result) Grid(k int) [][]float64 {
	if r.fam == nil {
		return nil
	}
	return (&Homogeneous{fam: r.fam}).Grid(k)
}

// Precheck is what Optimize checks before it solves: the problem, the objective,
// and floors some (ε,δ)-DP mechanism meets (else a *FloorError with the largest
// that are). It returns the objective's total weight Σ w' (the utility of answering
// truthfully). A dry run calls it instead of Optimize.
func Precheck(p *Problem, opt Options) (total float64, err error) {
	obj, _, err := precheck(p, opt)
	if err != nil {
		return 0, err
	}
	for _, w := range effectiveWeights(p, obj) {
		total = addUp(total, w)
	}
	return total, nil
}

// precheck is Precheck's checks; it returns the objective ("" made Accuracy) and
// whether a boundary edge exists.
func precheck(p *Problem, opt Options) (obj Objective, boundary bool, err error) {
	if err := p.check(); err != nil {
		return "", false, err
	}
	obj = opt.Objective
	switch obj {
	case "":
		obj = Accuracy
	case Accuracy, Balanced, Worst:
	default:
		return "", false, fmt.Errorf("optimize: unknown objective %q", obj)
	}
	boundary = hasBoundary(p.G, p.Answer)
	if f := opt.floors(p.Pair); !floorsFeasible(p.Pair, boundary, f) {
		if !(f[0] >= 0 && f[0] <= 1 && f[1] >= 0 && f[1] <= 1) {
			return "", false, fmt.Errorf("optimize: floors %v outside [0, 1]", f)
		}
		return "", false, floorError(p.Pair, f)
	}
	return obj, boundary, nil
}

// Optimize finds hitting-set values whose optimal extension maximises the objective
// (Σ w'·p_true) over all (ε,δ)-DP mechanisms meeting the floors, up to the certified
// gap (doc.go).
func Optimize(ctx context.Context, p *Problem, opt Options) (*Result, error) {
	obj, boundary, err := precheck(p, opt)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	target := opt.Gap
	if target <= 0 {
		target = DefaultGap
	}
	if opt.MaxIterations <= 0 {
		opt.MaxIterations = DefaultMaxIterations
	}
	if opt.MaxTime > 0 && (opt.Deadline.IsZero() || start.Add(opt.MaxTime).Before(opt.Deadline)) {
		opt.Deadline = start.Add(opt.MaxTime)
	}
	// Until there is a candidate the work keeps FirstBy through fctx.
	fctx, fcancel := ctx, context.CancelFunc(func() {})
	if !opt.FirstBy.IsZero() {
		fctx, fcancel = context.WithDeadline(ctx, opt.FirstBy)
	}
	defer fcancel()
	p, r, err := prepare(fctx, p, opt, obj, boundary)
	if err != nil {
		return nil, err
	}
	floors, hit := r.Floors, r.Hit
	if err := candidates(fctx, p, hit, floors, r, opt.Deadline); err != nil {
		return nil, err
	}
	if r.Worst != nil {
		r.Worst.Lower = minPTrue(p.Answer, r.Solution.POne)
	}
	r.Upper = r.TotalWeight // p_true ≤ 1
	finish := func(method string) (*Result, error) { return r.finish(p, target, method), nil }
	lines, err := frameworkLines(p.Pair, opt.Chords, r.Solution.POne)
	if err != nil {
		return nil, err
	}
	// The cheap certificate (pointwise.go): exact when the floors force the boundary
	// (the default, α), where the balanced α is then certified without an LP.
	r.Lines, r.lines = len(lines), lines
	pw, err := pointwiseUpper(fctx, p, lines, floors) // two BFS: within FirstBy, else Σw stands
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return finish("time")
	} else if err != nil {
		return nil, err
	}
	r.Upper = min(r.Upper, pw)
	if r.Upper-r.Utility <= target*r.Utility {
		return finish("balanced")
	}
	if past(opt.Deadline) {
		return finish("time") // no time left for PDHG: the best candidate, certified as far as it is
	}
	if p.Pair.Framework() == dp.EpsilonDelta && p.Pair.E() == 1 && p.Pair.Delta == 0 {
		// ε = 0 (or so small that e^ε rounds to 1) and δ = 0: solved per component.
		// The bound is exact only for ε = 0 (eHi = 1); otherwise Σw remains.
		_, eHi := p.Pair.EBounds()
		return exactPure(ctx, p, r, floors, eHi == 1, finish)
	}
	// The LP and the forest's dual keep the deadline through lctx: past it the best
	// candidate is written, certified pointwise.
	lctx, cancel := ctx, context.CancelFunc(func() {})
	if !opt.Deadline.IsZero() {
		lctx, cancel = context.WithDeadline(ctx, opt.Deadline)
	}
	defer cancel()
	late := func(err error) bool { return errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil }
	m, err := newLP(lctx, p, lines, floors, opt.Workers)
	if late(err) {
		return finish("time")
	} else if err != nil {
		return nil, err
	}
	// The dual of the best candidate's binding forest (forest.go): where the
	// candidate is optimal it certifies it without PDHG.
	fy, err := forestDual(lctx, m, r.Solution.POne, r.Solution.Dist)
	if late(err) {
		return finish("time")
	} else if err != nil {
		return nil, err
	}
	if fy != nil {
		ub, err := certifiedUpper(lctx, m, fy)
		if late(err) {
			return finish("time")
		} else if err != nil {
			return nil, err
		}
		if ub < r.Upper {
			r.Upper, r.y = ub, fy
		}
		if r.Upper-r.Utility <= target*r.Utility {
			return finish("forest")
		}
	}
	z, s0 := reference(m)
	s := newPDHG(m, append([]float64(nil), r.Solution.POne...)) // the best candidate
	switch {
	case len(opt.warmY) == len(s.y): // and the multipliers of a neighbouring problem
		copy(s.y, opt.warmY)
		copy(s.y0, opt.warmY)
	case len(fy) == len(s.y): // or the forest's
		copy(s.y, fy)
		copy(s.y0, fy)
	}
	// A rounding (a bfs.Solve) and a certification cost about two steps each: they
	// are tried whenever the float gap has dropped below the target, and again each
	// time it has dropped fourfold since the last try.
	inner := target
	// The solver's state goes to ctx's listener (internal/progress) after every KKT
	// check (every checkEvery steps) and after every certified evaluation.
	report := func(pr Progress) {
		pr.Elapsed = time.Since(start)
		progress.Notify(ctx, pr)
	}
	for {
		out, est, err := iterate(ctx, s, opt, start, inner, s0, r, report)
		if err != nil {
			return nil, err
		}
		inner = min(inner, est) / 4
		if err := r.roundAndCertify(ctx, p, m, s, z, s0, floors); err != nil {
			return nil, err
		}
		r.Iterations, r.Restarts = s.iters, s.restarts
		report(Progress{Iteration: s.iters, Restarts: s.restarts, Primal: s.primal, Dual: s.dual,
			PrimalResidual: s.viol, RelGap: (s.dual - s.primal) / math.Abs(s.primal), PrimalWeight: s.omega,
			Certified: true, Utility: r.Utility, Upper: r.Upper, CertifiedRelative: (r.Upper - r.Utility) / r.Utility})
		r.y = s.bestY
		if r.Upper-r.Utility <= target*r.Utility || out || relaxed(lines, s.bestDual, r) {
			return finish("pdhg")
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if inner < 1e-16 {
			return finish("pdhg") // float64 cannot resolve more
		}
	}
}

// prepare is Optimize's problem for objective obj (its weights, Worst's floor on
// the boundary edge boundary) and the result it fills: floors, hitting set (opt's,
// or a minimum boundary cover), total weight and randomized response's utility.
func prepare(ctx context.Context, p *Problem, opt Options, obj Objective, boundary bool) (*Problem, *Result, error) {
	floors := opt.floors(p.Pair)
	r := &Result{Objective: obj, Alpha: p.Pair.Balanced()}
	if obj == Worst {
		t, up := worstFloor(p.Pair, boundary, floors)
		floors = Floors{max(floors[0], t), max(floors[1], t)}
		r.Worst = &WorstCase{Floor: t, Upper: up, Alpha: r.Alpha, Edge: boundary}
	}
	r.Floors = floors
	// The objective's weights: the problem the rest of Optimize solves.
	p = &Problem{G: p.G, Answer: p.Answer, Weight: effectiveWeights(p, obj), Pair: p.Pair}

	hit := opt.Hit
	if hit == nil {
		bc, err := cover.Boundary(ctx, p.G, p.Answer)
		if err != nil {
			return nil, nil, err
		}
		hit = bc.Vertices
	}
	r.Hit = hit
	for _, w := range p.Weight {
		r.TotalWeight = addUp(r.TotalWeight, w)
		r.Randomized = addDown(r.Randomized, mulDown(w, r.Alpha))
	}

	return p, r, nil
}

// finish closes r as solved by method, with the relative target gap.
func (r *Result) finish(p *Problem, target float64, method string) *Result {
	r.Method = method
	r.Upper = max(r.Upper, r.Utility) // both are certified: equal only when tight
	r.Gap = addUp(r.Upper, -r.Utility)
	r.Converged = r.Gap <= target*r.Utility
	if r.Worst != nil {
		r.Worst.Lower = minPTrue(p.Answer, r.Solution.POne)
	}
	return r
}

// roundAndCertify turns the PDHG state s into a certified step: it rounds s's point
// (mix it into the DP polytope with the reference z, s0 when there is one, restrict
// it to the hitting set, extend it: r keeps the better mechanism) and lowers r.Upper
// by the dual bound of s's best multipliers.
func (r *Result) roundAndCertify(ctx context.Context, p *Problem, m *lp, s *pdhg, z [2]float64, s0 float64, floors Floors) error {
	if s0 > 0 {
		viol, err := maxViolation(ctx, m, s.xp)
		if err != nil {
			return err
		}
		xt, t := mix(m, s.xp, viol, z, s0)
		sol, pt, err := extend(ctx, p, r.Hit, restrict(p, r.Hit, xt))
		if err != nil {
			return err
		}
		r.keep(p, floors, sol, pt)
		r.Mixed = t
	}
	if s.bestY != nil {
		ub, err := certifiedUpper(ctx, m, s.bestY)
		if err != nil {
			return err
		}
		r.Upper = min(r.Upper, ub)
	}
	return nil
}

// keep makes sol (with p_true pt) r's solution if it meets the floors and beats r's.
func (r *Result) keep(p *Problem, floors Floors, sol *bfs.Solution, pt []float64) {
	if !floors.meets(p.Answer, sol.POne) {
		return
	}
	if u := certifiedUtility(p, sol.POne); r.Solution == nil || u > r.Utility {
		r.Solution, r.PTrue, r.Utility = sol, pt, u
	}
}

// past reports whether deadline is set and has passed.
func past(deadline time.Time) bool { return !deadline.IsZero() && !time.Now().Before(deadline) }

// pace returns a check of ctx that reads its error once every 4096 calls: for
// loops over datasets, so that a deadline stops them within milliseconds without
// a context's lock per dataset.
func pace(ctx context.Context) func() error {
	var n uint32
	return func() error {
		if n++; n%4096 != 0 {
			return nil
		}
		return ctx.Err()
	}
}

// candidates tries Optimize's starting points on hit — the balanced α (also the
// baseline), the floors themselves, the best boundary-homogeneous pair — and keeps
// the best that meets the floors in r. Once r holds one, the search stops, with r
// as it stands, at deadline or at ctx's own deadline (Options.FirstBy): then
// r.Homogeneous is left nil when its search did not end.
func candidates(ctx context.Context, p *Problem, hit []int32, floors Floors, r *Result, deadline time.Time) error {
	// The balanced α on the hitting set: the baseline, and the warm start.
	ext := newPairs(p, hit)
	bsol, bpt, err := ext.extend(ctx, r.Alpha, r.Alpha)
	if err != nil {
		return err
	}
	r.BalancedSolution, r.Balanced = bsol, certifiedUtility(p, bsol.POne)
	r.BalancedMeets = floors.meets(p.Answer, bsol.POne)
	r.keep(p, floors, bsol, bpt)
	stop := func(err error) error { // ctx's own deadline passed, not a cancellation: keep r
		if dl, ok := ctx.Deadline(); ok && past(dl) && errors.Is(err, context.DeadlineExceeded) && r.Solution != nil {
			return nil
		}
		return err
	}
	done := func() bool { return r.Solution != nil && past(deadline) }
	seeds, from := floorSeeds(p.Pair, floors), 0
	if r.Solution == nil {
		// The balanced α misses the floors: the first seed, which meets them, is
		// the first mechanism, before the family.
		sol, pt, err := ext.extend(ctx, seeds[0][0], seeds[0][1])
		if err != nil {
			return err
		}
		r.keep(p, floors, sol, pt)
		from = 1
	}
	if done() {
		return nil
	}
	fam, err := newFamily(ctx, ext)
	if err != nil {
		return stop(err)
	}
	r.fam = fam.floored(floors)
	if floors.any() {
		// The floors themselves on the hitting set (floorSeeds): they meet them.
		// Once a candidate is kept, a seed is extended only where its utility,
		// from the homogeneous family, beats the kept one's by more than
		// seedMargin: under the default floors the second seed is the balanced α
		// with its answer-0 values one float64 step higher, which costs a whole
		// extension (and its repairs) for nothing.
		for _, s := range seeds[from:] {
			if r.Solution != nil && fam.utility(s[0], s[1]) <= r.Utility*(1+seedMargin) {
				continue
			}
			if done() {
				return nil
			}
			sol, pt, err := ext.extend(ctx, s[0], s[1])
			if err != nil {
				return stop(err)
			}
			r.keep(p, floors, sol, pt)
		}
	}
	if done() {
		return nil
	}
	// The best boundary-homogeneous pair: cheap (homogeneous.go), sometimes already optimal.
	h, err := fam.best(ctx, p, floors)
	if err != nil {
		return stop(err)
	}
	if r.Homogeneous = h; h.sol != nil {
		r.keep(p, floors, h.sol, h.ptrue)
	}
	if r.Solution == nil {
		return fmt.Errorf("optimize: internal error: no candidate meets the floors %v, which are feasible", floors)
	}
	return nil
}

// seedMargin is the relative amount by which a floor seed's utility from the
// homogeneous family (a float64 sum over its buckets, within 10^−13 of the
// extension's in TestFamilyUtilityOfFloorSeeds) must beat the kept candidate's for
// candidates to extend it. A seed skipped gains less than that: far below any gap
// the certificate is asked for, and the seeds are starting points, not the answer.
const seedMargin = 1e-9

// iterate runs PDHG steps until a check estimates that a certification would reach
// inner (est, the estimated relative gap) or the budget is exhausted (out),
// reporting every check.
func iterate(ctx context.Context, s *pdhg, opt Options, start time.Time, inner, s0 float64, r *Result, report func(Progress)) (out bool, est float64, err error) {
	// With a deadline the clock is read every step: a step costs two CSR passes
	// (seconds at 10^8 arcs), so checkEvery steps may be far longer than the slack
	// allowed. The iterations stop while a check, a rounding and a certification
	// (about finalSteps steps) still fit before it.
	const finalSteps = 6
	t0, n0 := time.Now(), s.iters
	for {
		if err := s.step(ctx); err != nil {
			return false, 0, err
		}
		late := false
		if !opt.Deadline.IsZero() {
			now := time.Now()
			per := now.Sub(t0) / time.Duration(s.iters-n0)
			late = !now.Add(finalSteps * per).Before(opt.Deadline)
		}
		if s.iters%checkEvery != 0 && !late {
			continue
		}
		if err := s.check(ctx); err != nil {
			return false, 0, err
		}
		rel := (s.dual - s.primal) / math.Abs(s.primal)
		// What a certification now would give, roughly: the float gap plus the
		// mixing's loss (at most t·Σw', t = viol/(viol + s0); round.go), or the
		// float bound against the best candidate so far, whichever is smaller
		// (with floors at their limit the mixing loses everything, s0 ≈ 0, and
		// the candidates are optimal: the dual has to be certified against them).
		loss := r.TotalWeight
		if s0 > 0 {
			loss = s.viol / (s.viol + s0) * r.TotalWeight
		}
		est = min(math.Abs(s.dual-s.primal)+loss, math.Abs(s.dual-r.Utility)) / math.Abs(s.primal)
		report(Progress{Iteration: s.iters, Restarts: s.restarts, Primal: s.primal, Dual: s.dual,
			PrimalResidual: s.viol, RelGap: rel, PrimalWeight: s.omega})
		out = late || opt.MaxIterations > 0 && s.iters >= opt.MaxIterations
		if out || est <= inner {
			return out, est, nil
		}
	}
}

// minPTrue is a mechanism's smallest p_true, rounded down (1 − p_one for answer 0).
func minPTrue(answer []bool, pone []float64) float64 {
	m := 1.0
	for v, x := range pone {
		if !answer[v] {
			x = subDown(1, x)
		}
		m = min(m, x)
	}
	return m
}

// relaxed reports whether the rest of the gap is the relaxation's: μ-GDP's inner
// LP (chords) is solved to within a sixteenth of the distance from its float dual
// bound innerUB to the certified outer bound, so more iterations cannot narrow the
// gap much; more chords can (Options.Chords).
func relaxed(lines []line, innerUB float64, r *Result) bool {
	outer := false
	for _, l := range lines {
		outer = outer || l.dUp > -l.lo
	}
	return outer && innerUB-r.Utility <= (r.Upper-innerUB)/16
}
