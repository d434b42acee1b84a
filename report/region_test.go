package report

import (
	"math"
	"regexp"
	"slices"
	"strconv"
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
	if got := strings.Count(page, `<rect class="cell"`); got != 9 {
		t.Errorf("%d cells, want 9", got)
	}
	if got := len(regexp.MustCompile(`<rect class="cell" [^>]*fill="#eeeeee"`).FindAllString(page, -1)); got != 5 {
		t.Errorf("%d grey (infeasible) cells, want 5", got)
	}
	// Marked in the plot (with data-label) and again in the table.
	if got := strings.Count(page, `<path class="mark `); got != 6 {
		t.Errorf("%d marks, want 6", got)
	}
	// The scale runs from the lowest cell (1) to the optimum (4): utility 3 is at 2/3.
	// The plot is 440 px from (64, 16), cells 440/3 px: α = 0 is at the first column's
	// centre x = 64 + 73.3, α₁ = 1 at the top row's y = 16 + 73.3; (0.5, 0.5) at (284, 236).
	for _, want := range []string{
		`<path class="mark balanced" d="M272.0 236.0a12 12 0 1 0 24 0a12 12 0 1 0 -24 0Z" data-label="balanced α">`,
		`<path class="mark homogeneous" d="M129.8 81.8h15v15h-15Z" data-label="best homogeneous">`,
		"4.25", "balanced α: α₀=0.5, α₁=0.5, utility 3", heat(2.0 / 3)} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if RegionHTML(&b, &Region{Utility: [][]float64{{1}}}) == nil {
		t.Error("a 1×1 grid was accepted")
	}
}

