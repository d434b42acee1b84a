package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/report"
)

func reportPathArgs(mech string, extra ...string) []string {
	return append([]string{"report", "-vertices", "testdata/path/vertices.csv", "-edges", "testdata/path/edges.csv",
		"-epsilon", ln2, "-mechanism", mech}, extra...)
}

// Bad report inputs: a clear message and the documented status (golden files).
func TestReportBadInputGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"report_mechanism_missing_vertex", reportPathArgs("testdata/report/mech_missing.csv"), 3},
		{"report_mechanism_unknown_id", reportPathArgs("testdata/report/mech_unknown.csv"), 3},
		{"report_answer_disagrees", reportPathArgs("testdata/report/mech_answer.csv"), 3},
		{"report_audit_fails", reportPathArgs("testdata/report/mech_nudged.csv", "-json"), 3},
		{"report_no_flags", []string{"report"}, 2},
		{"report_bad_parameters", []string{"report", "-vertices", "testdata/path/vertices.csv", "-edges", "testdata/path/edges.csv",
			"-mechanism", "testdata/report/mech_plain.csv", "-epsilon", "-1", "-delta", "1", "-list", "-2"}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := graphdp(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			golden(t, c.name, "exit "+strconv.Itoa(code)+"\n"+stderr)
		})
	}
}

// A failing audit still prints the whole report (and writes the page), then exits 3.
func TestReportAuditFailsStillReports(t *testing.T) {
	page := filepath.Join(t.TempDir(), "r.html")
	code, stdout, _ := graphdp(t, reportPathArgs("testdata/report/mech_nudged.csv", "-html", page)...)
	if code != 3 || !strings.Contains(stdout, "DP audit: FAILED: 1 (edge, output) pairs") || !strings.Contains(stdout, "Randomized response") {
		t.Errorf("exit %d, stdout:\n%s", code, stdout)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), "FAILED") {
		t.Errorf("page: %v", err)
	}
}

