package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Region is the utility over the two-parameter family of the paper's boundary-homogeneous corollary
// (docs/DESIGN.md §3.6)
// (boundary-homogeneous hitting-set values: α₀ on answer 0, α₁ on answer 1), for
// graphdp optimize's page: Utility[i][j] is the utility at α₀ = i/(k−1), α₁ = j/(k−1)
// (NaN where the pair admits no DP extension).
type Region struct {
	Utility     [][]float64
	TotalWeight float64
	Balanced    Point // (α, α)
	Homogeneous Point // the best pair
	// Optimum is the unrestricted optimum, drawn at the weighted means of its
	// answer-0 and answer-1 hitting-set values (it is not in the family in general).
	Optimum    Point
	UpperBound float64 // certified
	Epsilon    float64
	Delta      float64
	Weights    string
	// Objective names the utility (optimize's objective). TradeOff is its best value
	// against a common floor t on every dataset's p_true, ascending in t (each point
	// certified: Utility ≤ optimum ≤ Upper); Chosen is the written mechanism, at its
	// smallest p_true. No curve is drawn with fewer than two points.
	Objective string
	TradeOff  []Trade
	Chosen    Trade
	// Cut says why the best pair is missing (a deadline ended its search): then it
	// is not marked, and cells without a value are "not computed" when none has
	// one (the family itself was not built).
	Cut string
}

// Trade is one point of the trade-off curve. Bounded: not solved (the page's time
// budget), Utility and Upper bracket the optimum there, not within the gap.
type Trade struct {
	Floor, Utility, Upper float64
	Bounded               bool
}

// Point is one marked pair and its utility.
type Point struct {
	Alpha0, Alpha1, Utility float64
}

// regionPlot is the SVG geometry the template draws.
type regionPlot struct {
	W, H       float64 // the whole SVG
	Left, Top  float64 // the plot square's corner
	Size, Cell float64
	Cells      template.HTML // the heat map's cells, drawn (cellsSVG)
	Marks      []regionMark
	Lo, Hi     float64      // colour scale
	XTicks     []regionTick // Pos: x of α₀
	YTicks     []regionTick // Pos: y of α₁
	Bar        regionBar
}

type regionCell struct {
	X, Y  float64
	Fill  string
	Title string
}

// regionMark is one marked point: its shape (drawn largest first, so coinciding
// points nest and each stays visible), and its label, placed where it overlaps no
// other label or mark, with a leader line back to the point.
type regionMark struct {
	X, Y         float64
	Label, Class string // Class: balanced, homogeneous or optimum (its colour)
	Shape        string // SVG path of the mark
	Ring         bool   // drawn as a ring (stroke only)
	LX, LY       float64
	Anchor       string // the label's text-anchor
	BoxX, BoxW   float64
	LineX, LineY float64 // the leader line's end at the label
	P            Point
}

type regionTick struct {
	Pos   float64
	Label string
}

// regionBar is the colour bar: utility from Lo (bottom) to Hi (top).
type regionBar struct {
	X, Y, W, H float64
	Steps      []regionCell // X unused: Y and Fill
	StepH      float64
	Ticks      []regionTick // Pos: y
	GreyY      float64      // the "no DP extension" swatch
}

const (
	regionSize   = 440.0
	regionLeft   = 64.0
	regionTop    = 16.0
	regionBarGap = 34.0
)

// tradePlot is the trade-off curve's SVG geometry.
type tradePlot struct {
	W, H, Left, Right, Top, Bottom float64
	Line, UpperLine                string // polyline points
	Points                         []point
	Bars                           []bar // the Bounded points' brackets
	Bounded                        int
	Chosen                         point
	XTicks, YTicks                 []tick
}

