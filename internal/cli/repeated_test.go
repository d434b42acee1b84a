package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A flag that takes one value refuses a second one (exit 2) before anything is read
// or written: "--edges p0.csv --edges p1.csv" used to read p1.csv alone, dropping
// p0.csv's edges (and the privacy of the datasets on them) without a word. Flags that
// collect values (--id) still take any number.
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
		{"edges", []string{"--edges", p("e0.csv"), "--edges", p("e1.csv"), "--epsilon", "1"}, "--edges"},
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
	// Given once each, the same job runs.
	code, msg := reviewMain(append(append([]string{}, base...), "--edges", p("e0.csv"), "--epsilon", "1")...)
	if code != 0 {
		t.Fatalf("the job with each flag once: exit %d: %s", code, msg)
	}
}
