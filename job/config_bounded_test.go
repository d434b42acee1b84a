package job

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config file with N unknown keys costs O(N) and lists a bounded number: yaml's
// decoder compares every key of a mapping with every other (O(N²): 32k keys 6.8 s,
// 200k over 120 s), so LoadConfig finds unknown and repeated keys itself, lists
// the first maxConfigProblems by line and counts the rest. No timing here: the
// assertions are on what is listed (200k keys take about a second, the time of
// parsing the YAML).
func TestConfigProblemsBounded(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var b strings.Builder
	b.WriteString("epsilon: 0.5\nhiting_set: h.csv\n")
	const n = 200000
	for i := range n {
		fmt.Fprintf(&b, "key_%d: %d\n", i, i)
	}
	b.WriteString("delta: 0.25\ncolumns:\n  idd: x\n")
	job := DefaultJob()
	probs, err := job.LoadConfig(write("many.yaml", b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != maxConfigProblems+1 {
		t.Fatalf("%d problems listed, want %d and a count:\n%s", len(probs), maxConfigProblems+1, strings.Join(probs[:min(len(probs), 30)], "\n"))
	}
	if want := `line 2: unknown key "hiting_set" (did you mean "hitting_set"?)`; probs[0] != want {
		t.Errorf("first problem %q, want %q", probs[0], want)
	}
	for i := 1; i < maxConfigProblems; i++ {
		if want := fmt.Sprintf("line %d: unknown key %q", i+2, fmt.Sprintf("key_%d", i-1)); probs[i] != want {
			t.Errorf("problem %d: %q, want %q", i, probs[i], want)
		}
	}
	total := n + 2 // and columns.idd
	if want := fmt.Sprintf("… and %d more problems in this file (%d in all; the first %d are listed)", total-maxConfigProblems, total, maxConfigProblems); probs[maxConfigProblems] != want {
		t.Errorf("last line %q, want %q", probs[maxConfigProblems], want)
	}
	// The known keys around them still apply.
	if !job.EpsilonSet() || job.Epsilon != 0.5 || job.Delta != 0.25 {
		t.Errorf("ε %v (set %v), δ %v: the known keys were not applied", job.Epsilon, job.EpsilonSet(), job.Delta)
	}

	// Repeated keys (yaml's own check, quadratic, said "already defined") and a
	// mapping where a value is expected, nested under a known mapping.
	var r strings.Builder
	const m = 50000
	for i := range m {
		fmt.Fprintf(&r, "vertices: v%d.csv\n", i)
	}
	r.WriteString("columns:\n  id: a\n  id: b\nedges:\n")
	for i := range m {
		fmt.Fprintf(&r, "  k%d: %d\n", i, i)
	}
	job = DefaultJob()
	probs, err = job.LoadConfig(write("repeated.yaml", r.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != maxConfigProblems+1 || probs[0] != `line 2: key "vertices" given again (first at line 1)` ||
		probs[maxConfigProblems] != fmt.Sprintf("… and %d more problems in this file (%d in all; the first %d are listed)", m+1-maxConfigProblems, m+1, maxConfigProblems) {
		t.Errorf("problems:\n%s", strings.Join(probs, "\n"))
	}
	if job.Vertices != filepath.Join(dir, "v0.csv") || job.Columns.ID != "a" {
		t.Errorf("vertices %q, columns.id %q: the first of repeated keys applies", job.Vertices, job.Columns.ID)
	}
	// Few problems: every one listed, in line order, types and keys together.
	job = DefaultJob()
	probs, err = job.LoadConfig(write("few.yaml", "workers: many\nbogus: 1\nedges:\n  a: 1\ncolumns: 3\nbeam:\n  shards: x\n  shardz: 2\n"))
	want := []string{
		`line 1: workers: "many" is not an integer`,
		`line 2: unknown key "bogus"`,
		`line 4: edges.a: cannot unmarshal !!map into string`,
		`line 5: columns: "3" is not a mapping of column names (columns: {id: …, answer: …})`,
		`line 7: beam.shards: "x" is not an integer`,
		`line 8: unknown key "beam.shardz" (did you mean "beam.shards"?)`,
	}
	if err != nil || strings.Join(probs, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems (%v):\n%s\nwant\n%s", err, strings.Join(probs, "\n"), strings.Join(want, "\n"))
	}
}