// Both axes have tick labels 0.0 … 1.0; the colour bar is labelled at both ends (the
// top is the optimum) and at round values between; and every mark has a label
// whose box overlaps no other label and no mark, also when all three points
// coincide (the example's uniform weights: the balanced point is optimal).
func TestRegionAxesAndLabels(t *testing.T) {
	grid := [][]float64{{1, 2}, {2, 3}}
	for _, c := range []struct {
		name    string
		b, h, o Point
	}{
		{"apart", Point{0.5, 0.5, 3}, Point{0, 1, 3.5}, Point{0.25, 0.75, 4}},
		{"together", Point{0.62, 0.62, 4}, Point{0.62, 0.62, 4}, Point{0.62, 0.62, 4}},
		{"near", Point{0.62, 0.62, 3.9}, Point{0.63, 0.61, 3.95}, Point{0.6, 0.64, 4}},
		{"corner", Point{1, 1, 3.9}, Point{1, 1, 3.95}, Point{0.99, 1, 4}},
	} {
		var b strings.Builder
		if err := RegionHTML(&b, &Region{Utility: grid, Balanced: c.b, Homogeneous: c.h, Optimum: c.o, Epsilon: 1}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		for _, axis := range []string{"xtick", "ytick"} {
			var labels []string
			for _, m := range regexp.MustCompile(`<text class="`+axis+`"[^>]*>([^<]*)</text>`).FindAllStringSubmatch(page, -1) {
				labels = append(labels, m[1])
			}
			if !slices.Equal(labels, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}) {
				t.Errorf("%s: %s labels %v", c.name, axis, labels)
			}
		}
		var cticks []string
		for _, m := range regexp.MustCompile(`<text class="ctick"[^>]*>([^<]*)</text>`).FindAllStringSubmatch(page, -1) {
			cticks = append(cticks, m[1])
		}
		if len(cticks) < 3 || cticks[0] != "4" || cticks[len(cticks)-1] != "1" {
			t.Errorf("%s: colour bar ticks %v, want 4 (the optimum) … 1", c.name, cticks)
		}
		type box struct{ x0, y0, x1, y1 float64 }
		num := func(s string) float64 {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		var labels, marks []box
		for _, m := range regexp.MustCompile(`<rect class="labelbox" x="([-0-9.]+)" y="([-0-9.]+)" width="([0-9.]+)" height="([0-9.]+)"`).FindAllStringSubmatch(page, -1) {
			x, y := num(m[1]), num(m[2])
			labels = append(labels, box{x, y, x + num(m[3]), y + num(m[4])})
		}
		// Each shape's path starts at a known offset from its centre (regionMarks), and
		// reaches at most 15.25 px from it (the ring: radius 12, its edge 6.5 wide).
		start := map[string][2]float64{"balanced": {-12, 0}, "homogeneous": {-7.5, -7.5}, "optimum": {0, -6.5}}
		for _, m := range regexp.MustCompile(`<path class="mark ([a-z]+)" d="M([-0-9.]+) ([-0-9.]+)[^"]*" data-label`).FindAllStringSubmatch(page, -1) {
			x, y := num(m[2])-start[m[1]][0], num(m[3])-start[m[1]][1]
			marks = append(marks, box{x - 15.25, y - 15.25, x + 15.25, y + 15.25})
		}
		if len(labels) != 3 || len(marks) != 3 {
			t.Fatalf("%s: %d labels, %d marks", c.name, len(labels), len(marks))
		}
		over := func(a, b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }
		for i, l := range labels {
			if l.x0 < regionLeft || l.x1 > regionLeft+regionSize || l.y0 < regionTop || l.y1 > regionTop+regionSize {
				t.Errorf("%s: label %d %v leaves the plot", c.name, i, l)
			}
			for j, o := range labels {
				if i != j && over(l, o) {
					t.Errorf("%s: labels %d and %d overlap: %v %v", c.name, i, j, l, o)
				}
			}
			for j, m := range marks {
				if over(l, m) {
					t.Errorf("%s: label %d covers mark %d: %v %v", c.name, i, j, l, m)
				}
			}
		}
	}
}

// niceTicks, by hand: a 1, 2 or 5 × 10ⁿ step giving at least 3 ticks.
func TestNiceTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []float64
	}{
		{11, 15.9464, []float64{11, 12, 13, 14, 15}},
		{11.0001, 33.7033, []float64{15, 20, 25, 30}},
		{0.2, 0.9, []float64{0.2, 0.4, 0.6, 0.8}},
		{3, 3, []float64{3}},
	} {
		if got := niceTicks(c.lo, c.hi); !slices.Equal(got, c.want) {
			t.Errorf("niceTicks(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

// The trade-off curve: one dot per point on the polyline, the upper bounds dashed,
// the written mechanism ringed at its smallest p_true, every point in the table;
// fewer than two points draw no curve. Floors 0.5 … 0.7 span x 80 … 690; utilities
// 0.8 … 0.7 (upper to 0.81) span y with 8% margins.
func TestRegionTradeOff(t *testing.T) {
	r := &Region{Utility: [][]float64{{1, 2}, {2, 3}}, Optimum: Point{0.5, 0.5, 3}, Objective: "balanced",
		TradeOff: []Trade{{Floor: 0.5, Utility: 0.8, Upper: 0.81}, {Floor: 0.6, Utility: 0.75, Upper: 0.75}, {Floor: 0.7, Utility: 0.7, Upper: 0.7}}, Chosen: Trade{Floor: 0.55, Utility: 0.8, Upper: 0.81}}
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
	// Floors not solved for the page's time budget are drawn as brackets, said
	// and marked in the table; the solved ones keep their dots.
	r.TradeOff = []Trade{{Floor: 0.5, Utility: 0.8, Upper: 0.81}, {0.6, 0.72, 0.81, true}, {0.7, 0.7, 0.81, true}}
	b.Reset()
	if err := RegionHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	page = b.String()
	if got := strings.Count(page, `<g class="bounded">`); got != 2 || strings.Count(page, `fill="#3b528b">`) != 1 {
		t.Errorf("%d bounded brackets, want 2, and one solved dot", got)
	}
	for _, want := range []string{"2 of the floors (the hollow points) were not solved", "<td>0.6 (not solved: bounded)</td><td>0.72</td><td>0.81</td>",
		"floor 0.7, not solved: the optimum is between 0.7 and 0.81"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// The trade-off chart's ticks are round values labelled apart, also when the
// utilities differ only in the 7th digit (the example under uniform weights: every
// floor up to α keeps the optimum, 0.7248376506, upper bound 0.7248378353).
func TestTradeOffTicks(t *testing.T) {
	r := &Region{Utility: [][]float64{{1, 2}, {2, 3}}, Optimum: Point{0.5, 0.5, 3}, Objective: "balanced",
		TradeOff: []Trade{{Floor: 0.5, Utility: 0.7248376506, Upper: 0.7248378353}, {Floor: 0.6225, Utility: 0.7248376506, Upper: 0.7248378353}}, Chosen: Trade{Floor: 0.6225, Utility: 0.7248376506, Upper: 0.7248378353}}
	c := tradeGeometry(r)
	for _, ticks := range [][]tick{c.XTicks, c.YTicks} {
		seen := map[string]bool{}
		for _, tk := range ticks {
			if seen[tk.Label] {
				t.Errorf("label %q twice in %v", tk.Label, ticks)
			}
			seen[tk.Label] = true
		}
		if len(ticks) < 3 {
			t.Errorf("ticks %v", ticks)
		}
	}
	if got := c.XTicks[0].Label + " " + c.XTicks[1].Label; got != "0.50 0.52" {
		t.Errorf("x ticks start %q, want 0.50 0.52 (a step of 0.02 over 0.5 … 0.6225)", got)
	}
	if got := tickLabels([]float64{0.7248377, 0.72483775, 0.7248378}); !slices.Equal(got, []string{"0.72483770", "0.72483775", "0.72483780"}) {
		t.Errorf("tickLabels: %v", got)
	}
}
