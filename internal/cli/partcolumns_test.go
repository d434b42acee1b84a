package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A table of several files whose files disagree on a column some command looks for
// is refused, naming the file that lacks it and the one it differs from, whichever
// file comes first: optimize's weight column in the vertices (the first part with
// it, or the first without), a mechanism's privacy metadata (two parts built under
// different ε: verify must not audit against one part's).
func TestPartsDisagreeOnColumn(t *testing.T) {
	dir := t.TempDir()
	w := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	e := w("e.csv", "src,dst\n1,2\n2,3\n3,4\n")
	w("vw/part-0.csv", "id,answer,weight\n1,0,2\n2,1,1\n")
	w("vw/part-1.csv", "id,answer\n3,0\n4,1\n")
	w("wv/part-0.csv", "id,answer\n1,0\n2,1\n")
	w("wv/part-1.csv", "id,answer,weight\n3,0,1\n4,1,2\n")
	for _, c := range []struct{ folder, lacks, other string }{{"vw", "part-1.csv", "part-0.csv"}, {"wv", "part-1.csv", "part-0.csv"}} {
		code, msg := reviewMain("optimize", "--quiet", "--vertices", filepath.Join(dir, c.folder), "--edges", e, "--epsilon", "1", "--out", filepath.Join(dir, "h.csv"))
		lacks, other := filepath.Join(dir, c.folder, c.lacks), filepath.Join(dir, c.folder, c.other)
		if code != 3 || !strings.Contains(msg, lacks) || !strings.Contains(msg, other) {
			t.Errorf("optimize over %s/: exit %d, want 3 naming %s and %s:\n%s", c.folder, code, lacks, other, msg)
		}
	}

	// Two mechanisms of one graph built under different ε, as the parts of one table.
	v := w("v.csv", "id,answer\n1,0\n2,1\n3,0\n4,1\n")
	h := w("h.csv", "id,p_true\n1,0.6\n2,0.6\n3,0.6\n4,0.6\n")
	for i, eps := range []string{"0.5", "0.7"} {
		out := filepath.Join(dir, "mech", "part-"+string(rune('0'+i))+".parquet")
		os.MkdirAll(filepath.Dir(out), 0o755)
		if code, msg := reviewMain("run", "--quiet", "--vertices", v, "--edges", e, "--hitting-set", h, "--epsilon", eps, "--out", out); code != 0 {
			t.Fatalf("run ε=%s: exit %d: %s", eps, code, msg)
		}
	}
	code, msg := reviewMain("verify", "--mechanism", filepath.Join(dir, "mech"), "--vertices", v, "--edges", e)
	p0, p1 := filepath.Join(dir, "mech", "part-0.parquet"), filepath.Join(dir, "mech", "part-1.parquet")
	if code != 3 || !strings.Contains(msg, p0) || !strings.Contains(msg, p1) || !strings.Contains(msg, "graphdp.epsilon") {
		t.Errorf("verify over parts built under different ε: exit %d, want 3 naming both and graphdp.epsilon:\n%s", code, msg)
	}
}
