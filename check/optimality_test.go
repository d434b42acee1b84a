package check

import (
	"slices"
	"testing"
)

// A hand-made comparison: vertex 0 is the hitting set (given p_true 0.6), vertices
// 1..4 are compared with an optimum of 0.8: 1 equal, 2 within tol, 3 below by 0.3
// (answer 0: p_true = 1 − p_one), 4 above by 0.1.
func TestCompareOptimal(t *testing.T) {
	answer := []bool{true, true, true, false, true}
	pone := []float64{0.6 + 2e-9, 0.8, 0.8 + 5e-10, 0.5, 0.9}
	opt := []float64{0.6, 0.8, 0.8, 0.8, 0.8}
	o := CompareOptimal(answer, pone, []int32{0}, []float64{0.6}, opt, 1e-9, 10)
	if o.Disagree != 1 || o.FirstDisagree[0].V != 0 || o.FirstDisagree[0].Want != 0.6 {
		t.Errorf("disagreement with the hitting set: %+v", o)
	}
	if o.Equal != 1 || o.Close != 1 || o.Below != 1 || o.Above != 1 || !o.Failed() {
		t.Errorf("counts: %+v", o)
	}
	if !slices.Equal([]int32{o.FirstBelow[0].V, o.FirstAbove[0].V}, []int32{3, 4}) || o.FirstBelow[0].Got != 0.5 {
		t.Errorf("listed: below %+v, above %+v", o.FirstBelow, o.FirstAbove)
	}
	if o.Shortfall < 0.3-1e-15 || o.Shortfall > 0.3+1e-15 {
		t.Errorf("shortfall %v, want 0.3", o.Shortfall)
	}
	// Within tolerance everywhere, nothing fails; limit 0 lists nothing.
	o = CompareOptimal(answer[:3], pone[:3], []int32{0}, []float64{0.6}, opt[:3], 1e-8, 0)
	if o.Failed() || o.FirstDisagree != nil {
		t.Errorf("within tolerance: %+v", o)
	}
}
