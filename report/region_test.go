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

// The trade-off curve: one dot per point on the polyline, the upper bounds dashed,
// the written mechanism ringed at its smallest p_true, every point in the table;
// fewer than two points draw no curve. Floors 0.5 … 0.7 span x 80 … 690; utilities
// 0.8 … 0.7 (upper to 0.81) span y with 8% margins.
func TestRegionTradeOff(t *testing.T) {
	r := &Region{Utility: [][]float64{{1, 2}, {2, 3}}, Optimum: Point{0.5, 0.5, 3}, Objective: "balanced",
		TradeOff: []Trade{{0.5, 0.8, 0.81}, {0.6, 0.75, 0.75}, {0.7, 0.7, 0.7}}, Chosen: Trade{0.55, 0.8, 0.81}}
	var b strings.Builder
	if err := RegionHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if got := strings.Count(page, `r="3.5"`); got != 3 {
		t.Errorf("%d curve points, want 3", got)
	}
	for _, want := range []string{"The price of a floor", "best balanced utility", `stroke-dasharray="4 3"`, `<circle cx="385.0"`,
		"floor 0.6: utility 0.75", "smallest p_true 0.55, utility 0.8", "<td>0.7</td><td>0.7</td><td>0.7</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	r.TradeOff = r.TradeOff[:1]
	b.Reset()
	if err := RegionHTML(&b, r); err != nil || strings.Contains(b.String(), "price of a floor") {
		t.Errorf("a one-point curve was drawn (%v)", err)
	}
}
