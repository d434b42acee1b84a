package optimize

import (
	"context"
	"time"

	"github.com/graphdp/graphdp/internal/progress"
)

// TradePoint is one certified solve of the trade-off curve: the best utility of the
// objective when every dataset's p_true must be at least Floor (the price of a
// floor: OPTIMIZE.md, "The trade-off, drawn").
type TradePoint struct {
	Floor    float64 `json:"floor"`
	Utility  float64 `json:"utility"`    // certified: a mechanism meeting the floor has it
	Upper    float64 `json:"upper"`      // certified: none meeting the floor does better
	MinPTrue float64 `json:"min_p_true"` // of that mechanism
	Reused   bool    `json:"reused"`     // the previous point's mechanism already met this floor
}

// TradeOff is the curve of the objective's utility against a common floor t on
// p_true, at k floors evenly spaced from ½ (0 if the largest is below ½; res's own
// smallest p_true if lower and res is for the same objective) to the largest a DP
// mechanism meets (worstFloor), each combined with the asked floors
// (opt.Floors) and solved and certified like Optimize; res is the chosen result,
// reused where it meets a floor. Worst's curve is the balanced utility's (Worst is
// its right end). Solves go in increasing t, each warm-started from the previous
// one's multipliers; a mechanism meeting a larger floor is optimal for it too (the
// optimum only falls as the floor rises) and is reused without a solve. With
// opt.Deadline the solves share it, and the curve ends with the last point solved
// before it (fewer than k points; skipped counts the rest). With a budget > 0 a
// solve starts only while it is expected to end within budget of the call, at the
// duration of the last solve (solve for the first): the floors above are left out
// and counted in skipped.
func TradeOff(ctx context.Context, p *Problem, opt Options, res *Result, k int, budget, solve time.Duration) (_ []TradePoint, skipped int, _ error) {
	start := time.Now()
	obj := opt.Objective
	if obj == Worst {
		obj = Balanced
	}
	// The floors Optimize met (the default raised to α where not Explicit); each
	// point's are those raised to its t, passed as they are.
	asked := opt.floors(p.Pair)
	opt.Floors, opt.Explicit = asked, [2]bool{true, true}
	tmax, _ := worstFloor(p.Pair, hasBoundary(p.G, p.Answer), opt.Floors)
	lo := 0.5
	if tmax < lo {
		lo = 0
	}
	var prev *Result
	switch {
	case res.Objective == obj || res.Objective == "" && obj == Accuracy:
		// res is the curve's point at its own smallest p_true: start there if lower.
		prev = res
		lo = min(lo, minPTrue(p.Answer, res.Solution.POne))
	case res.Objective == Worst:
		// Worst's result is the balanced optimum at its floors (its tie-break).
		prev = res
	}
	opt.Objective, opt.Hit = obj, res.Hit
	ctx = progress.Listen[Progress](ctx, nil) // the curve's solves report nothing
	var out []TradePoint
	for i := range k {
		if !opt.Deadline.IsZero() && !time.Now().Before(opt.Deadline) {
			return out, k - i, nil // out of time (Options.Deadline): the points so far
		}
		t := tmax
		if k > 1 {
			t = lo + (tmax-lo)*float64(i)/float64(k-1)
		}
		f := Floors{max(t, opt.Floors[0]), max(t, opt.Floors[1])}
		// prev is optimal at its own floors; meeting larger ones, it is optimal there too.
		if prev != nil && prev.Floors[0] <= f[0] && prev.Floors[1] <= f[1] && f.meets(p.Answer, prev.Solution.POne) {
			out = append(out, TradePoint{Floor: t, Utility: prev.Utility, Upper: prev.Upper, MinPTrue: minPTrue(p.Answer, prev.Solution.POne), Reused: true})
			continue
		}
		if budget > 0 && time.Since(start)+solve > budget {
			return out, k - i, nil // the rest would not fit in the budget
		}
		o := opt
		o.Floors = f
		if prev != nil {
			o.warmY = prev.y
		}
		t0 := time.Now()
		r, err := Optimize(ctx, p, o)
		if err != nil {
			return nil, 0, err
		}
		solve = time.Since(t0)
		out = append(out, TradePoint{Floor: t, Utility: r.Utility, Upper: r.Upper, MinPTrue: minPTrue(p.Answer, r.Solution.POne)})
		prev = r
	}
	return out, 0, nil
}
