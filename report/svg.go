package report

import (
	"fmt"
	"math"
	"strings"
)

// chart is one inline SVG plot, laid out in Go so the template only prints numbers.
type chart struct {
	W, H                     float64
	Left, Right, Top, Bottom float64 // the plot area
	Bars                     []rect
	Line                     string // polyline points "x,y x,y …"
	Points                   []point
	XTicks, YTicks           []tick
	Ref                      *ref
	XLabel, YLabel           string
}

type rect struct {
	X, Y, W, H float64
	Title      string
}

type point struct {
	X, Y  float64
	Title string
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

func newChart(xLabel, yLabel string) chart {
	return chart{W: 720, H: 310, Left: 64, Right: 700, Top: 32, Bottom: 260, XLabel: xLabel, YLabel: yLabel}
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

// histogramChart plots the datasets per p_true bin from FirstBin on, with α marked.
func histogramChart(r *Report) chart {
	c := newChart("p_true = Pr[M = true answer]", "datasets")
	first := r.FirstBin()
	bins := r.Accuracy.Histogram[first:]
	maxCount := 0
	for _, b := range bins {
		maxCount = max(maxCount, b.Count)
	}
	top := niceCeil(maxCount)
	lo := bins[0].Lo
	x := func(p float64) float64 { return c.Left + (p-lo)/(1-lo)*(c.Right-c.Left) }
	y := func(n int) float64 { return c.Bottom - float64(n)/float64(top)*(c.Bottom-c.Top) }
	for _, b := range bins {
		x0, x1 := x(b.Lo), x(b.Hi)
		c.Bars = append(c.Bars, rect{X: x0 + 1, Y: y(b.Count), W: max(x1-x0-2, 1), H: c.Bottom - y(b.Count),
			Title: fmt.Sprintf("p_true in [%.2f, %.2f): %d datasets", b.Lo, b.Hi, b.Count)})
	}
	step := 1
	if len(bins) > 10 {
		step = 2
	}
	for k := 0; k <= len(bins); k += step {
		p := lo + float64(k)/Bins
		c.XTicks = append(c.XTicks, tick{At: x(p), Label: fmt.Sprintf("%.2f", p)})
	}
	ys := []int{0, top}
	if top%2 == 0 {
		ys = []int{0, top / 2, top}
	}
	for _, n := range ys {
		c.YTicks = append(c.YTicks, tick{At: y(n), Label: fmt.Sprint(n)})
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
	c := newChart(title, "mean p_true")
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
			Title: fmt.Sprintf("distance %d: %d datasets, mean p_true %.6f", g.Distance, g.Datasets, g.Mean)})
	}
	c.Line = strings.Join(pts, " ")
	step := max(1, (maxD+10)/10)
	for d := 0; d <= maxD; d += step {
		c.XTicks = append(c.XTicks, tick{At: x(d), Label: fmt.Sprint(d)})
	}
	for k := 0; k <= 4; k++ {
		p := lo + float64(k)/4*(1-lo)
		c.YTicks = append(c.YTicks, tick{At: y(p), Label: fmt.Sprintf("%.3f", p)})
	}
	ay := y(a)
	c.Ref = &ref{X1: c.Left, Y1: ay, X2: c.Right, Y2: ay, LX: c.Right - 4, LY: ay - 6, Anchor: "end",
		Label: fmt.Sprintf("randomized response %.4f", a)}
	return c
}
