package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphdp/graphdp/internal/graphgen"
	"github.com/graphdp/graphdp/internal/progress"
	"github.com/graphdp/graphdp/report"
	"github.com/graphdp/graphdp/toolkit"
)

// optimize's bad flags and inputs: exit status and exact messages (golden files);
// nothing may be written.
func TestOptimizeGolden(t *testing.T) {
	const (
		pv = "testdata/path/vertices.csv"
		pe = "testdata/path/edges.csv"
		od = "testdata/optimize/"
	)
	opt := func(over ...string) []string {
		return toolArgs("optimize", map[string]string{"-vertices": pv, "-edges": pe, "-epsilon": ln2, "-out": "$OUT/h.csv", "-quiet": "true"}, over...)
	}
	cases := []goldenCase{
		{"optimize_no_flags", []string{"optimize"}, 2},
		{"optimize_no_out", opt("-out", ""), 2},
		{"optimize_out_extension", opt("-out", "$OUT/h.arrow", "-mechanism-out", "$OUT/m.txt"), 2},
		{"optimize_same_outputs", opt("-mechanism-out", "$OUT/h.csv", "-summary", pv), 2},
		{"optimize_gap_range", opt("-gap", "1.5", "-max-time", "soon", "-workers", "-1"), 2},
		{"optimize_weights_negative", opt("-weights", od+"weights_negative.csv"), 3},
		{"optimize_weights_not_a_number", opt("-weights", od+"weights_nan.csv"), 3},
		{"optimize_weights_unknown_id", opt("-weights", od+"weights_unknown.csv"), 3},
		{"optimize_weights_duplicate_id", opt("-weights", od+"weights_dup.csv"), 3},
		{"optimize_weights_missing_column", opt("-weights", od+"weights_nocol.csv"), 3},
		{"optimize_weights_missing_file", opt("-weights", od+"nope.parquet"), 2},
		{"optimize_objective_unknown", opt("-objective", "fair", "-min-accuracy", "1.5", "-min-accuracy-0", "-0.1"), 2},
		// ln 2, δ = 0: the balanced α is 2/3 and U(1 − 0.5) = 1, U(1 − 0.9) = 0.2.
		{"optimize_floors_infeasible", opt("-min-accuracy", "0.7"), 3},
		{"optimize_floors_per_answer_infeasible", opt("-min-accuracy-1", "0.9", "-min-accuracy-0", "0.5", "-objective", "worst"), 3},
	}
	runGoldenCases(t, cases)
}

