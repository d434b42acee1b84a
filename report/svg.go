package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/graphdp/graphdp/internal/words"
)

// chart is one inline SVG plot, laid out in Go so the template only prints numbers.
type chart struct {
	ID                       string // the svg's id, "" for none
	W, H                     float64
	Left, Right, Top, Bottom float64 // the plot area
	YTitleX                  float64 // the baseline of the rotated y-axis title, left of the widest tick label
	Bars                     []rect
	Line                     string // polyline points "x,y x,y …"
	Points                   []point
	XTicks, YTicks           []tick
	Ref                      *ref
	XLabel, YLabel           string
	Log                      bool // the y axis is logarithmic (the histogram, when counts differ by orders of magnitude)
}

type rect struct {
	X, Y, W, H float64
	Title      string
	// Label is the bar's count, written inside its top (Inside, light on the bar)
	// when the bar is tall enough, else just above it; "" when it would be wider
	// than the bar.
	Label  string
	LX, LY float64
	Inside bool
}

type point struct {
	X, Y  float64
	Title string
}

// bar is a vertical bracket at x from y Lo to Hi.
type bar struct {
	X, Lo, Hi float64
	Title     string
}

type tick struct {
	At    float64
	Label string
}

// ref is randomized response's line: vertical on the histogram, horizontal on the
// distance plot.
type ref struct {
	X1, Y1, X2, Y2 float64
	LX, LY         float64
	Label          string
	Anchor         string
}

// Chart text is 12 px (style.css: svg text) and bar labels 11 px. textWidth is a
// generous estimate of a label's width at px pixels: digits and most letters are at
// most 0.64 em wide in the common sans-serif faces (DejaVu Sans, the widest of
// them, has 0.636 em digits), commas and points 0.32 em. The browser test measures
// the real boxes.
func textWidth(s string, px float64) float64 {
	w := 0.0
	for _, r := range s {
		switch r {
		case ',', '.', ' ', '(', ')', '[', ']':
			w += 0.32
		default:
			w += 0.64
		}
	}
	return w * px
}

// The y-axis title is rotated, centred on x = yTitleX: its glyphs reach about
// 11 px to its left and 3 px to its right (12 px text). Tick labels end 6 px left
// of the axis and start at least yTitleGap right of the title.
const (
	yTitleX   = 14.0
	yTitleGap = 3.0 + 6.0
	tickGap   = 6.0
	chartLeft = 64.0 // the least left margin
)

// newChart is a plot whose left margin leaves room for the widest y tick label
// between the axis and the rotated y-axis title, so they never overlap.
func newChart(xLabel, yLabel string, yLabels []string) chart {
	widest := 0.0
	for _, l := range yLabels {
		widest = math.Max(widest, textWidth(l, 12))
	}
	left := math.Max(chartLeft, math.Ceil(yTitleX+yTitleGap+widest+tickGap))
	return chart{W: 720, H: 310, Left: left, Right: 700, Top: 32, Bottom: 260, YTitleX: yTitleX, XLabel: xLabel, YLabel: yLabel}
}

