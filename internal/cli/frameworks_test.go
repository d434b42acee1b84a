package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/toolkit"
)

// exampleArgs runs the shipped example (configs/example) with the given privacy flags.
func exampleArgs(out string, privacy ...string) []string {
	ex := filepath.Join("..", "..", "configs", "example")
	args := []string{"run", "-quiet", "-edges", filepath.Join(ex, "edges.parquet"), "-vertices", filepath.Join(ex, "vertices.parquet"),
		"-hitting-set", filepath.Join(ex, "hitting.parquet"), "-out", out}
	return append(args, privacy...)
}

// run takes every framework: the output's metadata states it (graphdp.framework and
// its parameters, no graphdp.epsilon for the others), verify audits under the
// mechanism's own framework and passes, and under a stricter μ it fails (exit 3).
func TestRunEveryFramework(t *testing.T) {
	dir := t.TempDir()
	profile, curve := frameworkFiles(t, dir)
	cases := []struct {
		name  string
		flags []string
		meta  map[string]string
	}{
		{"gdp", []string{"-gdp-mu", "1"}, map[string]string{"graphdp.framework": "gdp", "graphdp.gdp_mu": "1"}},
		{"profile", []string{"-privacy-profile", profile}, map[string]string{"graphdp.framework": "privacy-profile", "graphdp.privacy_profile": "0.5:0.01;1:0.0001;2:1e-08"}},
		{"tradeoff", []string{"-tradeoff", curve}, map[string]string{"graphdp.framework": "tradeoff", "graphdp.tradeoff": "0:0.9;0.05:0.3;0.5:0.05;1:0"}},
		{"eps-delta", []string{"-epsilon", "1", "-delta", "1e-6"}, map[string]string{"graphdp.framework": "epsilon-delta", "graphdp.epsilon": "1"}},
	}
	ex := filepath.Join("..", "..", "configs", "example")
	for _, c := range cases {
		out := filepath.Join(dir, c.name+".parquet")
		if code, _, stderr := graphdp(t, exampleArgs(out, c.flags...)...); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
		}
		meta, err := ingest.ReadMetadata(t.Context(), out)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c.meta {
			if meta[k] != v {
				t.Errorf("%s: metadata %s = %q, want %q", c.name, k, meta[k], v)
			}
		}
		if c.name != "eps-delta" {
			if _, has := meta["graphdp.epsilon"]; has {
				t.Errorf("%s: metadata states graphdp.epsilon for another framework", c.name)
			}
		}
		code, stdout, stderr := graphdp(t, "verify", "-edges", filepath.Join(ex, "edges.parquet"), "-vertices", filepath.Join(ex, "vertices.parquet"),
			"-hitting-set", filepath.Join(ex, "hitting.parquet"), "-mechanism", out)
		if code != 0 || !strings.Contains(stdout, "passed") {
			t.Errorf("%s: verify exit %d: %s%s", c.name, code, stdout, stderr)
		}
	}
	// The μ = 1 mechanism is not 0.5-GDP (its metadata is the CSV-free way to say so:
	// a CSV copy has none, so the framework is stated).
	csv := filepath.Join(dir, "gdp.csv")
	if code, _, stderr := graphdp(t, exampleArgs(csv, "-gdp-mu", "1")...); code != 0 {
		t.Fatal(stderr)
	}
	code, stdout, _ := graphdp(t, "verify", "-edges", filepath.Join(ex, "edges.parquet"), "-vertices", filepath.Join(ex, "vertices.parquet"),
		"-mechanism", csv, "-gdp-mu", "0.5")
	if code != 3 || !strings.Contains(stdout, "FAILED") {
		t.Errorf("verify of a 1-GDP mechanism at μ = 0.5: exit %d, %s", code, stdout)
	}
}