// The user's loop: optimize writes a hitting set and a mechanism; run on
// that hitting set writes the same bytes; verify passes it (DP exactly, optimal for
// its values); the summary's certificate encloses the utility and the optimum beats
// the balanced α for a skewed weighting — from a weights table and from the
// vertices file's own weight column alike.
func TestOptimizeRunVerifyLoop(t *testing.T) {
	for _, c := range []struct{ name, vertices, weights string }{
		{"weights_table", "testdata/path/vertices.csv", "testdata/optimize/weights.csv"},
		{"weight_column", "testdata/optimize/vertices_weighted.csv", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := func(n string) string { return filepath.Join(dir, n) }
			args := []string{"optimize", "-vertices", c.vertices, "-edges", "testdata/path/edges.csv", "-epsilon", ln2,
				"-out", p("h.csv"), "-mechanism-out", p("m.csv"), "-summary", p("s.json"), "-html", p("r.html"), "-gap", "1e-9", "-quiet",
				"-objective", "accuracy", // the weights as given (balanced, the default, evens the answers out)
				"-min-accuracy", "0"} // below randomized response allowed: the default floor α forces the balanced α
			if c.weights != "" {
				args = append(args, "-weights", c.weights)
			}
			if code, stdout, stderr := graphdp(t, args...); code != 0 {
				t.Fatalf("optimize: exit %d\n%s%s", code, stdout, stderr)
			}
			if code, stdout, stderr := graphdp(t, "run", "-vertices", c.vertices, "-edges", "testdata/path/edges.csv", "-epsilon", ln2,
				"-hitting-set", p("h.csv"), "-out", p("run.csv")); code != 0 {
				t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
			}
			a, _ := os.ReadFile(p("m.csv"))
			b, _ := os.ReadFile(p("run.csv"))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Fatalf("run on the optimised hitting set differs from -mechanism-out:\n%s\nvs\n%s", a, b)
			}
			if code, stdout, stderr := graphdp(t, "verify", "-vertices", c.vertices, "-edges", "testdata/path/edges.csv", "-epsilon", ln2,
				"-hitting-set", p("h.csv"), "-mechanism", p("m.csv")); code != 0 {
				t.Fatalf("verify: exit %d\n%s%s", code, stdout, stderr)
			}
			var s struct {
				Utility, UpperBound, Gap, Balanced float64 `json:"-"`
				U                                  float64 `json:"utility"`
				Up                                 float64 `json:"upper_bound"`
				B                                  float64 `json:"balanced_utility"`
				Converged                          bool    `json:"converged"`
			}
			js, _ := os.ReadFile(p("s.json"))
			if err := json.Unmarshal(js, &s); err != nil {
				t.Fatal(err)
			}
			if !s.Converged || s.U > s.Up || s.Up-s.U > 1e-9*s.U {
				t.Errorf("certificate: utility %v, upper bound %v, converged %v", s.U, s.Up, s.Converged)
			}
			if page, _ := os.ReadFile(p("r.html")); !bytes.Contains(page, []byte("best homogeneous")) || !bytes.Contains(page, []byte("The price of a floor")) {
				t.Errorf("no boundary-homogeneous page with the trade-off curve written")
			}
			if s.U <= s.B {
				t.Errorf("skewed weights: utility %v does not beat the balanced α's %v", s.U, s.B)
			}
		})
	}
}

// Per-answer figures on the paper's path (ln 2, δ = 0: α = 2/3): every objective writes a
// mechanism whose per-answer figures in the summary are the ones report computes
// from the written file; balanced's utility is the balanced accuracy; worst's floor
// is the balanced α, certified, and met; floors at their limit (0.75 = U(1 − 0.5))
// are met exactly by every dataset, the mechanism passes verify, and run on the
// written hitting set reproduces it.
func TestOptimizeObjectivesAndFloors(t *testing.T) {
	for _, c := range []struct {
		name  string
		flags []string
		floor [2]float64 // answer 0, answer 1
	}{
		{"balanced", nil, [2]float64{}},
		{"accuracy", []string{"-objective", "accuracy"}, [2]float64{}},
		{"worst", []string{"-objective", "worst"}, [2]float64{2.0 / 3, 2.0 / 3}},
		{"floors_at_limit", []string{"-min-accuracy-1", "0.75", "-min-accuracy-0", "0.5"}, [2]float64{0.5, 0.75}},
		{"floor_both", []string{"-min-accuracy", "0.6", "-objective", "accuracy"}, [2]float64{0.6, 0.6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := func(n string) string { return filepath.Join(dir, n) }
			in := []string{"-vertices", "testdata/path/vertices.csv", "-edges", "testdata/path/edges.csv", "-epsilon", ln2}
			args := append(append([]string{"optimize"}, in...), "-out", p("h.csv"), "-mechanism-out", p("m.csv"), "-summary", p("s.json"), "-gap", "1e-9", "-quiet")
			if code, stdout, stderr := graphdp(t, append(args, c.flags...)...); code != 0 {
				t.Fatalf("optimize: exit %d\n%s%s", code, stdout, stderr)
			}
			var s toolkit.OptimizeSummary
			js, _ := os.ReadFile(p("s.json"))
			if err := json.Unmarshal(js, &s); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := graphdp(t, append(append([]string{"report"}, in...), "-mechanism", p("m.csv"), "-json")...)
			if code != 0 {
				t.Fatalf("report: exit %d\n%s", code, stderr)
			}
			var r report.Report
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatal(err)
			}
			if s.Classes != r.Classes {
				t.Errorf("summary's classes %+v, report's of the written mechanism %+v", s.Classes, r.Classes)
			}
			want := map[string]string{"accuracy": "accuracy", "floor_both": "accuracy", "worst": "worst"}[c.name]
			if want == "" {
				want = "balanced"
			}
			if s.Objective != want {
				t.Errorf("objective %q, want %q", s.Objective, want)
			}
			if want == "balanced" && math.Abs(s.Utility-r.Classes.Balanced) > 1e-12 {
				t.Errorf("balanced utility %v, balanced accuracy %v", s.Utility, r.Classes.Balanced)
			}
			if want == "worst" && (s.Worst == nil || s.Worst.Floor != s.Alpha || s.Worst.Upper <= 2.0/3 || s.Worst.Lower < s.Worst.Floor) {
				t.Errorf("worst %+v, α %v", s.Worst, s.Alpha)
			}
			if r.Classes.Answer0.Min < c.floor[0]-1e-15 || r.Classes.Answer1.Min < c.floor[1] {
				t.Errorf("floors %v, per-answer minima %v, %v", c.floor, r.Classes.Answer0.Min, r.Classes.Answer1.Min)
			}
			if s.UpperBound < s.Utility || s.Gap > 1e-9*s.Utility {
				t.Errorf("certificate: utility %v, upper %v", s.Utility, s.UpperBound)
			}
			if code, _, stderr := graphdp(t, append(append([]string{"verify"}, in...), "-hitting-set", p("h.csv"), "-mechanism", p("m.csv"))...); code != 0 {
				t.Errorf("verify: exit %d\n%s", code, stderr)
			}
		})
	}
}

