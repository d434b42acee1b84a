package report

import (
	"math"
	"strings"
	"testing"
)

// The boundary-homogeneous page: one cell per grid point, infeasible pairs grey, the three
// points marked at their coordinates, the certified bound shown.
func TestRegionHTML(t *testing.T) {
	nan := math.NaN()
	r := &Region{Utility: [][]float64{{1, 2, nan}, {2, 3, nan}, {nan, nan, nan}}, TotalWeight: 9,
		Balanced: Point{0.5, 0.5, 3}, Homogeneous: Point{0, 1, 3.5}, Optimum: Point{0.25, 0.75, 4}, UpperBound: 4.25,
		Epsilon: 0.5, Delta: 0, Weights: "uniform"}
	var b strings.Builder
	if err := RegionHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if got := strings.Count(page, "<rect "); got != 9 {
		t.Errorf("%d cells, want 9", got)
	}
	if got := strings.Count(page, "#eeeeee"); got != 5 {
		t.Errorf("%d grey (infeasible) cells, want 5", got)
	}
	if got := strings.Count(page, "<circle "); got != 3 {
		t.Errorf("%d marks, want 3", got)
	}
	// The scale runs from the lowest cell (1) to the optimum (4): utility 3 is at 2/3.
	// size 480, cell 160: α = 0 → x = 80 (centre of the first column), α₁ = 1 → y = 80.
	for _, want := range []string{`cx="80.0" cy="80.0"`, "4.25", "α₀=0.5, α₁=0.5, utility 3", heat(2.0 / 3)} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if RegionHTML(&b, &Region{Utility: [][]float64{{1}}}) == nil {
		t.Error("a 1×1 grid was accepted")
	}
}