// tradeGeometry lays out the curve: floors on x, utilities on y, both axes spanning
// the points (and the chosen one), with a margin so flat curves stay visible.
func tradeGeometry(r *Region) *tradePlot {
	if len(r.TradeOff) < 2 {
		return nil
	}
	c := &tradePlot{W: 720, H: 320, Left: 80, Right: 690, Top: 20, Bottom: 270}
	x0, x1 := math.Min(r.TradeOff[0].Floor, r.Chosen.Floor), math.Max(r.TradeOff[len(r.TradeOff)-1].Floor, r.Chosen.Floor)
	y0, y1 := r.Chosen.Utility, r.Chosen.Utility
	for _, p := range r.TradeOff {
		y0, y1 = math.Min(y0, p.Utility), math.Max(y1, p.Upper)
	}
	pad := math.Max((y1-y0)*0.08, math.Max(math.Abs(y1)*1e-6, 1e-12))
	y0, y1 = y0-pad, y1+pad
	if x1 <= x0 {
		x1 = x0 + 1e-9
	}
	px := func(x float64) float64 { return c.Left + (x-x0)/(x1-x0)*(c.Right-c.Left) }
	py := func(y float64) float64 { return c.Bottom - (y-y0)/(y1-y0)*(c.Bottom-c.Top) }
	var line, upper []string
	for _, p := range r.TradeOff {
		line = append(line, fmt.Sprintf("%.1f,%.1f", px(p.Floor), py(p.Utility)))
		upper = append(upper, fmt.Sprintf("%.1f,%.1f", px(p.Floor), py(p.Upper)))
		if p.Bounded {
			c.Bounded++
			c.Bars = append(c.Bars, bar{X: px(p.Floor), Lo: py(p.Utility), Hi: py(p.Upper),
				Title: fmt.Sprintf("floor %.6g, not solved: the optimum is between %.10g and %.10g", p.Floor, p.Utility, p.Upper)})
			continue
		}
		c.Points = append(c.Points, point{X: px(p.Floor), Y: py(p.Utility),
			Title: fmt.Sprintf("floor %.6g: utility %.10g (certified upper bound %.10g)", p.Floor, p.Utility, p.Upper)})
	}
	c.Line, c.UpperLine = strings.Join(line, " "), strings.Join(upper, " ")
	c.Chosen = point{X: px(r.Chosen.Floor), Y: py(r.Chosen.Utility),
		Title: fmt.Sprintf("the written mechanism: smallest p_true %.6g, utility %.10g", r.Chosen.Floor, r.Chosen.Utility)}
	xs, ys := niceTicks(x0, x1), niceTicks(y0, y1)
	for i, l := range tickLabels(xs) {
		c.XTicks = append(c.XTicks, tick{At: px(xs[i]), Label: l})
	}
	for i, l := range tickLabels(ys) {
		c.YTicks = append(c.YTicks, tick{At: py(ys[i]), Label: l})
	}
	return c
}

// tickLabels writes round tick values with the fewest decimals that give each
// exactly, so close ticks never share a label.
func tickLabels(vs []float64) []string {
	d := 0
	for ; d < 15; d++ {
		exact := true
		for _, v := range vs {
			back, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', d, 64), 64)
			exact = exact && back == v
		}
		if exact {
			break
		}
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.FormatFloat(v, 'f', d, 64)
	}
	return out
}