// The constant-answer trap in small (OPTIMIZE.md, "Objectives: which one to pick"): a
// path of ten datasets, one answering 1, uniform weights. The accuracy objective's
// optimum is the constant answer 0; optimize says so plainly in the summary, and names
// the fix (--objective balanced); report says so of that mechanism too, naming
// optimize. Per-answer figures, so never on stderr, which is shareable
// (docs/FORMATS.md): nor optimize's, nor run's. The default (balanced) answers the rare
// dataset right more often than not, and warns of nothing. (The trap needs
// --min-accuracy 0: by default no p_true is below α.)
func TestOptimizeWarnsDegenerate(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	in := []string{"-vertices", "testdata/optimize/rare/vertices.csv", "-edges", "testdata/optimize/rare/edges.csv", "-epsilon", "0.5"}
	opt := func(obj string) (string, toolkit.OptimizeSummary) {
		t.Helper()
		args := append(append([]string{"optimize"}, in...), "-out", p(obj+"-h.csv"), "-mechanism-out", p(obj+"-m.csv"), "-summary", p(obj+".json"), "-objective", obj)
		if obj == "accuracy" { // the trap needs the floor lowered: by default every p_true is ≥ α
			args = append(args, "-min-accuracy", "0")
		}
		code, stdout, stderr := graphdp(t, args...)
		if code != 0 {
			t.Fatalf("optimize: exit %d\n%s%s", code, stdout, stderr)
		}
		var s toolkit.OptimizeSummary
		js, _ := os.ReadFile(p(obj + ".json"))
		if err := json.Unmarshal(js, &s); err != nil {
			t.Fatal(err)
		}
		return stderr, s
	}
	stderr, s := opt("accuracy")
	for _, want := range []string{"WARNING: the mechanism is a constant answer", "WARNING: the one answer-1 dataset gets mean p_true 0 < 0.5", "fix: --objective balanced"} {
		if strings.Contains(stderr, want) || !strings.Contains(strings.Join(s.Warnings, "\n"), want) {
			t.Errorf("optimize --objective accuracy: %q on stderr, or not in the summary:\n%s\n%q", want, stderr, s.Warnings)
		}
	}
	if len(s.Warnings) != 3 || s.Classes.POneRange != 0 || s.Classes.Sensitivity != 0 {
		t.Errorf("summary: warnings %q, classes %+v", s.Warnings, s.Classes)
	}
	// Every dataset answers 0 on every draw, and every DP inequality holds: private
	// (the tool no longer says "no privacy" of a constant answer, as in the issue),
	// one plain line, no warning.
	if d := s.Deterministic; d == nil || d.Count != 10 || d.Private != 10 || d.NotPrivate != 0 ||
		!strings.Contains(stderr, "\n  10 datasets are answered with certainty (p_one = 0 or 1), all private: every DP inequality") {
		t.Errorf("deterministic %+v\n%s", d, stderr)
	}
	code, stdout, _ := graphdp(t, append(append([]string{"report"}, in...), "-mechanism", p("accuracy-m.csv"))...)
	if code != 0 || !strings.Contains(stdout, "constant answer") || !strings.Contains(stdout, "fix: graphdp optimize") {
		t.Errorf("report (exit %d) does not warn of the constant answer:\n%s", code, stdout)
	}
	_, _, stderr = graphdp(t, append(append([]string{"run"}, in...), "-hitting-set", p("accuracy-h.csv"), "-out", p("run.csv"))...)
	if strings.Contains(stderr, "constant answer") {
		t.Errorf("run warns of the constant answer on stderr:\n%s", stderr)
	}
	stderr, s = opt("balanced")
	if strings.Contains(stderr, "WARNING: the") || s.Warnings != nil || s.Classes.Sensitivity < 0.5 || s.Classes.Specificity < 0.5 {
		t.Errorf("balanced: warnings %q, classes %+v\n%s", s.Warnings, s.Classes, stderr)
	}
}

