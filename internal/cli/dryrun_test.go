package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// --dry-run on run, optimize and release reads and checks everything
// and writes nothing: no output, no summary, no page, no ledger line, whatever the
// outcome. It exits as the real command does on the same job, with the same
// message when that fails; on success it prints the plan on stdout, and the real
// command then writes what the plan named.
func TestDryRunExitsAsTheRealCommand(t *testing.T) {
	const (
		pv = "testdata/path/vertices.csv"
		pe = "testdata/path/edges.csv"
	)
	// setup copies the example job into a fresh folder, runs it (the mechanism,
	// with its metadata, that release reads) and makes a ledger with budget b.
	setup := func(t *testing.T, budget string) (dir string, p func(string) string) {
		dir = exampleCopy(t)
		p = func(n string) string { return filepath.Join(dir, n) }
		if code, _, stderr := graphdp(t, "ledger", "init", p("l.jsonl"), "--budget-epsilon", budget, "--budget-delta", "1e-5"); code != 0 {
			t.Fatalf("ledger init: exit %d: %s", code, stderr)
		}
		if code, _, stderr := graphdp(t, "run", "--quiet", "--config", p("configs/example.yaml"), "--out", p("m.parquet"), "--summary", "", "--ledger", p("l.jsonl")); code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
		return dir, p
	}
	for _, c := range []struct {
		name   string
		budget string
		args   func(p func(string) string) []string
		want   int
		plan   []string // in the dry run's stdout (paths as p names them)
		writes []string // what the real command writes when it succeeds
	}{
		{"run", "1", func(p func(string) string) []string {
			return []string{"run", "--quiet", "--config", p("configs/example.yaml"), "--out", p("new.csv"), "--summary", p("new.json")}
		}, 0, []string{"new.csv", "new.json", "covers all 6 boundary edges", "memory:", "ε = 0.5, δ = 1e-06"}, []string{"new.csv", "new.json"}},
		// With a ledger: the dry run records no audit (the ledger is in the snapshot).
		{"run_ledger", "1", func(p func(string) string) []string {
			return []string{"run", "--quiet", "--config", p("configs/example.yaml"), "--out", p("new.csv"), "--summary", p("new.json"), "--ledger", p("l.jsonl")}
		}, 0, []string{"new.csv", "new.json"}, []string{"new.csv", "new.json"}},
		// The hitting set's values admit no DP extension: found only by solving.
		{"run_infeasible", "1", func(p func(string) string) []string {
			return []string{"run", "--quiet", "--vertices", pv, "--edges", pe, "--hitting-set", "testdata/bad/hit_infeasible.csv", "--epsilon", ln2, "--out", p("new.csv")}
		}, 3, nil, nil},
		{"run_not_hitting_set", "1", func(p func(string) string) []string {
			return []string{"run", "--quiet", "--vertices", pv, "--edges", pe, "--hitting-set", "testdata/bad/hit_not_hitting.csv", "--epsilon", ln2, "--out", p("new.csv")}
		}, 3, nil, nil},
		{"run_bad_delta", "1", func(p func(string) string) []string {
			return []string{"run", "--quiet", "--config", p("configs/example.yaml"), "--out", p("new.csv"), "--delta", "2"}
		}, 2, nil, nil},
		{"optimize", "1", func(p func(string) string) []string {
			return []string{"optimize", "--quiet", "--config", p("configs/example.yaml"), "--out", p("h.csv"), "--mechanism-out", p("hm.csv"),
				"--summary", p("o.json"), "--html", p("o.html")}
		}, 0, []string{"h.csv", "hm.csv", "o.json", "o.html", "6 boundary edges", "4 datasets (minimum boundary cover)", "first:     a mechanism to write after about"}, []string{"h.csv", "hm.csv", "o.json", "o.html"}},
		{"optimize_bad_weights", "1", func(p func(string) string) []string {
			return []string{"optimize", "--quiet", "--vertices", pv, "--edges", pe, "--epsilon", ln2, "--out", p("h.csv"), "--weights", "testdata/optimize/weights_nocol.csv"}
		}, 3, nil, nil},
		// Floors no DP mechanism meets: the solver's own check, without solving.
		{"optimize_floors_infeasible", "1", func(p func(string) string) []string {
			return []string{"optimize", "--quiet", "--vertices", pv, "--edges", pe, "--epsilon", ln2, "--out", p("h.csv"), "--min-accuracy", "0.7"}
		}, 3, nil, nil},
		{"release", "1", func(p func(string) string) []string {
			return []string{"release", "--quiet", "--mechanism", p("m.parquet"), "--id", "a", "--id", "b", "--out", p("r.csv"), "--ledger", p("l.jsonl")}
		}, 0, []string{"r.csv", "l.jsonl", "2 datasets", "id a: 0 releases before; after it ε = 0.5, δ = 1e-06 spent"}, []string{"r.csv"}},
		// Each release spends ε = 0.5: past a budget of 0.4.
		{"release_over_budget", "0.4", func(p func(string) string) []string {
			return []string{"release", "--quiet", "--mechanism", p("m.parquet"), "--id", "a", "--out", p("r.csv"), "--ledger", p("l.jsonl")}
		}, 3, nil, nil},
		{"release_budget_expected", "1", func(p func(string) string) []string {
			return []string{"release", "--quiet", "--mechanism", p("m.parquet"), "--id", "a", "--out", p("r.csv"), "--ledger", p("l.jsonl"), "--budget-epsilon", "2"}
		}, 2, nil, nil},
		{"release_deterministic", "1", func(p func(string) string) []string {
			return []string{"release", "--quiet", "--mechanism", "testdata/release/mechanism_01.csv", "--epsilon", "1", "--delta", "0", "--id", "1", "--out", p("r.csv"), "--no-ledger"}
		}, 3, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, p := setup(t, c.budget)
			args := c.args(p)
			before := snapshot(t, dir)
			code, stdout, stderr := graphdp(t, append(args, "--dry-run")...)
			assertSame(t, dir, before)
			if code != c.want {
				t.Fatalf("dry run: exit %d, want %d; stderr:\n%s", code, c.want, stderr)
			}
			realCode, _, realStderr := graphdp(t, args...)
			if realCode != c.want {
				t.Fatalf("the real command: exit %d, want %d (the dry run's); stderr:\n%s", realCode, c.want, realStderr)
			}
			if c.want != 0 {
				if stdout != "" || stderr != realStderr {
					t.Errorf("the dry run says\n%s%s\nthe real command\n%s", stdout, stderr, realStderr)
				}
				return
			}
			if !strings.Contains(stdout, "--dry-run:") || !strings.Contains(stdout, "nothing") {
				t.Errorf("no plan on stdout:\n%s", stdout)
			}
			for _, w := range c.plan {
				if strings.HasSuffix(w, ".csv") || strings.HasSuffix(w, ".json") || strings.HasSuffix(w, ".jsonl") || strings.HasSuffix(w, ".html") {
					w = p(w)
				}
				if !strings.Contains(stdout, w) {
					t.Errorf("the plan does not say %q:\n%s", w, stdout)
				}
			}
			after := snapshot(t, dir)
			for _, w := range c.writes {
				if _, ok := after[w]; !ok {
					t.Errorf("the real command did not write %s, which the plan named", w)
				}
			}
		})
	}
}

// graphdp-beam's run checks a dry run with the local runner only: on the cluster
// runner it is a usage error naming the way out.
func TestDryRunLocalOnly(t *testing.T) {
	beam := Program{Name: "graphdp-beam", Runners: map[string]Runner{"beam": nil}, DefaultRunner: "beam"}
	var out, errb strings.Builder
	code := beam.Main(t.Context(), append(pathArgs(filepath.Join(t.TempDir(), "m.csv")), "--dry-run"), &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "--dry-run: checks the job on this machine") || !strings.Contains(errb.String(), "--runner local") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
}