// RegionHTML writes the boundary-homogeneous page: the utility as a heat map over the feasible
// (α₀, α₁) region with the three points marked (doc.go, invariant 4: self-contained).
func RegionHTML(w io.Writer, r *Region) error {
	k := len(r.Utility)
	if k < 2 {
		return fmt.Errorf("report: region grid of %d points", k)
	}
	p := regionPlot{Left: regionLeft, Top: regionTop, Size: regionSize, Cell: regionSize / float64(k), Lo: math.Inf(1), Hi: r.Optimum.Utility}
	p.W, p.H = regionLeft+regionSize+regionBarGap+16+72, regionTop+regionSize+48
	for _, row := range r.Utility {
		for _, u := range row {
			if !math.IsNaN(u) {
				p.Lo = min(p.Lo, u)
				p.Hi = max(p.Hi, u)
			}
		}
	}
	missing := "no DP extension"
	if math.IsInf(p.Lo, 1) {
		p.Lo = p.Hi
		if r.Cut != "" {
			missing = "not computed"
		}
	}
	// x of α₀ and y of α₁ at the centre of their cells.
	px := func(a float64) float64 { return regionLeft + p.Cell/2 + a*(regionSize-p.Cell) }
	py := func(a float64) float64 { return regionTop + regionSize - p.Cell/2 - a*(regionSize-p.Cell) }
	cells := make([]regionCell, 0, k*k)
	for i, row := range r.Utility {
		for j, u := range row {
			a0, a1 := float64(i)/float64(k-1), float64(j)/float64(k-1)
			c := regionCell{X: px(a0) - p.Cell/2, Y: py(a1) - p.Cell/2}
			if math.IsNaN(u) {
				c.Fill, c.Title = "#eeeeee", fmt.Sprintf("α₀=%.3f α₁=%.3f: %s", a0, a1, missing)
			} else {
				c.Fill, c.Title = heat((u-p.Lo)/max(p.Hi-p.Lo, 1e-300)), fmt.Sprintf("α₀=%.3f α₁=%.3f: utility %.6g", a0, a1, u)
			}
			cells = append(cells, c)
		}
	}
	for _, t := range []float64{0, 0.2, 0.4, 0.6, 0.8, 1} {
		l := strconv.FormatFloat(t, 'f', 1, 64)
		p.XTicks = append(p.XTicks, regionTick{px(t), l})
		p.YTicks = append(p.YTicks, regionTick{py(t), l})
	}
	p.Cells = cellsSVG(cells, p.Cell)
	p.Marks = regionMarks(r, px, py)
	p.Bar = colourBar(p.Lo, p.Hi, regionLeft+regionSize+regionBarGap, regionTop+24, regionSize-64)
	return regionPage.Execute(w, struct {
		R *Region
		P regionPlot
		T *tradePlot
	}{r, p, tradeGeometry(r)})
}

// cellsSVG draws the heat map's cells, one rect each with its title, as the
// template would (the same bytes) but without its reflection and escaping per
// attribute: thousands of cells made most of the page's cost. Every value written
// is a number or a string made here from numbers (no character to escape).
func cellsSVG(cells []regionCell, size float64) template.HTML {
	var b []byte
	num := func(x float64) { b = strconv.AppendFloat(b, x, 'f', 1, 64) }
	for _, c := range cells {
		b = append(b, `<rect class="cell" x="`...)
		num(c.X)
		b = append(b, `" y="`...)
		num(c.Y)
		b = append(b, `" width="`...)
		num(size)
		b = append(b, `" height="`...)
		num(size)
		b = append(b, `" fill="`...)
		b = append(b, c.Fill...)
		b = append(b, `"><title>`...)
		b = append(b, template.HTMLEscapeString(c.Title)...)
		b = append(b, "</title></rect>\n"...)
	}
	return template.HTML(b)
}

// regionMarks shapes and labels the three points. Each shape is smaller than the
// one before and drawn over it, so points that coincide (often all three) nest.
func regionMarks(r *Region, px, py func(float64) float64) []regionMark {
	type mk struct {
		label, class string
		pt           Point
	}
	ms := []mk{{"balanced α", "balanced", r.Balanced}, {"best homogeneous", "homogeneous", r.Homogeneous}, {"optimum (mean values)", "optimum", r.Optimum}}
	var out []regionMark
	for i, m := range ms {
		if i == 1 && r.Cut != "" {
			continue // not searched
		}
		x, y := round1(px(m.pt.Alpha0)), round1(py(m.pt.Alpha1))
		rm := regionMark{X: x, Y: y, Label: m.label, Class: m.class, P: m.pt}
		switch i {
		case 0: // a ring of radius 12
			rm.Ring, rm.Shape = true, fmt.Sprintf("M%.1f %.1fa12 12 0 1 0 24 0a12 12 0 1 0 -24 0Z", x-12, y)
		case 1: // a square of half-side 7.5
			rm.Shape = fmt.Sprintf("M%.1f %.1fh15v15h-15Z", x-7.5, y-7.5)
		default: // a diamond of half-diagonal 6.5
			rm.Shape = fmt.Sprintf("M%.1f %.1fl6.5 6.5l-6.5 6.5l-6.5 -6.5Z", x, y-6.5)
		}
		out = append(out, rm)
	}
	placeLabels(out)
	return out
}

