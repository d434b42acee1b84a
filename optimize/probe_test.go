package optimize

import (
	"context"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/graphgen"
)

func TestProbeHypercube(t *testing.T) {
	p := genProblem(t, graphgen.Spec{Kind: "hypercube", Dim: 16, Epsilon: 0.5, Delta: 1e-6}, 5)
	start := time.Now()
	res, err := Optimize(context.Background(), p, Options{Gap: 1e-5, MaxTime: 3 * time.Minute, Progress: func(pr Progress) {
		if pr.Certified || pr.Iteration%1024 == 0 {
			t.Logf("%v it %d rs %d primal %.9g dual %.9g viol %.2g rel %.2g ω %.3g cert %v %.9g %.9g %.2g", pr.Elapsed.Round(time.Millisecond), pr.Iteration, pr.Restarts, pr.Primal, pr.Dual, pr.PrimalResidual, pr.RelGap, pr.PrimalWeight, pr.Certified, pr.Utility, pr.Upper, pr.CertifiedRelative)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v: %s util %.9g upper %.9g gap %.3g balanced %.9g", time.Since(start), res.Method, res.Utility, res.Upper, res.Gap/res.Utility, res.Balanced)
}
