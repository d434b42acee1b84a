package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A flag that takes one value refuses a second one (exit 2) before anything is read
// or written: a repeated --epsilon used to keep the last value without a word. Flags
// that collect values (--id) still take any number, and a table's flag given again
// adds files to the table (parts_test.go): "--edges p0.csv --edges p1.csv" once read
// p1.csv alone.
func TestRepeatedFlagRefused(t *testing.T) {
	dir := reviewFiles(t, map[string]string{
		"v.csv":  "id,answer\n1,1\n2,1\n3,0\n4,0\n",
		"e0.csv": "src,dst\n1,2\n2,3\n",
		"e1.csv": "src,dst\n3,4\n",
		"h.csv":  "id,p_true\n2,0.6\n3,0.6\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	base := []string{"run", "--vertices", p("v.csv"), "--hitting-set", p("h.csv"), "--out", p("m.csv"), "--quiet"}
	for _, c := range []struct {
		name string
		args []string
		flag string
	}{
		{"out", []string{"--edges", p("e0.csv"), "--epsilon", "1", "--out", p("m2.csv")}, "--out"},
		{"epsilon", []string{"--edges", p("e0.csv"), "--epsilon", "1", "--epsilon", "3"}, "--epsilon"},
		{"bool", []string{"--edges", p("e0.csv"), "--epsilon", "1", "--quiet"}, "--quiet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, msg := reviewMain(append(append([]string{}, base...), c.args...)...)
			if code != 2 {
				t.Fatalf("exit %d, want 2: %s", code, msg)
			}
			if !strings.Contains(msg, c.flag) || !strings.Contains(msg, "given twice") {
				t.Errorf("message does not name %s as given twice: %s", c.flag, msg)
			}
			if _, err := os.Stat(p("m.csv")); err == nil {
				t.Errorf("%s given twice: an output was written", c.flag)
			}
		})
	}
	// Given once each, the same job runs (dataset 4 has no edge in e0.csv: allowed).
	code, msg := reviewMain(append(append([]string{}, base...), "--edges", p("e0.csv"), "--epsilon", "1", "--allow-non-private")...)
	if code != 0 {
		t.Fatalf("the job with each flag once: exit %d: %s", code, msg)
	}
}

// Every command refuses a single-valued flag given twice (exit 2, nothing read):
// one flag each, since onlyOnce wraps every flag of the set parseFlags parses
// (completion has no flag of its own).
func TestRepeatedFlagEveryCommand(t *testing.T) {
	cases := map[string][]string{
		"ledger init":   {"ledger", "init", "l.jsonl", "--budget-epsilon", "1", "--budget-epsilon", "2"},
		"ledger raise":  {"ledger", "raise", "l.jsonl", "--reason", "a", "--reason", "b"},
		"ledger show":   {"ledger", "show", "l.jsonl", "--list", "1", "--list", "2"},
		"ledger verify": {"ledger", "verify", "l.jsonl", "--head", "a", "--head", "b"},
		"ledger repair": {"ledger", "repair", "l.jsonl", "--reason", "a", "--reason", "b"},
	}
	for name := range commands {
		if name != "ledger" && name != "completion" {
			cases[name] = []string{name, "--log-level", "warn", "--log-level", "error"}
		}
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for i, a := range args {
				if a == "l.jsonl" {
					args[i] = filepath.Join(dir, a)
				}
			}
			code, _, stderr := graphdp(t, args...)
			if code != 2 || !strings.Contains(stderr, "given twice") {
				t.Errorf("graphdp %s: exit %d, want 2 with \"given twice\": %s", strings.Join(args, " "), code, stderr)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("wrote %v", ents)
			}
		})
	}
}

// TestFlagOverridesConfig: a flag and a config key that disagree follow the
// documented rule (docs/FORMATS.md, "flags override" the file), and the summary
// records the value used. The same config without the flag records its own value,
// so the assertion would fail if the config won.
func TestFlagOverridesConfig(t *testing.T) {
	dir := t.TempDir()
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	cfg := filepath.Join(dir, "job.yaml")
	body := "vertices: " + abs("testdata/path/vertices.csv") + "\nedges: " + abs("testdata/path/edges.csv") +
		"\nhitting_set: " + abs("testdata/path/hitting.csv") + "\nepsilon: 0.5\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want float64
	}{
		{"flag", []string{"--epsilon", "1"}, 1},
		{"config", nil, 0.5},
	} {
		sum := filepath.Join(dir, tc.name+".json")
		args := append([]string{"run", "--quiet", "--config", cfg, "--out", filepath.Join(dir, tc.name+".csv"), "--summary", sum}, tc.args...)
		if code, _, stderr := graphdp(t, args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, stderr)
		}
		raw, err := os.ReadFile(sum)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Epsilon float64 `json:"epsilon"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		if s.Epsilon != tc.want {
			t.Errorf("%s: summary epsilon %v, want %v (flags override the config)", tc.name, s.Epsilon, tc.want)
		}
	}
}