// placeLabels puts each mark's label where its box overlaps no label placed before
// it and no mark, inside the plot: right of the mark if it fits, else left, at
// growing heights above and below.
func placeLabels(ms []regionMark) {
	const h, pad = 18.0, 20.0
	type box struct{ x0, y0, x1, y1 float64 }
	overlaps := func(a, b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }
	var taken []box
	for _, m := range ms {
		taken = append(taken, box{m.X - 16, m.Y - 16, m.X + 16, m.Y + 16})
	}
	lo, hi := regionLeft, regionLeft+regionSize
	for i := range ms {
		m := &ms[i]
		w := 8.4*float64(utf8.RuneCountInString(m.Label)) + 12 // wide enough for DejaVu Sans Bold, a wide font
		var best *box
		for step := 0; step < 40 && best == nil; step++ {
			dy := float64((step+1)/2) * 20
			if step%2 == 1 {
				dy = -dy
			}
			for _, right := range []bool{true, false} {
				x0 := m.X + pad
				if !right {
					x0 = m.X - pad - w
				}
				b := box{x0, m.Y + dy - h/2, x0 + w, m.Y + dy + h/2}
				if b.x0 < lo || b.x1 > hi || b.y0 < regionTop || b.y1 > regionTop+regionSize {
					continue
				}
				free := true
				for _, t := range taken {
					free = free && !overlaps(b, t)
				}
				if free {
					best = &b
					break
				}
			}
		}
		if best == nil { // nowhere free: under the plot's top-left corner, stacked
			best = &box{lo + 4, regionTop + 4 + float64(i)*h, lo + 4 + w, regionTop + 4 + float64(i+1)*h}
		}
		taken = append(taken, *best)
		m.BoxX, m.BoxW = round1(best.x0), round1(w)
		m.LY = round1((best.y0 + best.y1) / 2)
		m.LX, m.Anchor, m.LineX = round1(best.x0+5), "start", round1(best.x0)
		if best.x1 <= m.X {
			m.LineX = round1(best.x1)
		}
		m.LineY = m.LY
	}
}

// colourBar is the utility scale beside the plot: steps of colour, and ticks at
// round values.
func colourBar(lo, hi, x, y, h float64) regionBar {
	b := regionBar{X: x, Y: y, W: 16, H: h}
	const steps = 64
	b.StepH = round1(h/steps + 0.3)
	for s := range steps {
		b.Steps = append(b.Steps, regionCell{Y: round1(y + h - float64(s+1)*h/steps), Fill: heat((float64(s) + 0.5) / steps)})
	}
	at := func(u float64) float64 { return round1(y + h - (u-lo)/max(hi-lo, 1e-300)*h) }
	// Both ends, to 6 digits (the top is the optimum), and round values between
	// them not within 14 pixels of an end.
	b.Ticks = append(b.Ticks, regionTick{at(hi), strconv.FormatFloat(hi, 'g', 6, 64)})
	if hi > lo {
		for _, u := range slices.Backward(niceTicks(lo, hi)) {
			if at(u)-at(hi) >= 14 && at(lo)-at(u) >= 14 {
				b.Ticks = append(b.Ticks, regionTick{at(u), strconv.FormatFloat(u, 'g', 6, 64)})
			}
		}
		b.Ticks = append(b.Ticks, regionTick{at(lo), strconv.FormatFloat(lo, 'g', 6, 64)})
	}
	b.GreyY = y + h + 14
	return b
}

