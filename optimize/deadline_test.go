package optimize

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/graphgen"
	"github.com/graphdp/graphdp/internal/words"
)

// A first mechanism past Options.FirstBy is an error, nothing returned: the caller
// (optimize's --max-time) has nothing to write in time. Past Options.Deadline but
// not FirstBy, the search stops after the balanced α's extension and that is what
// is returned, with no homogeneous pair, certified pointwise (two BFS): exactly
// under the default floors (Method "balanced", converged), else Method "time".
func TestDeadlinesBeforeTheFirstMechanism(t *testing.T) {
	p := genProblem(t, graphgen.Spec{Kind: "grid", N: 2500, Seed: 3, Epsilon: 0.5, Delta: 1e-6}, 0)
	ctx := context.Background()
	for _, opt := range []Options{{}, {Explicit: [2]bool{true, true}}} {
		was := time.Now().Add(-time.Second)
		first := opt
		first.FirstBy = was
		if res, err := Optimize(ctx, p, first); !errors.Is(err, context.DeadlineExceeded) || res != nil {
			t.Errorf("FirstBy passed, explicit %v: %v, %v; want DeadlineExceeded and no result", opt.Explicit, res, err)
		}
		late := opt
		late.Deadline = was
		res, err := Optimize(ctx, p, late)
		if err != nil {
			t.Fatalf("Deadline passed, explicit %v: %v", opt.Explicit, err)
		}
		certified := opt.Explicit == [2]bool{} // the default floors: the pointwise bound is exact
		if res.Method != map[bool]string{true: "balanced", false: "time"}[certified] || res.Converged != certified ||
			res.Homogeneous != nil || res.Upper > res.TotalWeight || certified && res.Upper >= res.TotalWeight ||
			!slices.Equal(res.Solution.POne, res.BalancedSolution.POne) || res.Utility != res.Balanced {
			t.Errorf("Deadline passed, explicit %v: method %q, converged %v, homogeneous %v, upper %v of Σw %v, utility %v, balanced %v",
				opt.Explicit, res.Method, res.Converged, res.Homogeneous, res.Upper, res.TotalWeight, res.Utility, res.Balanced)
		}
		full, err := Optimize(ctx, p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if full.Homogeneous == nil || full.Upper >= full.TotalWeight {
			t.Fatalf("no deadline, explicit %v: homogeneous %v, upper %v of Σw %v", opt.Explicit, full.Homogeneous, full.Upper, full.TotalWeight)
		}
		// The family's grid, kept for the page, is the pair's search's (its floors).
		if res.Grid(9) != nil || !slices.EqualFunc(full.Grid(9), full.Homogeneous.Grid(9), func(a, b []float64) bool {
			return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || x != x && y != y })
		}) {
			t.Errorf("explicit %v: the result's grid is not its pair's family's", opt.Explicit)
		}
	}
}

// Past the deadline the search for candidates still ends with one that meets the
// floors: where the balanced α does not (an answer-1 floor above it), the floors'
// own seed is extended. And the trade-off curve's solves do not keep FirstBy, the
// command's first mechanism's (res is it): a passed FirstBy solves every point.
func TestDeadlinePassedStillMeetsTheFloors(t *testing.T) {
	p := genProblem(t, graphgen.Spec{Kind: "grid", N: 2500, Seed: 3, Epsilon: 0.5, Delta: 1e-6}, 0)
	ctx := context.Background()
	opt := Options{Floors: Floors{0, 0.7}, Explicit: [2]bool{true, true}}
	q, r, err := prepare(ctx, p, opt, Balanced, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := candidates(ctx, q, r.Hit, r.Floors, r, time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if r.BalancedMeets || r.Solution == nil || !r.Floors.meets(p.Answer, r.Solution.POne) {
		t.Errorf("floors %v: the balanced α meets them %v; a candidate %v", r.Floors, r.BalancedMeets, r.Solution != nil)
	}
	// More datasets than an extension handles between its checks of ctx (2^16).
	p = genProblem(t, graphgen.Spec{Kind: "uniform", N: 70000, M: 700000, Seed: 3, Epsilon: 0.5, Delta: 1e-6}, 0)
	lowered := Options{Objective: Accuracy, Explicit: [2]bool{true, true}} // a near-constant answer: the higher floors are solved
	res, err := Optimize(ctx, p, lowered)
	if err != nil {
		t.Fatal(err)
	}
	tr := lowered
	tr.FirstBy = time.Now().Add(-time.Second)
	pts, err := TradeOff(ctx, p, tr, res, 2, 0, time.Second)
	if err != nil || len(pts) != 2 {
		t.Fatalf("the trade-off curve with FirstBy passed: %d points, %v", len(pts), err)
	}
	solved := 0
	for _, pt := range pts {
		if pt.Bounded {
			t.Errorf("floor %v bounded, not solved", pt.Floor)
		}
		solved += words.Bit(!pt.Reused)
	}
	if solved == 0 {
		t.Error("every point reused: the test needs a curve that is solved")
	}
}
