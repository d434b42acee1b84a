package optimize

import (
	"context"
	"time"

	"github.com/graphdp/graphdp/internal/progress"
)

// TradePoint is one point of the trade-off curve: the best utility of the
// objective when every dataset's p_true must be at least Floor (the price of a
// floor: OPTIMIZE.md, "The trade-off, drawn"), solved and certified, or bounded.
type TradePoint struct {
	Floor    float64 `json:"floor"`
	Utility  float64 `json:"utility"`    // certified: a mechanism meeting the floor has it
	Upper    float64 `json:"upper"`      // certified: none meeting the floor does better
	MinPTrue float64 `json:"min_p_true"` // of that mechanism
	Reused   bool    `json:"reused"`     // the previous point's mechanism already met this floor
	// Bounded: not solved (the page's budget or the deadline). Utility is the best
	// known to be reached at the floor (best: the chosen result, a point solved
	// below it, the balanced α, the best boundary-homogeneous pair, or a mixture of
	// two), Upper the bound of the point at the largest floor below it (the optimum
	// only falls as the floor rises): the optimum lies between, not within the gap.
	Bounded bool `json:"bounded,omitempty"`
}

// TradeOff is the curve of the objective's utility against a common floor t on
// p_true, at k floors evenly spaced from ½ (0 if the largest is below ½; res's own
// smallest p_true if lower and res is for the same objective) to the largest a DP
// mechanism meets (worstFloor), each combined with the asked floors
// (opt.Floors) and solved and certified like Optimize; res is the chosen result,
// reused where it meets a floor. Worst's curve is the balanced utility's (Worst is
// its right end). Solves go in increasing t, each warm-started from the previous
// one's multipliers; a mechanism meeting a larger floor is optimal for it too (the
// optimum only falls as the floor rises) and is reused without a solve. A solve
// starts only before opt.Deadline and, with a budget > 0, while it is expected to
// end within budget of the call, at the duration of the last solve (solve for the
// first); the floors it leaves are Bounded by the mechanisms already known and
// their mixtures (best), among them the best boundary-homogeneous pair meeting the
// floor (a search and one extension, while that fits too: at the last such
// search's duration, a tenth of solve for the first); a floor none meets is left
// out.
func TradeOff(ctx context.Context, p *Problem, opt Options, res *Result, k int, budget, solve time.Duration) ([]TradePoint, error) {
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
	// known are the mechanisms whose utility is certified, for Bounded points.
	known := []knownMechanism{newKnown(p.Answer, res.Balanced, res.BalancedSolution.POne)}
	if h := res.Homogeneous; h != nil && h.sol != nil {
		known = append(known, newKnown(p.Answer, h.Utility, h.sol.POne))
	}
	if prev != nil {
		known = append(known, newKnown(p.Answer, prev.Utility, prev.Solution.POne))
	}
	// The solves keep opt.Deadline; FirstBy is the command's first mechanism's,
	// which res is.
	opt.Objective, opt.Hit, opt.FirstBy = obj, res.Hit, time.Time{}
	ctx = progress.Listen[Progress](ctx, nil) // the curve's solves report nothing
	var out []TradePoint
	// The last homogeneous search's duration, for the budget; before the first,
	// a tenth of the solve's (which did one search and several extensions).
	search := solve / 10
	var pw *Problem // p with the objective's weights (the family's), for the searches
	for i := range k {
		t := tmax
		if k > 1 {
			t = lo + (tmax-lo)*float64(i)/float64(k-1)
		}
		f := Floors{max(t, opt.Floors[0]), max(t, opt.Floors[1])}
		// prev is optimal at its own floors; meeting larger ones, it is optimal there too.
		below := prev != nil && prev.Floors[0] <= f[0] && prev.Floors[1] <= f[1]
		if below && f.meets(p.Answer, prev.Solution.POne) {
			out = append(out, TradePoint{Floor: t, Utility: prev.Utility, Upper: prev.Upper, MinPTrue: minPTrue(p.Answer, prev.Solution.POne), Reused: true})
			continue
		}
		late := past(opt.Deadline)
		if late || budget > 0 && time.Since(start)+solve > budget {
			pt := TradePoint{Floor: t, Upper: res.TotalWeight, Bounded: true}
			if below {
				pt.Upper = prev.Upper
			}
			// The best boundary-homogeneous pair meeting f (a search on the
			// family's buckets and one extension), while it fits too.
			if h := res.Homogeneous; !late && h != nil && h.fam != nil && (budget <= 0 || time.Since(start)+search <= budget) {
				t0 := time.Now()
				if pw == nil {
					pw = &Problem{G: p.G, Answer: p.Answer, Weight: effectiveWeights(p, obj), Pair: p.Pair}
				}
				hf, err := h.fam.best(ctx, pw, f)
				if err != nil {
					return nil, err
				}
				search = time.Since(t0)
				if hf.Feasible {
					known = append(known, newKnown(p.Answer, hf.Utility, hf.sol.POne))
				}
			}
			var ok bool
			if pt.Utility, pt.MinPTrue, ok = best(known, f); ok {
				out = append(out, pt) // else no known mechanism meets f: left out
			}
			continue
		}
		o := opt
		o.Floors = f
		if prev != nil {
			o.warmY = prev.y
		}
		t0 := time.Now()
		r, err := Optimize(ctx, p, o)
		if err != nil {
			return nil, err
		}
		solve = time.Since(t0)
		out = append(out, TradePoint{Floor: t, Utility: r.Utility, Upper: r.Upper, MinPTrue: minPTrue(p.Answer, r.Solution.POne)})
		prev = r
		known = append(known, newKnown(p.Answer, r.Utility, r.Solution.POne))
	}
	return out, nil
}