// niceTicks are the values k·step within [lo, hi] for the largest 1, 2 or 5 × 10ⁿ
// step that gives at least 3 of them (at most 10), or lo and hi when hi ≤ lo + step.
func niceTicks(lo, hi float64) []float64 {
	if !(hi > lo) {
		return []float64{lo}
	}
	span := hi - lo
	step := math.Pow(10, math.Floor(math.Log10(span)))
	for _, m := range []float64{2, 1, 0.5, 0.2} { // span/step is in [1, 10)
		if span/(step*m) >= 3 {
			step *= m
			break
		}
	}
	var ts []float64
	for k := math.Ceil(lo / step); k*step <= hi+step*1e-9; k++ {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(k*step, 'g', 12, 64), 64) // 0.6, not 0.6000000000000001
		ts = append(ts, v)
	}
	if len(ts) < 2 {
		return []float64{lo, hi}
	}
	return ts
}

// heatStops is a dark-blue → yellow scale.
var heatStops = [][3]float64{{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}

// heat maps [0, 1] to the heatStops scale.
func heat(t float64) string { return ramp(heatStops, t) }

var regionPage = mustParse(template.New("region").Funcs(template.FuncMap{
	"g":    func(x float64) string { return fmt.Sprintf("%.10g", x) },
	"f":    func(x float64) string { return fmt.Sprintf("%.1f", x) },
	"add":  func(a, b float64) float64 { return a + b },
	"sub":  func(a, b float64) float64 { return a - b },
	"half": func(a float64) float64 { return a / 2 },
}), `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>graphdp optimize: the boundary-homogeneous family</title>
<style>
{{template "style.css"}}svg .cell { shape-rendering: crispEdges; }
svg .mark { stroke: #111; stroke-width: 1.5; }
svg .mark.balanced { fill: none; stroke: #ffffff; stroke-width: 3.5; }
svg .mark.homogeneous { fill: #ff2d95; }
svg .mark.optimum { fill: #00e5ff; }
svg .ringedge { fill: none; stroke: #111; stroke-width: 6.5; }
svg .leader { stroke: #111; stroke-width: 1; }
svg .labelbox { fill: #ffffff; fill-opacity: 0.88; stroke: #8a959e; stroke-width: 0.6; }
svg text.marklabel { font-size: 12px; fill: #1d232a; font-weight: 600; }
svg text.title { font-size: 13px; fill: #1d232a; }
table.points td:first-child svg { display: inline; vertical-align: middle; margin: 0 0.3em 0 0; }
</style></head><body>
<h1>Utility over the boundary-homogeneous family</h1>
<p class="sub">ε = {{g .R.Epsilon}}, δ = {{g .R.Delta}}; weights: {{.R.Weights}}</p>
<p>Each cell is the utility Σ w·p_true of the
optimal extension of p_true = α₀ on every answer-0 and α₁ on every answer-1 hitting-set dataset; grey pairs admit
no DP extension (the paper's feasibility lemma). The colour scale ends at the unrestricted optimum.</p>
{{with .R.Cut}}<p id="cut">{{.}}</p>
{{end}}<svg id="region" width="{{f .P.W}}" height="{{f .P.H}}" viewBox="0 0 {{f .P.W}} {{f .P.H}}" role="img" aria-label="utility over (α₀, α₁)">
{{.P.Cells}}<rect x="{{f .P.Left}}" y="{{f .P.Top}}" width="{{f .P.Size}}" height="{{f .P.Size}}" fill="none" class="axis"/>
{{range .P.XTicks}}<line class="axis" x1="{{f .Pos}}" x2="{{f .Pos}}" y1="{{f (add $.P.Top $.P.Size)}}" y2="{{f (add $.P.Top (add $.P.Size 5))}}"/><text class="xtick" x="{{f .Pos}}" y="{{f (add $.P.Top (add $.P.Size 18))}}" text-anchor="middle">{{.Label}}</text>
{{end}}{{range .P.YTicks}}<line class="axis" x1="{{f (sub $.P.Left 5)}}" x2="{{f $.P.Left}}" y1="{{f .Pos}}" y2="{{f .Pos}}"/><text class="ytick" x="{{f (sub $.P.Left 8)}}" y="{{f (add .Pos 4)}}" text-anchor="end">{{.Label}}</text>
{{end}}<text class="title" x="{{f (add .P.Left (half .P.Size))}}" y="{{f (add .P.Top (add .P.Size 38))}}" text-anchor="middle">α₀: p_true on answer-0 hitting-set datasets</text>
<text class="title" transform="translate(18 {{f (add .P.Top (half .P.Size))}}) rotate(-90)" text-anchor="middle">α₁: p_true on answer-1 hitting-set datasets</text>
{{with .P.Bar}}<g class="cbar">{{range .Steps}}<rect x="{{f $.P.Bar.X}}" y="{{f .Y}}" width="{{f $.P.Bar.W}}" height="{{f $.P.Bar.StepH}}" fill="{{.Fill}}"/>{{end}}</g>
<rect class="axis" x="{{f .X}}" y="{{f .Y}}" width="{{f .W}}" height="{{f .H}}" fill="none"/>
{{range .Ticks}}<line class="axis" x1="{{f (add $.P.Bar.X $.P.Bar.W)}}" x2="{{f (add $.P.Bar.X (add $.P.Bar.W 5))}}" y1="{{f .Pos}}" y2="{{f .Pos}}"/><text class="ctick" x="{{f (add $.P.Bar.X (add $.P.Bar.W 8))}}" y="{{f (add .Pos 4)}}">{{.Label}}</text>
{{end}}<text x="{{f .X}}" y="{{f (sub .Y 14)}}" class="ctitle">utility</text>
<rect x="{{f .X}}" y="{{f .GreyY}}" width="{{f .W}}" height="12" fill="#eeeeee" class="axis"/><text x="{{f (add .X 20)}}" y="{{f (add .GreyY 10)}}">no DP</text>
{{end}}{{range .P.Marks}}{{if .Ring}}<path class="ringedge" d="{{.Shape}}"/>{{end}}<path class="mark {{.Class}}" d="{{.Shape}}" data-label="{{.Label}}"><title>{{.Label}}: α₀={{g .P.Alpha0}}, α₁={{g .P.Alpha1}}, utility {{g .P.Utility}}</title></path>
{{end}}{{range .P.Marks}}<line class="leader" x1="{{f .X}}" y1="{{f .Y}}" x2="{{f .LineX}}" y2="{{f .LineY}}"/><rect class="labelbox" x="{{f .BoxX}}" y="{{f (sub .LY 9)}}" width="{{f .BoxW}}" height="18" rx="3"/><text class="marklabel" x="{{f .LX}}" y="{{f (add .LY 4)}}">{{.Label}}</text>
{{end}}</svg>
<p>Where points coincide their marks nest: the ring (balanced α) around the square (best homogeneous) around the diamond (optimum).</p>
<table class="points"><tr><th>point</th><th>α₀</th><th>α₁</th><th>utility</th></tr>
{{range .P.Marks}}<tr><td><svg width="28" height="28" viewBox="{{f (sub .X 17)}} {{f (sub .Y 17)}} 34 34" aria-hidden="true">{{if .Ring}}<path class="ringedge" d="{{.Shape}}"/>{{end}}<path class="mark {{.Class}}" d="{{.Shape}}"/></svg>{{.Label}}</td><td>{{g .P.Alpha0}}</td><td>{{g .P.Alpha1}}</td><td>{{g .P.Utility}}</td></tr>
{{end}}<tr><td>certified upper bound (no DP mechanism does better)</td><td></td><td></td><td>{{g .R.UpperBound}}</td></tr>
<tr><td>total weight (answering truthfully)</td><td></td><td></td><td>{{g .R.TotalWeight}}</td></tr></table>
<p>Colour scale: {{g .P.Lo}} (dark) to {{g .P.Hi}} (yellow).</p>
{{with .T}}<h2>The price of a floor</h2>
<p>The best {{$.R.Objective}} utility when every dataset's p_true must be at least t, one certified solve per point
(the dashed line is each point's certified upper bound; no DP mechanism meeting the floor lies above it), up to the
largest floor any DP mechanism meets. The ring is the written mechanism, at its smallest p_true.</p>
{{if .Bounded}}<p id="tradebounded">{{.Bounded}} of the floors (the hollow points) were not solved, so that the page adds at most
a fifth of the solve's time: the optimum there lies on the bar, between the best mechanism known to meet the floor
(a point solved below it, the balanced α or the best boundary-homogeneous pair for it) and the bound of the point
below. <code>graphdp optimize --min-accuracy t</code> solves the floor t.</p>
{{end}}
<svg id="tradeoff" width="{{f .W}}" height="{{f .H}}" viewBox="0 0 {{f .W}} {{f .H}}" role="img" aria-label="utility against a floor on p_true">
{{range .YTicks}}<line class="grid" x1="{{f $.T.Left}}" x2="{{f $.T.Right}}" y1="{{f .At}}" y2="{{f .At}}"/>
{{end}}<line class="axis" x1="{{f .Left}}" y1="{{f .Bottom}}" x2="{{f .Right}}" y2="{{f .Bottom}}"/><line class="axis" x1="{{f .Left}}" y1="{{f .Top}}" x2="{{f .Left}}" y2="{{f .Bottom}}"/>
{{range .XTicks}}<line class="axis" x1="{{f .At}}" x2="{{f .At}}" y1="{{f $.T.Bottom}}" y2="{{f (add $.T.Bottom 5)}}"/><text class="xtick" x="{{f .At}}" y="{{f (add $.T.Bottom 18)}}" text-anchor="middle">{{.Label}}</text>
{{end}}{{range .YTicks}}<line class="axis" x1="{{f (sub $.T.Left 5)}}" x2="{{f $.T.Left}}" y1="{{f .At}}" y2="{{f .At}}"/><text class="ytick" x="{{f (sub $.T.Left 8)}}" y="{{f (add .At 4)}}" text-anchor="end">{{.Label}}</text>
{{end}}<text class="title" x="{{f (half (add .Left .Right))}}" y="{{f (add .Bottom 40)}}" text-anchor="middle">floor t on every dataset's p_true</text>
<text class="title" x="{{f .Left}}" y="{{f (sub .Top 8)}}" text-anchor="middle">utility</text>
<polyline points="{{.UpperLine}}" fill="none" stroke="#999" stroke-dasharray="4 3"/>
<polyline points="{{.Line}}" fill="none" stroke="#3b528b" stroke-width="2"/>
{{range .Points}}<circle cx="{{f .X}}" cy="{{f .Y}}" r="3.5" fill="#3b528b"><title>{{.Title}}</title></circle>
{{end}}{{range .Bars}}<g class="bounded"><title>{{.Title}}</title><line x1="{{f .X}}" x2="{{f .X}}" y1="{{f .Lo}}" y2="{{f .Hi}}" stroke="#3b528b" stroke-width="1.5"/><circle cx="{{f .X}}" cy="{{f .Lo}}" r="3.5" fill="#ffffff" stroke="#3b528b" stroke-width="1.5"/></g>
{{end}}<circle cx="{{f .Chosen.X}}" cy="{{f .Chosen.Y}}" r="8" fill="none" stroke="#ff2d95" stroke-width="3"><title>{{.Chosen.Title}}</title></circle>
</svg>
<table><tr><th>floor t</th><th>utility</th><th>certified upper bound</th></tr>
{{range $.R.TradeOff}}<tr><td>{{g .Floor}}{{if .Bounded}} (not solved: bounded){{end}}</td><td>{{g .Utility}}</td><td>{{g .Upper}}</td></tr>
{{end}}<tr><td>written mechanism (smallest p_true {{g $.R.Chosen.Floor}})</td><td>{{g $.R.Chosen.Utility}}</td><td>{{g $.R.UpperBound}}</td></tr></table>{{end}}
</body></html>
`)
