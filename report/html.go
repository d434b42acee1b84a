package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
)

//go:embed report.html.tmpl
var pageSource string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
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
}).Parse(pageSource))

// htmlLevels is how many accuracy levels the page lists.
const htmlLevels = 30

// HTML writes the report as one self-contained page (doc.go, invariant 4).
func (r *Report) HTML(w io.Writer) error {
	data := struct {
		R          *Report
		AuditLine  string
		Violations []string
		Levels     []Level
		Hist, Dist chart
		Graph      *drawing
		NotDrawn   string
	}{R: r, AuditLine: r.AuditLine(), Hist: histogramChart(r), Dist: distanceChart(r), Graph: r.graph, NotDrawn: r.notDrawn}
	for _, e := range r.Audit.First {
		data.Violations = append(data.Violations, ViolationLine(e))
	}
	data.Levels = r.Levels.Shown[:min(len(r.Levels.Shown), htmlLevels)]
	return page.Execute(w, data)
}
