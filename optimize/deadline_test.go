package optimize

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/graphgen"
)

// A first mechanism past Options.FirstBy is an error, nothing returned: the caller
// (optimize's --max-time) has nothing to write in time. Past Options.Deadline but
// not FirstBy, the search stops after the balanced α's extension and that is what
// is returned, certified by Σw only (the pointwise bound is a pass over the graph),
// with no homogeneous pair: Method "time", not converged.
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
		if res.Method != "time" || res.Converged || res.Homogeneous != nil || res.Upper != res.TotalWeight ||
			!slices.Equal(res.Solution.POne, res.BalancedSolution.POne) || res.Utility != res.Balanced {
			t.Errorf("Deadline passed, explicit %v: method %q, converged %v, homogeneous %v, upper %v of Σw %v, utility %v, balanced %v",
				opt.Explicit, res.Method, res.Converged, res.Homogeneous, res.Upper, res.TotalWeight, res.Utility, res.Balanced)
		}
		full, err := Optimize(ctx, p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if full.Homogeneous == nil || full.Upper >= full.TotalWeight {
			t.Errorf("no deadline, explicit %v: homogeneous %v, upper %v of Σw %v", opt.Explicit, full.Homogeneous, full.Upper, full.TotalWeight)
		}
	}
}
