package report

import (
	"encoding/json"
	"fmt"
	"github.com/graphdp/graphdp/dp"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/graphdp/graphdp/internal/words"
)

// textLevels is how many accuracy levels Text lists.
const textLevels = 20

// JSON writes the report as indented JSON.
func (r *Report) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// FirstBin is the first histogram bin worth showing: the lowest non-empty one, or the
// one holding randomized response's α if that is lower.
func (r *Report) FirstBin() int {
	first := min(int(r.RandomizedResponse.PTrue*Bins), Bins-1)
	for k, b := range r.Accuracy.Histogram {
		if b.Count > 0 {
			return min(k, first)
		}
	}
	return first
}

// DistanceTitle names the grouping distance for people.
func (r *Report) DistanceTitle() string {
	if r.ByDistance.Kind == "binding" {
		return "distance to the binding hitting-set dataset"
	}
	return "distance to the boundary (no binding_distance column: hops to the nearest dataset on a boundary edge)"
}

// AuditLine states the audit result in one line.
func (r *Report) AuditLine() string {
	return r.auditLine(func(n int64) string { return strconv.FormatInt(n, 10) })
}

// auditLine is AuditLine with its counts written by count (the page groups their
// thousands).
func (r *Report) auditLine(count func(int64) string) string {
	a := r.Audit
	switch {
	case a.Edges == 0:
		return "passed: no edges, nothing to check"
	case a.Passed:
		return fmt.Sprintf("passed: all %s inequalities on %s edges hold with zero tolerance (tightest: excess %.3g on %s – %s)",
			count(4*a.Edges), count(a.Edges), a.WorstExcess, words.Quote(a.Worst.U), words.Quote(a.Worst.V))
	}
	return fmt.Sprintf("FAILED: %s (edge, output) pairs break (ε,δ)-DP; worst excess %.3g on %s – %s",
		count(a.Violations), a.WorstExcess, words.Quote(a.Worst.U), words.Quote(a.Worst.V))
}

// ViolationLine describes one failing edge.
func ViolationLine(e Edge) string {
	u, v := words.Quote(e.U), words.Quote(e.V)
	return fmt.Sprintf("%s – %s, output %d: Pr[M(%s)=%d] = %.9g, Pr[M(%s)=%d] = %.9g, excess %.3g",
		u, v, e.Output, u, e.Output, e.PU, v, e.Output, e.PV, e.Excess)
}