// knownMechanism is a mechanism with its certified utility and, by answer, its
// smallest p_true, rounded down (lo[0] from its largest answer-0 p_one, hi0).
type knownMechanism struct {
	utility float64
	lo      [2]float64
	hi0     float64
}

func newKnown(answer []bool, utility float64, pOne []float64) knownMechanism {
	k := knownMechanism{utility: utility, lo: [2]float64{1, 1}}
	for v, x := range pOne {
		if answer[v] {
			k.lo[1] = min(k.lo[1], x)
		} else {
			k.hi0 = max(k.hi0, x)
		}
	}
	k.lo[0] = subDown(1, k.hi0)
	return k
}

// meets is Floors.meets for the mechanism.
func (k knownMechanism) meets(f Floors) bool { return k.lo[1] >= f[1] && k.hi0 <= f.hi0() }

// best is the largest utility known to be reached at floors f, by a known mechanism
// or a mixture of two (λ·A + (1 − λ)·B, p_one mixed: DP, as every framework's
// constraints are convex, p_true and the utility mixed alike; the larger λ that
// keeps each answer's smallest p_true at its floor, rounded down), and that
// mechanism's smallest p_true; ok is false if none meets f.
func best(ks []knownMechanism, f Floors) (u, minPT float64, ok bool) {
	for _, a := range ks {
		if a.meets(f) && (!ok || a.utility > u) {
			u, minPT, ok = a.utility, min(a.lo[0], a.lo[1]), true
		}
	}
	for _, a := range ks {
		for _, b := range ks {
			if a.utility <= b.utility || !b.meets(f) {
				continue
			}
			// λ ≤ (b_c − f_c)/(b_c − a_c) for each answer c that a alone misses,
			// shrunk so that the check below, rounded down, holds.
			l := 1.0
			for c := range 2 {
				if a.lo[c] < f[c] {
					l = min(l, (b.lo[c]-f[c])/(b.lo[c]-a.lo[c]))
				}
			}
			l *= 1 - 0x1p-40
			m := subDown(1, l) // below the real 1 − λ: every bound below rounds down
			var lo [2]float64
			for c := range 2 {
				lo[c] = addDown(mulDown(l, a.lo[c]), mulDown(m, b.lo[c]))
			}
			if !(l > 0) || lo[0] < f[0] || lo[1] < f[1] {
				continue
			}
			if mix := addDown(mulDown(l, a.utility), mulDown(m, b.utility)); !ok || mix > u {
				u, minPT, ok = mix, min(lo[0], lo[1]), true
			}
		}
	}
	return u, minPT, ok
}
