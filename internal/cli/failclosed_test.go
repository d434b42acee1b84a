package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entries lists dir's names: a refused command leaves none (no output, summary,
// hitting set or temporary file).
func entries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// The reproducer: the example's 22 datasets with an edges file of only its
// header, and a hitting set of 4 of them. Every other dataset is isolated and
// answered with certainty: 18 are not private, so run fails closed (exit 3), dry run
// included, and the out folder stays empty; the message counts them, says nothing
// was written and names --allow-non-private, never an answer. With the flag, or the
// config key allow_non_private: true, it writes the mechanism and the summary and
// warns as before; the flag given false overrides the key.
func TestRunRefusesNotPrivate(t *testing.T) {
	t.Parallel()
	vs, err := os.ReadFile("../../configs/example/vertices.csv")
	if err != nil {
		t.Fatal(err)
	}
	in := reviewFiles(t, map[string]string{
		"vertices.csv": string(vs),
		"edges.csv":    "src,dst\n",
		"hitting.csv":  "id,p_true\nl,0.6\nh,0.6\nu,0.6\ns,0.6\n",
	})
	p := func(n string) string { return filepath.Join(in, n) }
	if err := os.WriteFile(p("job.yaml"), []byte("vertices: vertices.csv\nedges: edges.csv\nhitting_set: hitting.csv\nepsilon: 0.5\nallow_non_private: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(out string, extra ...string) []string {
		return append([]string{"run", "--vertices", p("vertices.csv"), "--edges", p("edges.csv"), "--hitting-set", p("hitting.csv"),
			"--epsilon", "0.5", "--out", filepath.Join(out, "m.csv"), "--summary", filepath.Join(out, "s.json")}, extra...)
	}
	for _, extra := range [][]string{nil, {"--dry-run"}, {"--quiet"}, {"--log-format", "json"}} {
		out := t.TempDir()
		code, stdout, stderr := graphdp(t, args(out, extra...)...)
		if code != 3 {
			t.Fatalf("%v: exit %d, want 3:\n%s%s", extra, code, stdout, stderr)
		}
		for _, want := range []string{"18 of 22 datasets are not private", "nothing written", "--allow-non-private", "the edges file " + p("edges.csv") + " has no rows"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%v: the refusal lacks %q:\n%s", extra, want, stderr)
			}
		}
		// The answers are what a release protects: no message states one.
		for _, leak := range []string{"p_one 1", "p_one 0", "p_true 1", "answer 1", "answer 0", "answer: "} {
			if strings.Contains(stderr, leak) {
				t.Errorf("%v: the refusal says %q:\n%s", extra, leak, stderr)
			}
		}
		if names := entries(t, out); len(names) > 0 {
			t.Errorf("%v: a refused run left %v", extra, names)
		}
	}

	out := t.TempDir()
	code, _, stderr := graphdp(t, args(out, "--allow-non-private")...)
	if code != 0 || !strings.Contains(stderr, "NOT private: 18") || !strings.Contains(stderr, "WARNING: the edges file") {
		t.Fatalf("--allow-non-private: exit %d, want 0 with the warnings:\n%s", code, stderr)
	}
	if names := entries(t, out); strings.Join(names, " ") != "m.csv s.json" {
		t.Errorf("--allow-non-private wrote %v, want m.csv and s.json", names)
	}

	cfg := t.TempDir()
	cfgArgs := []string{"run", "--quiet", "--config", p("job.yaml"), "--out", filepath.Join(cfg, "m.csv")}
	if code, _, stderr := graphdp(t, cfgArgs...); code != 0 {
		t.Errorf("allow_non_private: true in the config: exit %d:\n%s", code, stderr)
	}
	over := t.TempDir()
	cfgArgs[len(cfgArgs)-1] = filepath.Join(over, "m.csv")
	if code, _, stderr := graphdp(t, append(cfgArgs, "--allow-non-private=false")...); code != 3 || len(entries(t, over)) > 0 {
		t.Errorf("--allow-non-private=false over the config's true: exit %d, wrote %v:\n%s", code, entries(t, over), stderr)
	}
}

// optimize refuses the same way: on testdata/det (dataset 5 has no neighbours, so
// its optimum answers it truthfully) nothing is written, neither the hitting set nor
// the mechanism nor the summary, and --allow-non-private writes them.
func TestOptimizeRefusesNotPrivate(t *testing.T) {
	t.Parallel()
	args := func(out string, extra ...string) []string {
		return append([]string{"optimize", "--quiet", "--vertices", "testdata/det/vertices.csv", "--edges", "testdata/det/edges.csv", "--epsilon", ln2,
			"--out", filepath.Join(out, "h.csv"), "--mechanism-out", filepath.Join(out, "m.csv"), "--summary", filepath.Join(out, "s.json")}, extra...)
	}
	out := t.TempDir()
	code, _, stderr := graphdp(t, args(out)...)
	if code != 3 || !strings.Contains(stderr, "1 of 7 datasets is not private") || !strings.Contains(stderr, "nothing written") || !strings.Contains(stderr, "--allow-non-private") {
		t.Errorf("exit %d, want 3 counting the dataset that is not private:\n%s", code, stderr)
	}
	if names := entries(t, out); len(names) > 0 {
		t.Errorf("a refused optimize left %v", names)
	}
	out = t.TempDir()
	if code, _, stderr := graphdp(t, args(out, "--allow-non-private")...); code != 0 || strings.Join(entries(t, out), " ") != "h.csv m.csv s.json" {
		t.Errorf("--allow-non-private: exit %d, wrote %v:\n%s", code, entries(t, out), stderr)
	}
}

// Datasets answered with certainty that are private are no problem: the path
// example beside a component 6 – 7 without a hitting-set dataset (answered 0 on
// every draw, a constant answer: check.Deterministic) runs, exit 0, and its summary
// has one plain sentence with their count; no warning about them, in the summary or the
// log (the class warning of the path's answer-1 datasets is another matter).
func TestRunPrivateDeterministicOneLine(t *testing.T) {
	t.Parallel()
	dir := reviewFiles(t, map[string]string{
		"v.csv": "id,answer\n1,0\n2,1\n3,1\n4,0\n6,0\n7,0\n",
		"e.csv": "src,dst\n1,2\n2,3\n3,4\n6,7\n",
		"h.csv": "id,p_true\n1,0.7\n4,0.9\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, _, stderr := graphdp(t, "run", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--hitting-set", p("h.csv"), "--epsilon", ln2, "--out", p("m.csv"))
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	const line = "2 datasets are answered with certainty (p_one = 0 or 1), all private: every DP inequality with their neighbours holds exactly"
	if !hasWords(stderr, line) || strings.Count(stderr, "certainty") != 1 || strings.Contains(stderr, "private: 2") {
		t.Errorf("want the one sentence %q and no other about them:\n%s", line, stderr)
	}
	if strings.Contains(stderr, "WARNING: 2") || strings.Contains(stderr, "answered deterministically") {
		t.Errorf("a warning about them (in the summary or the log):\n%s", stderr)
	}
}
