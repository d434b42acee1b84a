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

// An ε whose e^ε overflows a float64 (≥ 709.78) is a usage error (exit 2) for every
// command, before anything is read: no NaN bound can reach an output or an audit.
func TestEpsilonTooLargeRejected(t *testing.T) {
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

// A summary that cannot be written fails the run before --out is replaced: "nothing
// written" (docs/FORMATS.md, "Writing outputs") holds for both files.
func TestSummaryFailureWritesNothing(t *testing.T) {
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

// --out and --summary naming the same file is a usage error (the mechanism would be
// replaced by the JSON summary).
func TestOutEqualsSummaryRejected(t *testing.T) {
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

// ε = 0 with hitting-set values a user would type (0.3): run writes the constant
// mechanism 0.3, which is DP and optimal, and exits 0.
func TestEpsilonZeroRunWritesConstant(t *testing.T) {
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