// By default no dataset gets less than randomized response's α (on the
// paper's path, ln 2 and δ = 0: α = 2/3), said on stderr (the floor: parameters
// only) with the mechanism's own minimum in the summary; a floor set below ½ lowers
// the default and is warned about, on stderr and in the summary.
func TestOptimizeDefaultFloor(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	in := []string{"optimize", "-vertices", "testdata/path/vertices.csv", "-edges", "testdata/path/edges.csv", "-epsilon", ln2,
		"-out", p("h.csv"), "-summary", p("s.json"), "-objective", "accuracy", "-weights", "testdata/optimize/weights.csv"}
	read := func() toolkit.OptimizeSummary {
		var s toolkit.OptimizeSummary
		js, _ := os.ReadFile(p("s.json"))
		if err := json.Unmarshal(js, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	code, _, stderr := graphdp(t, in...)
	s := read()
	const alpha = 2.0 / 3
	if code != 0 || !hasWords(stderr, "per-dataset minimum p_true: ≥ 0.6666666667 (randomized response's α = 0.6666666667 is the default floor") ||
		s.Classes.MinPTrue < alpha-1e-16 || s.Floors.Answer0 < alpha-1e-16 || s.Floors.Answer1 < alpha-1e-16 || s.FloorWarnings != nil {
		t.Errorf("default: exit %d, min p_true %v, floors %+v, warnings %q\n%s", code, s.Classes.MinPTrue, s.Floors, s.FloorWarnings, stderr)
	}
	code, _, stderr = graphdp(t, append(in, "-min-accuracy-0", "0.3")...)
	s = read()
	if code != 0 || !strings.Contains(stderr, "WARNING: the answer-0 floor on p_true is 0.3, below ½") || len(s.FloorWarnings) != 1 ||
		s.Floors.Answer0 != 0.3 || s.Floors.Answer1 < alpha-1e-16 || s.Classes.Answer0.Min >= alpha {
		t.Errorf("--min-accuracy-0 0.3: exit %d, floors %+v, answer-0 min %v, warnings %q\n%s", code, s.Floors, s.Classes.Answer0.Min, s.FloorWarnings, stderr)
	}
}

// --max-time is kept. On a grid of 40,000 datasets with the floor lowered
// (the LP over every DP mechanism) and a gap no solve reaches in the limit
// (1e-12), optimize must stop and write the best certified mechanism, the hitting
// set, the mechanism, the page and the summary, within the limit plus 10% and 2 s
// (the target), measured here around the whole command. A limit test, not
// a speed test: the graph is small so that it runs fast anywhere.
func TestOptimizeMaxTimeKept(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds")
	}
	in, dir := t.TempDir(), t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	g, err := graphgen.New(graphgen.Spec{Kind: "grid", N: 40000, Seed: 7, Epsilon: 0.5, Delta: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	f, err := graphgen.WriteDir(in, g, graphgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const limit = 1500 * time.Millisecond
	start := time.Now()
	code, stdout, stderr := graphdp(t, "optimize", "-config", filepath.Join(in, f.Job), "-out", p("h.parquet"), "-mechanism-out", p("m.parquet"),
		"-summary", p("s.json"), "-html", p("r.html"), "-min-accuracy", "0", "-gap", "1e-12", "-max-time", limit.String())
	wall := time.Since(start)
	if code != 0 {
		t.Fatalf("optimize: exit %d\n%s%s", code, stdout, stderr)
	}
	// The promise is 10% + 2 s (docs/OPTIMIZE.md has the figure on a quiet machine:
	// 2.2 s for this 1.5 s limit). The test allows twice the limit + 2 s, since CI's
	// two cores run other packages' tests beside it; a deadline not kept (the old
	// 34 s on a 5 s limit) is far beyond either.
	if max := 2*limit + 2*time.Second; wall > max {
		t.Errorf("--max-time %v: the command took %v, more than %v", limit, wall, max)
	}
	var s toolkit.OptimizeSummary
	js, _ := os.ReadFile(p("s.json"))
	if err := json.Unmarshal(js, &s); err != nil {
		t.Fatal(err)
	}
	if s.Converged || !strings.Contains(stderr, "NOT within the target gap") {
		t.Errorf("converged %v within %v: the test needs a graph that takes longer\n%s", s.Converged, limit, stderr)
	}
	if s.UpperBound < s.Utility || s.Utility < s.Balanced {
		t.Errorf("not the best certified answer so far: utility %v, upper %v, balanced %v", s.Utility, s.UpperBound, s.Balanced)
	}
	for _, name := range []string{"h.parquet", "m.parquet", "r.html"} {
		if st, err := os.Stat(p(name)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	t.Logf("--max-time %v: %v wall, %d iterations, relative gap %.3g", limit, wall, s.Iterations, s.RelativeGap)
}

// optimize's progress line names the phase and the time since the start, the
// read's rows and ETA, and what is left: the phase's own expected end where one is
// known (the trade-off curve's budget), else --max-time's end.
func TestOptimizeProgressLine(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	st := &optimizeStatus{start: t0, since: t0, rows: new(progress.Counter)}
	if got := st.line(t0.Add(time.Second)); got != "  optimizing: starting (1s)" {
		t.Errorf("before any phase: %q", got)
	}
	st.phase(toolkit.OptimizePhase{Name: "read"})
	st.since = t0
	st.rows.Total.Store(1000)
	st.rows.Done.Store(250)
	if got, want := st.line(t0.Add(4*time.Second)), "  optimizing: read (4s), 250 of 1000 rows read, about 12s left to read"; got != want {
		t.Errorf("reading: %q, want %q", got, want)
	}
	for _, c := range []struct {
		ph   toolkit.OptimizePhase
		want string
	}{
		{toolkit.OptimizePhase{Name: "optimize", Deadline: t0.Add(30 * time.Second)}, "  optimizing: optimize (10s), at most 20s left (--max-time)"},
		{toolkit.OptimizePhase{Name: "trade-off curve", End: t0.Add(13 * time.Second)}, "  optimizing: trade-off curve (10s), about 3s left"},
		{toolkit.OptimizePhase{Name: "trade-off curve", End: t0.Add(13 * time.Second), Deadline: t0.Add(12 * time.Second)}, "  optimizing: trade-off curve (10s), at most 2s left (--max-time)"},
		{toolkit.OptimizePhase{Name: "trade-off curve", End: t0.Add(13 * time.Second), Deadline: t0.Add(20 * time.Second)}, "  optimizing: trade-off curve (10s), about 3s left"},
		{toolkit.OptimizePhase{Name: "write"}, "  optimizing: write (10s)"},
	} {
		st.phase(c.ph)
		if got := st.line(t0.Add(10 * time.Second)); got != c.want {
			t.Errorf("%+v: %q, want %q", c.ph, got, c.want)
		}
	}
}
