package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
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
}

// Trade is one point of the trade-off curve.
type Trade struct {
	Floor, Utility, Upper float64
}

// Point is one marked pair and its utility.
type Point struct {
	Alpha0, Alpha1, Utility float64
}

// regionPlot is the SVG geometry the template draws.
type regionPlot struct {
	Size, Cell float64
	Cells      []regionCell
	Marks      []regionMark
	Lo, Hi     float64 // colour scale
	Ticks      []regionTick
}

type regionCell struct {
	X, Y  float64
	Fill  string
	Title string
}

type regionMark struct {
	X, Y          float64
	Label, Colour string
	P             Point
}

type regionTick struct {
	Pos   float64
	Label string
}

// tradePlot is the trade-off curve's SVG geometry.
type tradePlot struct {
	W, H, Left, Right, Top, Bottom float64
	Line, UpperLine                string // polyline points
	Points                         []point
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
		c.Points = append(c.Points, point{X: px(p.Floor), Y: py(p.Utility),
			Title: fmt.Sprintf("floor %.6g: utility %.10g (certified upper bound %.10g)", p.Floor, p.Utility, p.Upper)})
	}
	c.Line, c.UpperLine = strings.Join(line, " "), strings.Join(upper, " ")
	c.Chosen = point{X: px(r.Chosen.Floor), Y: py(r.Chosen.Utility),
		Title: fmt.Sprintf("the written mechanism: smallest p_true %.6g, utility %.10g", r.Chosen.Floor, r.Chosen.Utility)}
	for k := range 5 {
		x := x0 + (x1-x0)*float64(k)/4
		y := y0 + (y1-y0)*float64(k)/4
		c.XTicks = append(c.XTicks, tick{At: px(x), Label: fmt.Sprintf("%.4g", x)})
		c.YTicks = append(c.YTicks, tick{At: py(y), Label: fmt.Sprintf("%.6g", y)})
	}
	return c
}

const regionSize = 480.0

// RegionHTML writes the boundary-homogeneous page: the utility as a heat map over the feasible
// (α₀, α₁) region with the three points marked (doc.go, invariant 4: self-contained).
func RegionHTML(w io.Writer, r *Region) error {
	k := len(r.Utility)
	if k < 2 {
		return fmt.Errorf("report: region grid of %d points", k)
	}
	p := regionPlot{Size: regionSize, Cell: regionSize / float64(k), Lo: math.Inf(1), Hi: r.Optimum.Utility}
	for _, row := range r.Utility {
		for _, u := range row {
			if !math.IsNaN(u) {
				p.Lo = min(p.Lo, u)
				p.Hi = max(p.Hi, u)
			}
		}
	}
	pos := func(a float64) float64 { return a * (regionSize - p.Cell) }
	for i, row := range r.Utility {
		for j, u := range row {
			c := regionCell{X: pos(float64(i) / float64(k-1)), Y: regionSize - p.Cell - pos(float64(j)/float64(k-1))}
			a0, a1 := float64(i)/float64(k-1), float64(j)/float64(k-1)
			if math.IsNaN(u) {
				c.Fill, c.Title = "#eeeeee", fmt.Sprintf("α₀=%.3f α₁=%.3f: no DP extension", a0, a1)
			} else {
				c.Fill, c.Title = heat((u-p.Lo)/max(p.Hi-p.Lo, 1e-300)), fmt.Sprintf("α₀=%.3f α₁=%.3f: utility %.6g", a0, a1, u)
			}
			p.Cells = append(p.Cells, c)
		}
	}
	for _, m := range []struct {
		label, colour string
		pt            Point
	}{{"balanced α", "#ffffff", r.Balanced}, {"best homogeneous", "#ff2d95", r.Homogeneous}, {"optimum (mean values)", "#00e5ff", r.Optimum}} {
		p.Marks = append(p.Marks, regionMark{X: pos(m.pt.Alpha0) + p.Cell/2, Y: regionSize - pos(m.pt.Alpha1) - p.Cell/2, Label: m.label, Colour: m.colour, P: m.pt})
	}
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		p.Ticks = append(p.Ticks, regionTick{pos(t) + p.Cell/2, fmt.Sprintf("%g", t)})
	}
	return regionPage.Execute(w, struct {
		R *Region
		P regionPlot
		T *tradePlot
	}{r, p, tradeGeometry(r)})
}

