package check_test

import (
	"math"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// A NaN probability fails the audit (it must never pass it: review finding).
func TestVerifyNaNFails(t *testing.T) {
	g := testgraph.FromEdges(2, [][2]int32{{0, 1}})
	a := check.Verify(g, []float64{math.NaN(), 0.5}, testgraph.MustDP(1, 0), 0, 5)
	if a.Violations == 0 || a.Worst.U != 0 || !math.IsInf(a.Worst.Excess, 1) {
		t.Fatalf("audit of a NaN mechanism: %+v", a)
	}
}
