package report

import (
	_ "embed"
	"fmt"
	"github.com/graphdp/graphdp/dp"
	"html/template"
	"io"
	"math"
	"strconv"

	"github.com/graphdp/graphdp/internal/words"
)

//go:embed report.html.tmpl
var pageSource string

// styleSource is the style both pages share (the report and optimize's region page).
//
//go:embed style.css
var styleSource string

// graphScript is the graph's behaviour: hover, click, search, zoom and pan, and the
// small window.graphdp API the browser test drives.
//
//go:embed graph.js
var graphScript string

// exploreScript draws neighbourhoods on a page whose graph is too large to draw
// whole (explore.go): it unpacks the embedded graph, searches ids, lays out and
// draws; window.graphdp is its API for the console and the browser test.
//
//go:embed explore.js
var exploreScript string

var page = mustParse(template.New("report").Funcs(template.FuncMap{
	"f1":     func(x float64) string { return fmt.Sprintf("%.1f", x) },
	"f4":     func(x float64) string { return fmt.Sprintf("%.4f", x) },
	"f6":     func(x float64) string { return fmt.Sprintf("%.6f", x) },
	"f9":     func(x float64) string { return fmt.Sprintf("%.9f", x) },
	"signed": func(x float64) string { return fmt.Sprintf("%+.6f", x) },
	"pct":    func(q float64) string { return fmt.Sprintf("%g%%", math.Round(q*1000)/10) },
	"add":    func(a, b float64) float64 { return a + b },
	"sub":    func(a, b float64) float64 { return a - b },
	"mid":    func(a, b float64) float64 { return (a + b) / 2 },
	"sub1":   func(a, b int) int { return a - b },
	"n":      count,
}), pageSource)

// count writes a count for the page, its thousands grouped (words.Thousands).
func count(x any) (string, error) {
	switch v := x.(type) {
	case int:
		return words.Thousands(int64(v)), nil
	case int32:
		return words.Thousands(int64(v)), nil
	case int64:
		return words.Thousands(v), nil
	}
	return "", fmt.Errorf("report: the page counts a %T", x) // a template bug: any test rendering a page fails
}

// mustParse parses src into t, with the shared style ("style.css") and the graph's
// script ("script") beside it.
func mustParse(t *template.Template, src string) *template.Template {
	template.Must(t.Parse(src))
	template.Must(t.New("style.css").Parse(styleSource))
	template.Must(t.New("script").Parse(graphScript))
	template.Must(t.New("explore").Parse(exploreScript))
	return t
}

// htmlLevels is how many accuracy levels the page lists.
const htmlLevels = 30

// HTML writes the report as one self-contained page (doc.go, invariant 4).
func (r *Report) HTML(w io.Writer) error {
	data := struct {
		R           *Report
		Plain       string
		AuditLine   string
		Violations  []string
		Levels      []Level
		LeastLevels []tiedLevel
		Hist, Dist  chart
		Graph       *drawing
		Explore     *explorer
		NotDrawn    string
	}{R: r, Plain: r.PlainPrivacy(), AuditLine: r.auditLine(words.Thousands), LeastLevels: r.leastLevels,
		Hist: histogramChart(r), Dist: distanceChart(r), Graph: r.graph, NotDrawn: r.notDrawn}
	for _, e := range r.Audit.First {
		data.Violations = append(data.Violations, ViolationLine(e))
	}
	data.Levels = r.Levels.Shown[:min(len(r.Levels.Shown), htmlLevels)]
	if r.big != nil {
		x, err := r.big.explorer()
		if err != nil {
			return err
		}
		data.Explore = x
	}
	return page.ExecuteTemplate(w, "report", data)
}

// PlainPrivacy says what ε and δ promise, in words and with e^ε worked out: the
// (ε,δ)-DP inequality Pr[M(u) = o] ≤ e^ε·Pr[M(v) = o] + δ on every edge u – v
// (datasets that differ in one person), for both answers o.
func (r *Report) PlainPrivacy() string {
	if r.Framework != "" && r.Framework != string(dp.EpsilonDelta) {
		return "The mechanism satisfies " + r.Privacy + " on every edge of the graph below (datasets that differ in one person): for each such pair, with a = Pr[M = 1] on one, Pr[M = 1] on the other lies between the framework's bounds L(a) and U(a), its trade-off function evaluated exactly at the mechanism's two tests; the audit checks every edge."
	}
	f := strconv.FormatFloat(math.Exp(r.Epsilon), 'g', 5, 64)
	s := "Any one person's presence or absence changes the probability of either released answer (0 or 1) by at most a factor e^ε = " + f
	if r.Delta > 0 {
		s += ", except with probability δ = " + strconv.FormatFloat(r.Delta, 'g', -1, 64)
	} else {
		s += ", with no exception (δ = 0)"
	}
	return s + ". Precisely: for every pair of datasets that differ in one person (an edge of the graph below) and each answer o, Pr[M = o on one] ≤ e^ε × Pr[M = o on the other] + δ; the audit checks every one of these inequalities."
}