// The shipped example (the paper's Figure 1, hitting set {l, h, u, s, t} at the
// balanced α, ε = 0.5, δ = 1e-6), by hand. Write L_k for U^k(α) in p_true terms; the
// balanced corollary (docs/DESIGN.md §10.3) gives it in closed form. A dataset bound across
// the boundary at distance d gets U^(d−1)(α), since U(1 − α) = α; one bound on its
// own side gets U^d(α). From the binding vertices and answers of the graph:
//
//	distance 0: h l s t u                 5 × L0
//	distance 1: c k v (same side)         3 × L1;  f i n q r (across) 5 × L0
//	distance 2: g (same side)             1 × L2;  d e j m o (across) 5 × L1
//	distance 3: a b (same side)           2 × L3;  p (across)         1 × L2
//
// so the levels are L0 × 10, L1 × 8, L2 × 2, L3 × 2, and randomized response's
// p_true is α = L0: 12 datasets gain, 10 are equal, none loses.
func TestReportExampleByHand(t *testing.T) {
	dir := t.TempDir()
	mech := filepath.Join(dir, "mechanism.parquet")
	if code, _, stderr := graphdp(t, "run", "-quiet", "-config", "../../configs/example.yaml", "-out", mech, "-summary", filepath.Join(dir, "s.json")); code != 0 {
		t.Fatalf("run: %s", stderr)
	}
	page := filepath.Join(dir, "report.html")
	code, stdout, stderr := graphdp(t, "report", "-config", "../../configs/example.yaml", "-mechanism", mech, "-json", "-html", page)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	eps, delta := 0.5, 1e-6
	e := math.Exp(eps)
	L := func(d float64) float64 { // docs/DESIGN.md §10.3
		return 1 - (e-1-delta*(math.Exp(eps*(d+1))+math.Exp(eps*d)-2))/(math.Exp(eps*d)*(e+1)*(e-1))
	}
	L0, L1, L2, L3 := L(0), L(1), L(2), L(3)
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-12 }
	if !near(L0, (e+delta)/(e+1)) {
		t.Fatalf("closed form at 0 is not α")
	}
	if r.Datasets != 22 || r.Edges != 24 || !near(r.Accuracy.Mean, (10*L0+8*L1+2*L2+2*L3)/22) || !near(r.Accuracy.Min, L0) || !near(r.Accuracy.Max, L3) {
		t.Errorf("accuracy: %d datasets, %d edges, %+v", r.Datasets, r.Edges, r.Accuracy)
	}
	wantQ := map[float64]float64{0.25: L0, 0.5: L1, 0.75: L1, 0.9: L2, 0.95: L3}
	for _, q := range r.Accuracy.Quantiles {
		if w, ok := wantQ[q.Q]; ok && !near(q.PTrue, w) {
			t.Errorf("quantile %v = %v, want %v", q.Q, q.PTrue, w)
		}
	}
	bins := map[int]int{12: 10, 15: 8, 17: 2, 18: 2} // 0.622, 0.771, 0.861, 0.916
	for k, b := range r.Accuracy.Histogram {
		if b.Count != bins[k] {
			t.Errorf("bin %d: %d datasets, want %d", k, b.Count, bins[k])
		}
	}
	wantL := []struct {
		p float64
		n int
	}{{L3, 2}, {L2, 2}, {L1, 8}, {L0, 10}}
	if r.Levels.Total != 4 || len(r.Levels.Shown) != 4 {
		t.Fatalf("levels %+v", r.Levels)
	}
	for i, w := range wantL {
		if l := r.Levels.Shown[i]; math.Abs(l.PTrue-w.p) > 1e-9 || l.Count != w.n {
			t.Errorf("level %d = %+v, want %v × %d", i, l, w.p, w.n)
		}
	}
	wantG := []struct {
		n    int
		mean float64
	}{{5, L0}, {8, (3*L1 + 5*L0) / 8}, {6, (L2 + 5*L1) / 6}, {3, (2*L3 + L2) / 3}}
	if r.ByDistance.Kind != "binding" || len(r.ByDistance.Groups) != 4 {
		t.Fatalf("by distance %+v", r.ByDistance)
	}
	for d, w := range wantG {
		if g := r.ByDistance.Groups[d]; g.Distance != d || g.Datasets != w.n || !near(g.Mean, w.mean) {
			t.Errorf("distance %d: %+v, want %d datasets, mean %v", d, g, w.n, w.mean)
		}
	}
	rr := r.RandomizedResponse
	gains := 8*(L1-L0) + 2*(L2-L0) + 2*(L3-L0)
	if !near(rr.PTrue, L0) || rr.Gain != 12 || rr.Equal != 10 || rr.Lose != 0 || !near(rr.MeanGainGains, gains/12) ||
		!near(rr.MeanGain, gains/22) || !near(rr.MaxGain, L3-L0) || rr.MaxGainID != "a" {
		t.Errorf("randomized response %+v", rr)
	}
	if a := r.Audit; !a.Passed || a.Edges != 24 || a.Violations != 0 || a.WorstExcess > 0 {
		t.Errorf("audit %+v", a)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	if strings.Count(html, "<svg ") != 4 || !strings.Contains(html, "<polyline") || !strings.Contains(html, "class=\"bar\"") {
		t.Errorf("page lacks its plots")
	}
	if m := regexp.MustCompile(`(?i)https?:|<script[^>]|<link|<img|url\(|@import|src=|href=`).FindString(html); m != "" {
		t.Errorf("page refers outside itself: %q", m)
	}
	// The graph, read through the mechanism's in_hitting_set and binding_id: the
	// example's hitting set {h, l, s, t, u} ringed (all answer 1: squares), and a
	// (answer 1) bound by h 3 hops away along a – g – c – h (positions 0 6 2 7).
	var ringed []string
	for _, m := range regexp.MustCompile(`<path class="node a1 hit" [^>]*data-id="([a-v])"`).FindAllStringSubmatch(html, -1) {
		ringed = append(ringed, m[1])
	}
	if strings.Join(ringed, "") != "hlstu" || !strings.Contains(html, `data-id="a" data-path="0 6 2 7" data-info="a · answer 1 · p_true 0.915761 · bound by h, 3 hops"`) {
		t.Errorf("graph: ringed %v", ringed)
	}
	// The least accurate level, L0, holds 10 datasets (above): one row, naming the
	// first three by position (f, h, i) with their binding datasets (f – u and i – h
	// are edges of the figure; h is in the hitting set), and the plain line at ε = 0.5:
	// e^0.5 = 1.6487.
	for _, want := range []string{
		"<tr><td>0.622459709</td><td>10</td><td><code>f</code> ← <code>u</code>, 1, <code>h</code> ← <code>h</code>, 0, <code>i</code> ← <code>h</code>, 1 and 7 more</td></tr>",
		"by at most a factor e^ε = 1.6487, except with probability δ = 1e-06."} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The same inputs give the same page, byte for byte (report doc.go, invariant 1).
	page2 := filepath.Join(t.TempDir(), "again.html")
	if code, _, stderr := graphdp(t, "report", "-config", "../../configs/example.yaml", "-mechanism", mech, "-html", page2); code != 0 {
		t.Fatalf("report again: %s", stderr)
	}
	if again, _ := os.ReadFile(page2); string(again) != html {
		t.Errorf("two reports of the same inputs differ")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("files left: %v", ents) // mechanism, summary, page: no temporary files
	}
	// Text by default, on the same inputs.
	code, stdout, _ = graphdp(t, "report", "-config", "../../configs/example.yaml", "-mechanism", mech)
	if code != 0 || !strings.Contains(stdout, "gain: 12 datasets") || !strings.Contains(stdout, "DP audit: passed") {
		t.Errorf("text report (exit %d):\n%s", code, stdout)
	}
}

// The path example through the CLI with the mechanism run wrote (CSV, 0/1 answers).
func TestReportPathJSON(t *testing.T) {
	code, stdout, stderr := graphdp(t, reportPathArgs("testdata/release/mechanism.csv", "-json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	rr := r.RandomizedResponse
	if math.Abs(r.Accuracy.Mean-0.55) > 1e-12 || rr.Gain != 2 || rr.Lose != 2 || rr.MaxGainID != "4" || rr.MaxLossID != "3" ||
		math.Abs(rr.MaxLoss-(2.0/3-0.2)) > 1e-12 || !r.Audit.Passed || r.ByDistance.Kind != "binding" {
		t.Errorf("report %+v", r)
	}
	// Without a binding_distance column the grouping is by distance to the boundary.
	_, stdout, _ = graphdp(t, reportPathArgs("testdata/report/mech_plain.csv", "-json")...)
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.ByDistance.Kind != "boundary" || len(r.ByDistance.Groups) != 1 || r.ByDistance.Groups[0].Datasets != 4 {
		t.Errorf("by distance %+v", r.ByDistance)
	}
}