// niceCeil rounds a count up to 1, 2 or 5 times a power of ten.
func niceCeil(x int) int {
	if x <= 1 {
		return 1
	}
	p := int(math.Pow(10, math.Floor(math.Log10(float64(x)))))
	for _, m := range []int{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// LogRatio is from when the histogram's count axis is logarithmic: when the largest
// bin holds more than LogRatio times the smallest non-empty one, a linear axis would
// leave the small bin a sliver (3,004 beside 194,010 datasets: 1.5% of the height,
// 3 pixels), while on the log axis it is 54 pixels high, 30% of the largest bin.
const LogRatio = 20

// histogramChart plots the datasets per p_true bin from FirstBin on, with α marked.
// The count axis is linear from 0, or logarithmic (powers of ten) when counts
// differ by more than LogRatio times; every count is written with its thousands
// grouped.
func histogramChart(r *Report) chart {
	first := r.FirstBin()
	bins := r.Accuracy.Histogram[first:]
	maxCount, minCount := 0, 0
	for _, b := range bins {
		maxCount = max(maxCount, b.Count)
		if b.Count > 0 && (minCount == 0 || b.Count < minCount) {
			minCount = b.Count
		}
	}
	logScale := minCount > 0 && maxCount > LogRatio*minCount
	var yAt func(n int) float64 // the fraction of the height for a count
	var yTicks []int
	if logScale {
		// Powers of ten from the one at or below the smallest count to the one at or
		// above the largest; the baseline is half the lowest power, so a bin of the
		// smallest count still has height.
		e0, e1 := math.Floor(math.Log10(float64(minCount))), math.Ceil(math.Log10(float64(maxCount)))
		base := e0 - math.Log10(2)
		yAt = func(n int) float64 {
			if n <= 0 {
				return 0
			}
			return (math.Log10(float64(n)) - base) / (e1 - base)
		}
		for e := e0; e <= e1; e++ {
			yTicks = append(yTicks, int(math.Round(math.Pow(10, e))))
		}
	} else {
		top := niceCeil(maxCount)
		yAt = func(n int) float64 { return float64(n) / float64(top) }
		yTicks = []int{0, top}
		if top%2 == 0 {
			yTicks = []int{0, top / 2, top}
		}
	}
	var labels []string
	for _, n := range yTicks {
		labels = append(labels, words.Thousands(int64(n)))
	}
	yTitle := "datasets"
	if logScale {
		yTitle = "datasets (log scale)"
	}
	c := newChart("p_true = Pr[M = true answer]", yTitle, labels)
	c.ID = "hist"
	c.Log = logScale
	lo := bins[0].Lo
	x := func(p float64) float64 { return c.Left + (p-lo)/(1-lo)*(c.Right-c.Left) }
	y := func(n int) float64 { return c.Bottom - yAt(n)*(c.Bottom-c.Top) }
	for _, b := range bins {
		x0, x1 := x(b.Lo), x(b.Hi)
		closer := ")"
		if b.Hi == 1 {
			closer = "]"
		}
		noun := "datasets"
		if b.Count == 1 {
			noun = "dataset"
		}
		bar := rect{X: x0 + 1, Y: y(b.Count), W: max(x1-x0-2, 1), H: c.Bottom - y(b.Count),
			Title: fmt.Sprintf("p_true in [%.2f, %.2f%s: %s %s", b.Lo, b.Hi, closer, words.Thousands(int64(b.Count)), noun)}
		if l := words.Thousands(int64(b.Count)); b.Count > 0 && textWidth(l, 11)+4 <= bar.W {
			bar.Label, bar.LX = l, bar.X+bar.W/2
			if bar.Inside = bar.H >= 22; bar.Inside {
				bar.LY = bar.Y + 14
			} else {
				bar.LY = bar.Y - 4
			}
		}
		c.Bars = append(c.Bars, bar)
	}
	step := 1
	if len(bins) > 10 {
		step = 2
	}
	for k := 0; k <= len(bins); k += step {
		p := lo + float64(k)/Bins
		c.XTicks = append(c.XTicks, tick{At: x(p), Label: fmt.Sprintf("%.2f", p)})
	}
	for i, n := range yTicks {
		c.YTicks = append(c.YTicks, tick{At: y(n), Label: labels[i]})
	}
	a := r.RandomizedResponse.PTrue
	ax := x(a)
	c.Ref = &ref{X1: ax, Y1: c.Top - 4, X2: ax, Y2: c.Bottom, LX: ax + 4, LY: c.Top - 10, Anchor: "start",
		Label: fmt.Sprintf("randomized response %.4f", a)}
	if ax > (c.Left+c.Right)/2 {
		c.Ref.LX, c.Ref.Anchor = ax-4, "end"
	}
	return c
}

// distanceChart plots mean p_true by distance, with α as a horizontal line. Datasets
// without a distance (group −1) are in the table, not the plot.
func distanceChart(r *Report) chart {
	title := "distance to the binding hitting-set dataset (hops)"
	if r.ByDistance.Kind != "binding" {
		title = "distance to the boundary (hops)"
	}
	var gs []DistanceGroup
	for _, g := range r.ByDistance.Groups {
		if g.Distance >= 0 {
			gs = append(gs, g)
		}
	}
	a := r.RandomizedResponse.PTrue
	lo := a
	for _, g := range gs {
		lo = min(lo, g.Mean)
	}
	lo = math.Max(0, math.Floor((lo-0.02)*20)/20)
	var yLabels []string
	for k := 0; k <= 4; k++ {
		yLabels = append(yLabels, fmt.Sprintf("%.3f", lo+float64(k)/4*(1-lo)))
	}
	c := newChart(title, "mean p_true", yLabels)
	c.ID = "dist"
	maxD := 1
	if len(gs) > 0 {
		maxD = max(maxD, gs[len(gs)-1].Distance)
	}
	pad := 0.5
	x := func(d int) float64 { return c.Left + (float64(d)+pad)/(float64(maxD)+2*pad)*(c.Right-c.Left) }
	y := func(p float64) float64 { return c.Bottom - (p-lo)/(1-lo)*(c.Bottom-c.Top) }
	var pts []string
	for _, g := range gs {
		px, py := x(g.Distance), y(g.Mean)
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", px, py))
		c.Points = append(c.Points, point{X: px, Y: py,
			Title: fmt.Sprintf("distance %s: %s datasets, mean p_true %.6f", words.Thousands(int64(g.Distance)), words.Thousands(int64(g.Datasets)), g.Mean)})
	}
	c.Line = strings.Join(pts, " ")
	step := max(1, (maxD+10)/10)
	for d := 0; d <= maxD; d += step {
		c.XTicks = append(c.XTicks, tick{At: x(d), Label: fmt.Sprint(d)})
	}
	for k := 0; k <= 4; k++ {
		c.YTicks = append(c.YTicks, tick{At: y(lo + float64(k)/4*(1-lo)), Label: yLabels[k]})
	}
	ay := y(a)
	c.Ref = &ref{X1: c.Left, Y1: ay, X2: c.Right, Y2: ay, LX: c.Right - 4, LY: ay - 6, Anchor: "end",
		Label: fmt.Sprintf("randomized response %.4f", a)}
	return c
}