// heat maps [0, 1] to a dark-blue → yellow scale.
func heat(t float64) string {
	t = min(max(t, 0), 1)
	stops := [][3]float64{{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}
	x := t * float64(len(stops)-1)
	i := min(int(x), len(stops)-2)
	f := x - float64(i)
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(stops[i][k] + f*(stops[i+1][k]-stops[i][k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

var regionPage = template.Must(template.New("region").Funcs(template.FuncMap{
	"g":   func(x float64) string { return fmt.Sprintf("%.10g", x) },
	"f":   func(x float64) string { return fmt.Sprintf("%.1f", x) },
	"add": func(a, b float64) float64 { return a + b },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>graphdp optimize: the boundary-homogeneous family</title>
<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}td,th{padding:.2em .8em;text-align:left}</style></head><body>
<h1>Utility over the boundary-homogeneous family</h1>
<p>ε = {{g .R.Epsilon}}, δ = {{g .R.Delta}}; weights: {{.R.Weights}}. Each cell is the utility Σ w·p_true of the
optimal extension of p_true = α₀ on every answer-0 and α₁ on every answer-1 hitting-set dataset; grey pairs admit
no DP extension (the paper's feasibility lemma). The colour scale ends at the unrestricted optimum.</p>
<svg width="{{f (add .P.Size 60)}}" height="{{f (add .P.Size 50)}}" viewBox="-50 -10 {{f (add .P.Size 60)}} {{f (add .P.Size 50)}}" xmlns="http://www.w3.org/2000/svg">
{{range .P.Cells}}<rect x="{{f .X}}" y="{{f .Y}}" width="{{f $.P.Cell}}" height="{{f $.P.Cell}}" fill="{{.Fill}}"><title>{{.Title}}</title></rect>
{{end}}{{range .P.Ticks}}<text x="{{f .Pos}}" y="{{f (add $.P.Size 16)}}" font-size="11" text-anchor="middle">{{.Label}}</text>
{{end}}<text x="200" y="{{f (add .P.Size 34)}}" font-size="12">α₀ (answer 0)</text>
<text x="-40" y="240" font-size="12" transform="rotate(-90 -40 240)">α₁ (answer 1)</text>
{{range .P.Marks}}<circle cx="{{f .X}}" cy="{{f .Y}}" r="6" fill="none" stroke="{{.Colour}}" stroke-width="3"><title>{{.Label}}: α₀={{g .P.Alpha0}}, α₁={{g .P.Alpha1}}, utility {{g .P.Utility}}</title></circle>
{{end}}</svg>
<table><tr><th>point</th><th>α₀</th><th>α₁</th><th>utility</th></tr>
{{range .P.Marks}}<tr><td><span style="color:{{.Colour}};background:#444;padding:0 .3em">●</span> {{.Label}}</td><td>{{g .P.Alpha0}}</td><td>{{g .P.Alpha1}}</td><td>{{g .P.Utility}}</td></tr>
{{end}}<tr><td>certified upper bound (no DP mechanism does better)</td><td></td><td></td><td>{{g .R.UpperBound}}</td></tr>
<tr><td>total weight (answering truthfully)</td><td></td><td></td><td>{{g .R.TotalWeight}}</td></tr></table>
<p>Colour scale: {{g .P.Lo}} (dark) to {{g .P.Hi}} (yellow).</p>
{{with .T}}<h2>The price of a floor</h2>
<p>The best {{$.R.Objective}} utility when every dataset's p_true must be at least t, one certified solve per point
(the dashed line is each point's certified upper bound; no DP mechanism meeting the floor lies above it), up to the
largest floor any DP mechanism meets. The ring is the written mechanism, at its smallest p_true.</p>
<svg width="{{f .W}}" height="{{f .H}}" viewBox="0 0 {{f .W}} {{f .H}}" xmlns="http://www.w3.org/2000/svg">
<line x1="{{f .Left}}" y1="{{f .Bottom}}" x2="{{f .Right}}" y2="{{f .Bottom}}" stroke="#888"/><line x1="{{f .Left}}" y1="{{f .Top}}" x2="{{f .Left}}" y2="{{f .Bottom}}" stroke="#888"/>
{{range .XTicks}}<text x="{{f .At}}" y="{{f (add $.T.Bottom 16)}}" font-size="11" text-anchor="middle">{{.Label}}</text>
{{end}}{{range .YTicks}}<text x="{{f (add $.T.Left -6)}}" y="{{f (add .At 4)}}" font-size="11" text-anchor="end">{{.Label}}</text>
{{end}}<text x="{{f (add .Left 230)}}" y="{{f (add .Bottom 40)}}" font-size="12">floor t on every dataset's p_true</text>
<polyline points="{{.UpperLine}}" fill="none" stroke="#999" stroke-dasharray="4 3"/>
<polyline points="{{.Line}}" fill="none" stroke="#3b528b" stroke-width="2"/>
{{range .Points}}<circle cx="{{f .X}}" cy="{{f .Y}}" r="3.5" fill="#3b528b"><title>{{.Title}}</title></circle>
{{end}}<circle cx="{{f .Chosen.X}}" cy="{{f .Chosen.Y}}" r="8" fill="none" stroke="#ff2d95" stroke-width="3"><title>{{.Chosen.Title}}</title></circle>
</svg>
<table><tr><th>floor t</th><th>utility</th><th>certified upper bound</th></tr>
{{range $.R.TradeOff}}<tr><td>{{g .Floor}}</td><td>{{g .Utility}}</td><td>{{g .Upper}}</td></tr>
{{end}}<tr><td>written mechanism (smallest p_true {{g $.R.Chosen.Floor}})</td><td>{{g $.R.Chosen.Utility}}</td><td>{{g $.R.UpperBound}}</td></tr></table>{{end}}
</body></html>
`))
