package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --max-deterministic N|P% (config key max_deterministic) fails a run whose
// deterministic datasets exceed it: exit 3, nothing written, the previous output
// intact; at the limit it runs. testdata/det has 7 datasets of which 3
// (5, 6, 7) are answered deterministically (TestRunWarnsDeterministic); detArgs
// allows 5, which is not private.
func TestMaxDeterministic(t *testing.T) {
	for _, c := range []struct {
		limit string
		want  int
	}{
		{"3", 0}, {"2", 3}, {"0", 3}, {"100%", 0},
		{"42.9%", 0}, // 3 of 7 is 42.857…%
		{"42.8%", 3},
		{"0%", 3},
		{"-1", 2}, {"1.5", 2}, {"101%", 2}, {"ten", 2},
	} {
		t.Run(c.limit, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "m.csv")
			prev := []byte("previous good output")
			if err := os.WriteFile(out, prev, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, dry := range []bool{false, true} {
				args := detArgs(out, "--quiet", "--max-deterministic", c.limit)
				if dry {
					args = append(args, "--dry-run")
				}
				code, _, stderr := graphdp(t, args...)
				if code != c.want {
					t.Fatalf("--max-deterministic %s (dry run %v): exit %d, want %d: %s", c.limit, dry, code, c.want, stderr)
				}
				switch c.want {
				case 3:
					if !strings.Contains(stderr, "3 of 7 datasets are answered deterministically") || !strings.Contains(stderr, "more than --max-deterministic "+c.limit) ||
						!strings.Contains(stderr, "nothing written") {
						t.Errorf("the refusal does not say what and why:\n%s", stderr)
					}
				case 2:
					if !strings.Contains(stderr, "--max-deterministic: \""+c.limit+"\" is not") {
						t.Errorf("a bad limit is not named:\n%s", stderr)
					}
				}
			}
			got, _ := os.ReadFile(out)
			if ents, _ := os.ReadDir(dir); (c.want != 0) != (bytes.Equal(got, prev) && len(ents) == 1) {
				t.Errorf("exit %d, yet the output %s: %q", c.want, map[bool]string{true: "was replaced", false: "was kept"}[c.want == 0], got)
			}
		})
	}
}

// A header-only edges export (an upstream job that broke) makes every dataset
// isolated, hence not private: run fails closed (exit 3, nothing written) naming the
// edges file ("has no rows"), also with --quiet; with --allow-non-private it writes
// and warns, also with --quiet (a log line); and max_deterministic in a config file
// still fails the run allowed so.
func TestEmptyEdgesCalledOut(t *testing.T) {
	dir := reviewFiles(t, map[string]string{
		"v.csv":    "id,answer\n1,0\n2,1\n3,1\n",
		"e.csv":    "src,dst\n",
		"h.csv":    "id,p_true\n",
		"job.yaml": "vertices: v.csv\nedges: e.csv\nhitting_set: h.csv\nepsilon: 1\nout: m.csv\nmax_deterministic: 50%\nallow_non_private: true\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	want := "the edges file " + p("e.csv") + " has no rows"
	run := func(out string, extra ...string) []string {
		return append([]string{"run", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--hitting-set", p("h.csv"), "--epsilon", "1", "--out", p(out)}, extra...)
	}
	for _, extra := range [][]string{nil, {"--quiet"}} {
		code, _, stderr := graphdp(t, run("m0.csv", extra...)...)
		if code != 3 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "3 of 3 datasets are not private") {
			t.Errorf("%v: exit %d, want 3 naming the empty edges file:\n%s", extra, code, stderr)
		}
	}
	if _, err := os.Stat(p("m0.csv")); err == nil {
		t.Errorf("a refused run wrote its output")
	}
	code, _, stderr := graphdp(t, run("m.csv", "--allow-non-private")...)
	if code != 0 || !strings.Contains(stderr, "WARNING: "+want) {
		t.Errorf("--allow-non-private: exit %d, want 0 with the warning %q:\n%s", code, want, stderr)
	}
	// --quiet: nothing but errors; --log-level warn brings the warning back.
	if _, _, stderr = graphdp(t, run("m2.csv", "--allow-non-private", "--quiet")...); stderr != "" {
		t.Errorf("--quiet printed:\n%s", stderr)
	}
	_, _, stderr = graphdp(t, run("m4.csv", "--allow-non-private", "--quiet", "--log-level", "warn")...)
	if !strings.Contains(stderr, want) {
		t.Errorf("--quiet --log-level warn hides the warning %q:\n%s", want, stderr)
	}
	code, _, stderr = graphdp(t, "run", "--quiet", "--config", p("job.yaml"), "--out", p("m3.csv"))
	if code != 3 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "3 of 3 datasets are answered deterministically") {
		t.Errorf("max_deterministic: 50%% in the config: exit %d, want 3 naming the empty edges file:\n%s", code, stderr)
	}
	if _, err := os.Stat(p("m3.csv")); err == nil {
		t.Errorf("a refused run wrote its output")
	}
	// The key is checked with the others, named as the file gives it.
	if err := os.WriteFile(p("bad.yaml"), []byte("vertices: v.csv\nedges: e.csv\nhitting_set: h.csv\nepsilon: 1\nout: m.csv\nmax_deterministic: lots\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = graphdp(t, "run", "--config", p("bad.yaml"))
	if code != 2 || !strings.Contains(stderr, `max_deterministic: "lots" is not`) {
		t.Errorf("a bad max_deterministic: exit %d:\n%s", code, stderr)
	}
}