// Exactly one framework per job (exit 2), bad profiles and curves are input errors
// (exit 3) naming the file, row and column, a missing one is found before any work
// (exit 2); nothing is written.
func TestFrameworkErrors(t *testing.T) {
	dir := t.TempDir()
	badCurve := filepath.Join(dir, "curve.csv")
	write(t, badCurve, "alpha,beta\n0,0.4\n0.5,0.3\n1,0\n") // concave at row 2
	badProfile := filepath.Join(dir, "profile.csv")
	write(t, badProfile, "epsilon,delta\n1,0.1\n-2,0\n")
	cases := []struct {
		name  string
		flags []string
		code  int
		want  string
	}{
		{"two", []string{"-gdp-mu", "1", "-epsilon", "1"}, 2, "exactly one privacy framework"},
		{"three", []string{"-gdp-mu", "1", "-tradeoff", badCurve, "-privacy-profile", badProfile}, 2, "exactly one privacy framework"},
		{"none", nil, 2, "epsilon: required"},
		{"mu range", []string{"-gdp-mu", "-1"}, 2, "must be a number in [0, 100], got -1"},
		{"curve", []string{"-tradeoff", badCurve}, 3, badCurve + ": row 2: the curve is not convex"},
		{"profile", []string{"-privacy-profile", badProfile}, 3, badProfile + ": row 2, column \"epsilon\""},
		{"profile missing", []string{"-privacy-profile", filepath.Join(dir, "nope.csv")}, 2, "--privacy-profile: " + filepath.Join(dir, "nope.csv") + ": no such file"},
	}
	for _, c := range cases {
		out := filepath.Join(dir, "out-"+c.name+".csv")
		code, _, stderr := graphdp(t, exampleArgs(out, c.flags...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d (want %d), stderr %q does not say %q", c.name, code, c.code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s written", c.name, out)
		}
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// optimize takes every framework (DESIGN.md §11.7): on the path example it writes a
// hitting set whose run under the same framework is the written mechanism byte for
// byte, verify passes it under that framework, the metadata states the framework,
// and the summary's certificate encloses the utility; under μ-GDP the summary says
// the bound is the tangents' (relaxation) and gives the chords.
func TestOptimizeEveryFramework(t *testing.T) {
	dir := t.TempDir()
	profile, curve := frameworkFiles(t, dir)
	in := []string{"-edges", "testdata/path/edges.csv", "-vertices", "testdata/path/vertices.csv"}
	for _, c := range []struct {
		name  string
		flags []string
	}{
		{"gdp", []string{"-gdp-mu", "1", "-chords", "32"}},
		{"privacy-profile", []string{"-privacy-profile", profile}},
		{"tradeoff", []string{"-tradeoff", curve}},
	} {
		p := func(n string) string { return filepath.Join(dir, c.name+"-"+n) }
		args := append(append([]string{"optimize", "-quiet", "-out", p("h.parquet"), "-mechanism-out", p("m.parquet"),
			"-summary", p("s.json"), "-gap", "1e-4"}, in...), c.flags...)
		if code, stdout, stderr := graphdp(t, args...); code != 0 {
			t.Fatalf("%s: optimize exit %d: %s%s", c.name, code, stdout, stderr)
		}
		runFlags := c.flags
		if c.name == "gdp" {
			runFlags = c.flags[:2] // run has no -chords
		}
		if code, _, stderr := graphdp(t, append(append([]string{"run", "-quiet", "-hitting-set", p("h.parquet"), "-out", p("run.parquet")}, in...), runFlags...)...); code != 0 {
			t.Fatalf("%s: run exit %d: %s", c.name, code, stderr)
		}
		a, _ := os.ReadFile(p("m.parquet"))
		if b, _ := os.ReadFile(p("run.parquet")); len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: run on the optimised hitting set differs from -mechanism-out", c.name)
		}
		code, stdout, stderr := graphdp(t, append(append([]string{"verify", "-hitting-set", p("h.parquet"), "-mechanism", p("m.parquet")}, in...), runFlags...)...)
		if code != 0 || !strings.Contains(stdout, "passed") {
			t.Errorf("%s: verify exit %d: %s%s", c.name, code, stdout, stderr)
		}
		meta, err := ingest.ReadMetadata(t.Context(), p("h.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if meta["graphdp.framework"] != c.name {
			t.Errorf("%s: hitting set metadata graphdp.framework = %q", c.name, meta["graphdp.framework"])
		}
		var s toolkit.OptimizeSummary
		raw, _ := os.ReadFile(p("s.json"))
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		if s.Framework != c.name || !(s.Utility > 0 && s.Utility <= s.UpperBound) || s.Lines < 1 {
			t.Errorf("%s: summary framework %q, utility %v, upper bound %v, lines %d", c.name, s.Framework, s.Utility, s.UpperBound, s.Lines)
		}
		if gdp := c.name == "gdp"; gdp != (s.Relaxation != "") || gdp && s.Chords != 32 {
			t.Errorf("%s: relaxation %q, chords %d", c.name, s.Relaxation, s.Chords)
		}
	}
}

// frameworkFiles writes a three-row privacy profile and a four-point trade-off
// curve in dir (the frameworks tests' inputs) and returns their paths.
func frameworkFiles(t *testing.T, dir string) (profile, curve string) {
	t.Helper()
	profile, curve = filepath.Join(dir, "profile.csv"), filepath.Join(dir, "curve.csv")
	write(t, profile, "epsilon,delta\n0.5,0.01\n1,1e-4\n2,1e-8\n")
	write(t, curve, "alpha,beta\n0,0.9\n0.05,0.3\n0.5,0.05\n1,0\n")
	return profile, curve
}
