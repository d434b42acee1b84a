package report

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// pathInput is the paper's path example (docs/DESIGN.md §10.1) with its optimal mechanism:
// v1 – v2 – v3 – v4, answers 0, 1, 1, 0, ε = ln 2, δ = 0, p_one = 0.3, 0.4, 0.2, 0.1
// (so p_true = 0.7, 0.4, 0.2, 0.9), binding distances 0, 2, 1, 0.
func pathInput(t *testing.T, pone []float64) Input {
	t.Helper()
	g, _ := graph.Build(4, []int32{0, 1, 2}, []int32{1, 2, 3})
	pair, err := dp.New(math.Nextafter(math.Ln2, 1), 0) // e^ε > 2: the paper's values are exactly DP
	if err != nil {
		t.Fatal(err)
	}
	return Input{Graph: g, Answer: []bool{false, true, true, false}, POne: pone, Distance: []int32{0, 2, 1, 0},
		Pair: pair, List: 5, ID: func(v int32) string { return strconv.Itoa(int(v) + 1) }}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }

// Every number of the path example's report, by hand.
func TestComputePaperPath(t *testing.T) {
	r := mustCompute(t, pathInput(t, []float64{0.3, 0.4, 0.2, 0.1}))
	// Round-trip through JSON: the numbers checked are the ones --json prints.
	var buf bytes.Buffer
	if err := r.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	var j Report
	if err := json.Unmarshal(buf.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	a := j.Accuracy
	if j.Datasets != 4 || j.Edges != 3 || !near(a.Mean, 0.55) || !near(a.Min, 0.2) || !near(a.Max, 0.9) || a.Truthful != 0 {
		t.Errorf("accuracy %+v", a)
	}
	// Nearest rank on 0.2, 0.4, 0.7, 0.9: the ⌈q·4⌉-th smallest.
	wantQ := map[float64]float64{0: 0.2, 0.01: 0.2, 0.1: 0.2, 0.25: 0.2, 0.5: 0.4, 0.75: 0.7, 0.9: 0.9, 1: 0.9}
	for _, q := range a.Quantiles {
		if w, ok := wantQ[q.Q]; ok && !near(q.PTrue, w) {
			t.Errorf("quantile %v = %v, want %v", q.Q, q.PTrue, w)
		}
	}
	counts := make([]int, Bins)
	counts[4], counts[8], counts[14], counts[18] = 1, 1, 1, 1 // 0.2, 0.4, 0.7, 0.9
	for k, b := range a.Histogram {
		if b.Count != counts[k] || !near(b.Lo, float64(k)/20) {
			t.Errorf("bin %d = %+v, want %d", k, b, counts[k])
		}
	}
	if j.Levels.Total != 4 || !slices.Equal(levelValues(j.Levels.Shown), []float64{0.9, 0.7, 0.4, 0.2}) {
		t.Errorf("levels %+v", j.Levels)
	}
	// Binding distances 0, 2, 1, 0: distance 0 holds v1 and v4 (0.7, 0.9).
	wantG := []DistanceGroup{{0, 2, 0.8, 0.7, 0.9}, {1, 1, 0.2, 0.2, 0.2}, {2, 1, 0.4, 0.4, 0.4}}
	if j.ByDistance.Kind != "binding" || len(j.ByDistance.Groups) != 3 {
		t.Fatalf("by distance %+v", j.ByDistance)
	}
	for i, g := range j.ByDistance.Groups {
		w := wantG[i]
		if g.Distance != w.Distance || g.Datasets != w.Datasets || !near(g.Mean, w.Mean) || !near(g.Min, w.Min) || !near(g.Max, w.Max) {
			t.Errorf("group %+v, want %+v", g, w)
		}
	}
	// Per answer: v2, v3 answer 1 with p_true 0.4, 0.2 (sensitivity 0.3); v1, v4
	// answer 0 with 0.7, 0.9 (specificity 0.8); p_one spans 0.1 … 0.4.
	c := j.Classes
	if !near(c.Sensitivity, 0.3) || !near(c.Specificity, 0.8) || !near(c.Balanced, 0.55) || !near(c.MinPTrue, 0.2) ||
		c.Answer1 != (Class{Datasets: 2, Mean: c.Sensitivity, Min: 0.2}) || c.Answer0 != (Class{Datasets: 2, Mean: c.Specificity, Min: 0.7}) || !near(c.POneRange, 0.3) {
		t.Errorf("classes %+v", c)
	}
	// α = (2 + 0)/(2 + 1) = 2/3: v1 (+1/30) and v4 (+7/30) gain, v2 (−4/15) and v3
	// (−7/15) lose; this hitting set's values are below the balanced ones.
	rr := j.RandomizedResponse
	if !near(rr.PTrue, 2.0/3) || rr.Gain != 2 || rr.Equal != 0 || rr.Lose != 2 ||
		!near(rr.MeanGainGains, (1.0/30+7.0/30)/2) || !near(rr.MaxGain, 7.0/30) || rr.MaxGainID != "4" ||
		!near(rr.MeanLossLoses, (4.0/15+7.0/15)/2) || !near(rr.MaxLoss, 7.0/15) || rr.MaxLossID != "3" ||
		!near(rr.MeanGain, 0.55-2.0/3) {
		t.Errorf("randomized response %+v", rr)
	}
	// The optimal mechanism meets DP with equality on v2–v3 and v3–v4 (0.4 = 2·0.2,
	// 0.2 = 2·0.1).
	au := j.Audit
	if !au.Passed || au.Edges != 3 || au.Violations != 0 || au.WorstExcess > 0 || au.WorstExcess < -1e-15 || au.Worst == nil {
		t.Errorf("audit %+v", au)
	}
}

func levelValues(ls []Level) []float64 {
	var v []float64
	for _, l := range ls {
		v = append(v, l.PTrue)
	}
	return v
}

// One value nudged 1e-7 past its bound: the audit names that edge and output.
func TestComputeAuditFails(t *testing.T) {
	r := mustCompute(t, pathInput(t, []float64{0.3, 0.4 + 1e-7, 0.2, 0.1}))
	au := r.Audit
	if au.Passed || au.Violations != 1 || len(au.First) != 1 {
		t.Fatalf("audit %+v", au)
	}
	if e := au.First[0]; e.U != "2" || e.V != "3" || e.Output != 1 || math.Abs(e.Excess-1e-7) > 1e-12 {
		t.Errorf("violation %+v", e)
	}
	var b bytes.Buffer
	if err := r.Text(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "DP audit: FAILED: 1 (edge, output) pairs break (ε,δ)-DP") ||
		!strings.Contains(b.String(), "2 – 3, output 1: Pr[M(2)=1] = 0.4000001, Pr[M(3)=1] = 0.2, excess 1e-07") {
		t.Errorf("text:\n%s", b.String())
	}
}

// The counts partition the datasets (doc.go, invariant 2), on a mechanism with
// p_true = 1 datasets and a component without a boundary.
func TestComputePartitions(t *testing.T) {
	// 0 – 1 – 2 – 3 and 4 – 5 (no boundary edge); answers 1, 1, 0, 0, 1, 1.
	g, _ := graph.Build(6, []int32{0, 1, 2, 4}, []int32{1, 2, 3, 5})
	pair, _ := dp.New(1, 0.01)
	in := Input{Graph: g, Answer: []bool{true, true, false, false, true, true},
		POne: []float64{0.8, 0.7, 0.3, 0.2, 1, 1}, Pair: pair, ID: func(v int32) string { return strconv.Itoa(int(v)) }}
	r := mustCompute(t, in)
	sum := func(f func(int) int, n int) int {
		s := 0
		for i := range n {
			s += f(i)
		}
		return s
	}
	if s := sum(func(i int) int { return r.Accuracy.Histogram[i].Count }, Bins); s != 6 {
		t.Errorf("histogram sums to %d", s)
	}
	if s := sum(func(i int) int { return r.Levels.Shown[i].Count }, len(r.Levels.Shown)); s != 6 {
		t.Errorf("levels sum to %d", s)
	}
	if s := sum(func(i int) int { return r.ByDistance.Groups[i].Datasets }, len(r.ByDistance.Groups)); s != 6 {
		t.Errorf("distance groups sum to %d", s)
	}
	if rr := r.RandomizedResponse; rr.Gain+rr.Equal+rr.Lose != 6 {
		t.Errorf("gain/equal/lose %+v", rr)
	}
	// No binding distance given: distance to the boundary (edge 1–2), -1 for 4, 5.
	gs := r.ByDistance.Groups
	if r.ByDistance.Kind != "boundary" || len(gs) != 3 || gs[0].Distance != 0 || gs[0].Datasets != 2 ||
		gs[1].Distance != 1 || gs[1].Datasets != 2 || gs[2].Distance != -1 || gs[2].Datasets != 2 || gs[2].Mean != 1 {
		t.Errorf("groups %+v", gs)
	}
	if r.Accuracy.Truthful != 2 || r.Accuracy.Histogram[Bins-1].Count != 2 {
		t.Errorf("p_true = 1: truthful %d, last bin %d", r.Accuracy.Truthful, r.Accuracy.Histogram[Bins-1].Count)
	}
}

// Distance to the boundary on the paper's Figure 1 (docs/DESIGN.md §10.4), by hand: the
// endpoints of the six boundary edges are at 0; k, m, c, o, d, j, e, v at 1; g, p
// at 2; a, b at 3.
func TestBoundaryDistanceFigure1(t *testing.T) {
	names := "abcdefghijklmnopqrstuv"
	pos := func(c byte) int32 { return int32(strings.IndexByte(names, c)) }
	var src, dst []int32
	for _, e := range strings.Fields("ab bg ga gc ch hn nq ql lk qm no oj jf fe ej jd di ih op or rs rt uv fu") {
		src, dst = append(src, pos(e[0])), append(dst, pos(e[1]))
	}
	g, _ := graph.Build(len(names), src, dst)
	ans := make([]bool, len(names))
	for _, c := range "abcghklstuv" {
		ans[pos(byte(c))] = true
	}
	want := map[int32]string{0: "fhilnqrstu", 1: "cdejkmov", 2: "gp", 3: "ab"}
	got := map[int32]string{}
	for v, d := range BoundaryDistance(g, ans) {
		got[d] += string(names[v])
	}
	if len(got) != len(want) {
		t.Errorf("distances %v, want %v", got, want)
	}
	for d, w := range want {
		if got[d] != w {
			t.Errorf("distance %d: %q, want %q", d, got[d], w)
		}
	}
}

// An inline <script> (the graph's hover) is allowed; one with attributes (src) is not.
var externalRef = regexp.MustCompile(`(?i)https?:|//[a-z0-9]|<script[^>]|<link|<img|<iframe|@import|url\(|src=|href=`)

// The page holds four inline SVGs (two charts, the graph and its legend), fetches
// nothing, and escapes text from the inputs (ids, paths) wherever it writes them:
// hover lines, search list, labels, tables.
func TestHTMLSelfContainedAndEscaped(t *testing.T) {
	in := pathInput(t, []float64{0.3, 0.4 + 1e-7, 0.2, 0.1})
	in.ID = func(v int32) string { return `<script>alert("v` + strconv.Itoa(int(v)) + `")</script>` }
	in.Inputs.Mechanism.Path = `m<b>"&.csv`
	r := mustCompute(t, in)
	var b bytes.Buffer
	if err := r.HTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "<svg "); n != 4 {
		t.Errorf("%d <svg> elements, want 4", n)
	}
	for _, s := range []string{"<rect class=\"bar\"", "<polyline class=\"line\"", "class=\"ref\"", "randomized response 0.6667", "FAILED"} {
		if !strings.Contains(page, s) {
			t.Errorf("page lacks %q", s)
		}
	}
	if m := externalRef.FindString(page); m != "" {
		t.Errorf("page refers outside itself: %q", m)
	}
	if !strings.Contains(page, "&lt;script&gt;alert(&#34;v2&#34;)&lt;/script&gt;") || !strings.Contains(page, "m&lt;b&gt;&#34;&amp;.csv") {
		t.Errorf("inputs not escaped:\n%s", page)
	}
	// Every id, wherever written, is escaped: the only <script> is the page's own.
	if n := strings.Count(page, "<script>"); n != 1 {
		t.Errorf("%d <script> tags, want the page's one", n)
	}
	for _, s := range []string{`<option value="&lt;script&gt;alert(&#34;v1&#34;)&lt;/script&gt;">`, `data-id="&lt;script&gt;alert(&#34;v3&#34;)&lt;/script&gt;"`,
		`<text>&lt;script&gt;alert…</text>`} {
		if !strings.Contains(page, s) {
			t.Errorf("page lacks %q", s)
		}
	}
	// The regexp itself catches what it must.
	for _, bad := range []string{`<script src="x.js">`, `<link rel="stylesheet" href="https://x">`, `style="background:url(x.png)"`, `xmlns="http://www.w3.org/2000/svg"`} {
		if !externalRef.MatchString(bad) {
			t.Errorf("check misses %q", bad)
		}
	}
}

