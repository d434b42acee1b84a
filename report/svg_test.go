package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// countsInput is n isolated datasets (answer 0) whose p_true fill histogram bins as
// counts says (bin → datasets): the histogram depends on nothing else.
func countsInput(t *testing.T, counts map[int]int) Input {
	t.Helper()
	var pone []float64
	for _, k := range slices.Sorted(func(yield func(int) bool) {
		for k := range counts {
			if !yield(k) {
				return
			}
		}
	}) {
		for range counts[k] {
			pone = append(pone, 1-(float64(k)+0.5)/Bins) // p_true in the middle of bin k
		}
	}
	n := len(pone)
	g, _ := graph.Build(n, nil, nil)
	pair, err := dp.New(0.5, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	return Input{Graph: g, Answer: make([]bool, n), POne: pone, Pair: pair, ID: func(v int32) string { return "d" + strings.Repeat("x", int(v%3)) }}
}

// The histogram: 194,010, 3,004 and 2,986 datasets among 200,000. On a
// linear axis the small bins would be 1.5% of the height (3 pixels); the axis is
// logarithmic, ticks at powers of ten with their thousands grouped, and each small
// bin is over 40 pixels and a quarter of the height of the largest. With counts within LogRatio of
// each other the axis stays linear from 0.
func TestHistogramLogScale(t *testing.T) {
	c := histogramChart(mustCompute(t, countsInput(t, map[int]int{12: 194_010, 15: 3_004, 17: 2_986})))
	if !c.Log || c.YLabel != "datasets (log scale)" {
		t.Fatalf("log %v, y label %q", c.Log, c.YLabel)
	}
	var labels []string
	for _, tk := range c.YTicks {
		labels = append(labels, tk.Label)
	}
	if !slices.Equal(labels, []string{"1,000", "10,000", "100,000", "1,000,000"}) {
		t.Errorf("y ticks %v", labels)
	}
	heights := map[string]float64{}
	for _, b := range c.Bars {
		heights[b.Title] = b.H
	}
	big, small, smaller := heights["p_true in [0.60, 0.65): 194,010 datasets"], heights["p_true in [0.75, 0.80): 3,004 datasets"], heights["p_true in [0.85, 0.90): 2,986 datasets"]
	if big <= 0 || small < max(40, big/4) || smaller < max(40, big/4) || smaller >= small {
		t.Errorf("bar heights %v", heights)
	}
	for _, b := range c.Bars {
		if b.Label != "" && textWidth(b.Label, 11) > b.W {
			t.Errorf("bar label %q wider than its bar (%v)", b.Label, b.W)
		}
	}
	// The left margin holds the widest tick label between the axis and the title.
	if c.Left-tickGap-textWidth("1,000,000", 12) < c.YTitleX+yTitleGap {
		t.Errorf("left margin %v: the y title at %v meets the tick labels", c.Left, c.YTitleX)
	}

	lin := histogramChart(mustCompute(t, countsInput(t, map[int]int{12: 1_900, 15: 100})))
	labels = nil
	for _, tk := range lin.YTicks {
		labels = append(labels, tk.Label)
	}
	if lin.Log || !slices.Equal(labels, []string{"0", "1,000", "2,000"}) {
		t.Errorf("counts within %d×: log %v, y ticks %v", LogRatio, lin.Log, labels)
	}
}

// A bin of one dataset among a million still has a bar (the log axis starts below
// one), and an empty bin has none.
func TestHistogramLogSingleDataset(t *testing.T) {
	c := histogramChart(mustCompute(t, countsInput(t, map[int]int{12: 100_000, 18: 1})))
	for _, b := range c.Bars {
		switch {
		case strings.HasSuffix(b.Title, ": 1 dataset") && b.H < 10:
			t.Errorf("one dataset: bar %.1f px high", b.H)
		case strings.HasSuffix(b.Title, ": 0 datasets") && b.H != 0:
			t.Errorf("empty bin: bar %.1f px high", b.H)
		}
	}
	if !c.Log || c.YTicks[0].Label != "1" {
		t.Errorf("log %v, ticks %v", c.Log, c.YTicks)
	}
}