// Text writes the report for people.
func (r *Report) Text(w io.Writer) error {
	var b strings.Builder
	p := func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }
	a, rr := r.Accuracy, r.RandomizedResponse
	p("graphdp report: %s\n", r.Inputs.Mechanism.Path)
	p("  %s, %s; %s\n\n", words.Count(int64(r.Datasets), "dataset", "datasets"), words.Count(r.Edges, "edge", "edges"), r.privacyWords())
	if lines := r.Deterministic.Lines(); r.Deterministic.NotPrivate > 0 {
		p("%s\n", box(lines))
	} else if lines != nil {
		p("%s\n\n", lines[0]) // all private: no warning
	}
	if ws := r.Classes.Warnings(); ws != nil {
		p("%s\n", box(append(ws, "  "+FixByOptimize)))
	}

	p("DP audit: %s\n", r.AuditLine())
	for _, e := range r.Audit.First {
		p("  %s\n", ViolationLine(e))
	}
	if n := r.Audit.Violations - int64(len(r.Audit.First)); n > 0 {
		p("  … and %d more\n", n)
	}

	p("\nAccuracy p_true = Pr[M = true answer]\n")
	p("  mean %.6f, min %.6f, max %.6f; %s truthfully (p_true = 1)\n", a.Mean, a.Min, a.Max, words.Count(int64(a.Truthful), "dataset answered", "datasets answered"))
	var qs []string
	for _, q := range a.Quantiles {
		qs = append(qs, fmt.Sprintf("%g%% %.4f", math.Round(q.Q*1000)/10, q.PTrue))
	}
	p("  quantiles: %s\n", strings.Join(qs, ", "))
	p("  %s\n", r.Classes.Line())
	maxCount := 0
	for _, bin := range a.Histogram {
		maxCount = max(maxCount, bin.Count)
	}
	for _, bin := range a.Histogram[r.FirstBin():] {
		closer := ")"
		if bin.Hi == 1 {
			closer = "]"
		}
		bar := strings.Repeat("█", (bin.Count*40+maxCount-1)/max(maxCount, 1))
		p("  [%.2f, %.2f%s %6d  %s\n", bin.Lo, bin.Hi, closer, bin.Count, bar)
	}

	p("\nAccuracy levels (p_true to 9 decimals): %d\n", r.Levels.Total)
	for i, l := range r.Levels.Shown {
		if i == textLevels {
			p("  … and %d more levels\n", r.Levels.Total-textLevels)
			break
		}
		p("  %.9f  %6d datasets\n", l.PTrue, l.Count)
	}

	p("\nMean p_true by %s\n", r.DistanceTitle())
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  distance\tdatasets\tmean\tmin\tmax\t\n")
	for _, g := range r.ByDistance.Groups {
		d := fmt.Sprint(g.Distance)
		if g.Distance < 0 {
			d = "none"
		}
		fmt.Fprintf(tw, "  %s\t%d\t%.6f\t%.6f\t%.6f\t\n", d, g.Datasets, g.Mean, g.Min, g.Max)
	}
	tw.Flush()

	p("\nLeast accurate datasets\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  id\tp_true\tbinding id\tdistance\n")
	for _, d := range r.LeastAccurate {
		bid, dist := words.Quote(d.BindingID), fmt.Sprint(d.BindingDistance)
		if d.BindingID == "" {
			bid = "-"
		}
		if d.BindingDistance < 0 {
			dist = "-"
		}
		fmt.Fprintf(tw, "  %s\t%.9f\t%s\t%s\n", words.Quote(d.ID), d.PTrue, bid, dist)
	}
	tw.Flush()

	p("\nRandomized response (p_true = %s = %.9f on every dataset)\n", r.balancedWords(), rr.PTrue)
	p("  gain: %s", words.Count(int64(rr.Gain), "dataset", "datasets"))
	switch {
	case rr.Gain > 0 && rr.MaxGainID != "":
		p(", by %.6f on average (max %.6f, dataset %s)", rr.MeanGainGains, rr.MaxGain, words.Quote(rr.MaxGainID))
	case rr.Gain > 0:
		p(", by %.6f on average", rr.MeanGainGains)
	}
	if rr.GainDeterministic > 0 {
		p("; %d of them deterministic (p_one 0 or 1), left out of the max", rr.GainDeterministic)
	}
	p("\n  equal (within %g): %s\n", Tolerance, words.Count(int64(rr.Equal), "dataset", "datasets"))
	p("  lose: %s", words.Count(int64(rr.Lose), "dataset", "datasets"))
	if rr.Lose > 0 {
		p(", by %.6f on average (max %.6f, dataset %s)", rr.MeanLossLoses, rr.MaxLoss, words.Quote(rr.MaxLossID))
	}
	p("\n  mean p_true %.6f against %.6f: %+.6f per dataset\n", a.Mean, rr.PTrue, rr.MeanGain)
	_, err := io.WriteString(w, b.String())
	return err
}

// box frames lines in a warning box no wider than words.Columns, each line wrapped
// to fit (words.Wrap).
func box(in []string) string {
	var lines []string
	for _, l := range in {
		lines = append(lines, words.Wrap(l, words.Columns-4)...)
	}
	w := 0
	for _, l := range lines {
		w = max(w, utf8.RuneCountInString(l))
	}
	var b strings.Builder
	b.WriteString("┌" + strings.Repeat("─", w+2) + "┐\n")
	for _, l := range lines {
		b.WriteString("│ " + l + strings.Repeat(" ", w-utf8.RuneCountInString(l)) + " │\n")
	}
	b.WriteString("└" + strings.Repeat("─", w+2) + "┘\n")
	return b.String()
}

// privacyWords says the framework the mechanism was audited under: "ε = …, δ = …"
// for (ε,δ)-DP, the framework's own words otherwise.
func (r *Report) privacyWords() string {
	if r.Framework != "" && r.Framework != string(dp.EpsilonDelta) {
		return r.Privacy
	}
	return fmt.Sprintf("ε = %v, δ = %v", r.Epsilon, r.Delta)
}

// balancedWords names randomized response's constant: (e^ε+δ)/(e^ε+1) under
// (ε,δ)-DP, the framework's balanced value α = U(1 − α) otherwise (docs/DESIGN.md §11).
func (r *Report) balancedWords() string {
	if r.Framework != "" && r.Framework != string(dp.EpsilonDelta) {
		return "the balanced α = U(1−α)"
	}
	return "(e^ε+δ)/(e^ε+1)"
}