// The histogram's count axis is labelled from 0 to a round top, whatever the top.
func TestHistogramTicks(t *testing.T) {
	for _, pone := range [][]float64{{0.3, 0.4, 0.2, 0.1}, {0.3, 0.3, 0.3, 0.3}} {
		in := pathInput(t, pone)
		in.POne = pone
		c := histogramChart(mustCompute(t, in))
		var labels []string
		for _, tk := range c.YTicks {
			labels = append(labels, tk.Label)
		}
		if len(labels) < 2 || labels[0] != "0" {
			t.Errorf("p_one %v: y ticks %v", pone, labels)
		}
	}
}

// The plain-language line works e^ε out: e^0.5 = 1.6487 (to 5 digits), e^(ln 2) = 2,
// and says δ's exception, or that there is none.
func TestPlainPrivacy(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		want       string
	}{
		{0.5, 1e-6, "by at most a factor e^ε = 1.6487, except with probability δ = 1e-06."},
		{math.Ln2, 0, "by at most a factor e^ε = 2, with no exception (δ = 0)."},
		{1, 0.01, "by at most a factor e^ε = 2.7183, except with probability δ = 0.01."},
	} {
		r := &Report{Epsilon: c.eps, Delta: c.delta}
		if got := r.PlainPrivacy(); !strings.Contains(got, c.want) || !strings.HasPrefix(got, "Any one person's presence or absence changes the probability") {
			t.Errorf("ε = %v, δ = %v: %q lacks %q", c.eps, c.delta, got, c.want)
		}
	}
	var b bytes.Buffer
	if err := mustCompute(t, pathInput(t, []float64{0.3, 0.4, 0.2, 0.1})).HTML(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<p class="plain" id="plain"><strong>What ε and δ mean here.</strong> Any one person&#39;s presence`) ||
		!strings.Contains(b.String(), "a factor e^ε = 2, with no exception (δ = 0)") {
		t.Errorf("the page lacks the plain line")
	}
}

