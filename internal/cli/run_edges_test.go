package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func reviewFiles(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func reviewMain(args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, &out, &errb)
	return code, out.String() + errb.String()
}

// Found in review: ε ≥ ~709.8 passes validation (finite), but e^ε = +Inf makes U and L NaN
// (pair.go): run writes NaN probabilities to --out and then fails (exit 1) on the
// summary; verify and report panic (index -1: the audit's Worst stays unset because
// every Excess is NaN), and verify's audit counts NaN excesses as passing.
func TestReviewHugeEpsilon(t *testing.T) {
	dir := reviewFiles(t, map[string]string{
		"v.csv": "id,answer\n1,0\n2,1\n3,1\n",
		"e.csv": "src,dst\n1,2\n2,3\n",
		"h.csv": "id,p_true\n2,0.7\n",
		"m.csv": "id,p_one\n1,0\n2,0.5\n3,0.5\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	out := p("out.csv")
	code, msg := reviewMain("run", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--hitting-set", p("h.csv"),
		"--epsilon", "710", "--out", out, "--summary", p("s.json"), "--quiet")
	if b, err := os.ReadFile(out); err == nil && strings.Contains(string(b), "NaN") {
		t.Errorf("run (exit %d) wrote NaN probabilities to --out:\n%s%s", code, b, msg)
	}
	if code != 2 {
		t.Errorf("run with ε=710: exit %d, want 2: %s", code, msg)
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("verify with ε=710 panicked: %v", r)
			}
		}()
		// e^710 overflows float64: ε that large is a config error for every command.
		code, msg := reviewMain("verify", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--mechanism", p("m.csv"), "--epsilon", "710")
		if code != 2 {
			t.Errorf("verify with ε=710: exit %d, want 2: %s", code, msg)
		}
	}()
}

// Found in review: --out is written before --summary; a summary that cannot be written makes the
// run exit 1 ("nothing written", README) with --out already replaced.
func TestReviewSummaryFailureAfterOut(t *testing.T) {
	dir := reviewFiles(t, map[string]string{
		"v.csv": "id,answer\n1,0\n2,1\n",
		"e.csv": "src,dst\n1,2\n",
		"h.csv": "id,p_true\n2,0.7\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, msg := reviewMain("run", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--hitting-set", p("h.csv"),
		"--epsilon", "0.5", "--out", p("out.csv"), "--summary", p("missing/s.json"), "--quiet")
	if _, err := os.Stat(p("out.csv")); code != 0 && err == nil {
		t.Errorf("exit %d but --out was written: %s", code, msg)
	}
}

// Found in review: --out and --summary naming the same file: the mechanism is replaced by the
// JSON summary, exit 0.
func TestReviewOutEqualsSummary(t *testing.T) {
	dir := reviewFiles(t, map[string]string{
		"v.csv": "id,answer\n1,0\n2,1\n",
		"e.csv": "src,dst\n1,2\n",
		"h.csv": "id,p_true\n2,0.7\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, _ := reviewMain("run", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--hitting-set", p("h.csv"),
		"--epsilon", "0.5", "--out", p("x.csv"), "--summary", p("x.csv"), "--quiet")
	b, _ := os.ReadFile(p("x.csv"))
	if code == 0 && strings.HasPrefix(string(b), "{") {
		t.Errorf("exit 0 but the mechanism file holds the JSON summary")
	}
}

// Found in review: ε = 0 with hitting-set values a user would type (0.3): the constant mechanism
// 0.3 is DP and optimal, but run exits 1 with "internal error ... fails the DP audit"
// (pair.go: DP.Lower(0.3) = 0.30000000000000004 > 0.3).
func TestReviewEpsilonZeroRun(t *testing.T) {
	dir := reviewFiles(t, map[string]string{
		"v.csv": "id,answer\n1,1\n2,0\n3,1\n",
		"e.csv": "src,dst\n1,2\n2,3\n",
		"h.csv": "id,p_true\n1,0.3\n3,0.3\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, eng := range []string{"propagate", "per-source", "rounds"} {
		code, msg := reviewMain("run", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--hitting-set", p("h.csv"),
			"--epsilon", "0", "--engine", eng, "--out", p("o-"+eng+".csv"), "--quiet")
		if code != 0 {
			t.Errorf("%s: exit %d: %s", eng, code, msg)
			continue
		}
		b, _ := os.ReadFile(p("o-" + eng + ".csv"))
		if strings.Contains(string(b), "0.30000000000000004") {
			t.Errorf("%s: hitting-set values not kept (given 0.3):\n%s", eng, b)
		}
	}
}