// A class with no datasets reads 1 (nothing to get wrong) and the balanced accuracy
// is the other class's mean; a constant answer has p_one range 0.
func TestClassesOneAnswer(t *testing.T) {
	c := ClassesOf([]bool{true, true}, []float64{0.25, 0.25}, nil)
	if c.Answer0 != (Class{Datasets: 0, Mean: 1, Min: 1}) || c.Answer1 != (Class{Datasets: 2, Mean: 0.25, Min: 0.25}) || c.Balanced != 0.25 || c.MinPTrue != 0.25 || c.POneRange != 0 {
		t.Errorf("classes %+v", c)
	}
}

// Warnings: a constant answer with both answers present, and each answer whose mean
// p_true is below ½; none for a constant answer when only one answer occurs (the
// truthful answer then is one), nor for a mechanism serving both answers.
func TestClassesWarnings(t *testing.T) {
	for _, c := range []struct {
		name   string
		answer []bool
		pone   []float64
		want   []string // substrings, one per warning
	}{
		{"constant", []bool{true, false, false}, []float64{0, 0, 1e-6}, []string{"constant answer", "one answer-1 dataset gets mean p_true 0 < 0.5"}},
		{"just not constant", []bool{true, false, false}, []float64{0, 0, 1.01e-6}, []string{"one answer-1 dataset gets"}},
		{"poor answer 0", []bool{true, false, false}, []float64{0.9, 0.6, 0.5}, []string{"the 2 answer-0 datasets get mean p_true 0.45 < 0.5"}},
		{"one answer only", []bool{true, true}, []float64{1, 1}, nil},
		{"both served", []bool{true, false}, []float64{0.7, 0.3}, nil},
		{"a coin", []bool{true, false}, []float64{0.5, 0.5}, []string{"constant answer"}},
	} {
		got := ClassesOf(c.answer, c.pone, nil).Warnings()
		if len(got) != len(c.want) {
			t.Errorf("%s: warnings %q, want %d", c.name, got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: warning %q does not say %q", c.name, got[i], w)
			}
		}
	}
}

// mustCompute is Compute on a context never cancelled.
func mustCompute(t testing.TB, in Input) *Report {
	t.Helper()
	r, err := Compute(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
