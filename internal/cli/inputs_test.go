package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes name → text into a fresh folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Issue 24, defect 12b: CSV ids were rewritten (007 → 7, +9 → 9) and 1 and 01 were
// duplicates. Now a column with one non-canonical integer is a column of strings,
// and run writes every id back exactly as the vertices file spells it.
func TestCSVIdsKeptAsWritten(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"v.csv": "id,answer\n007,1\n7,0\n+9,1\n1,0\n01,1\n",
		"e.csv": "src,dst\n007,7\n7,+9\n+9,1\n1,01\n",
		"h.csv": "id,p_true\n7,0.6\n1,0.6\n",
	})
	out := filepath.Join(dir, "m.csv")
	mustRun(t, 0, "run", "-quiet", "-vertices", filepath.Join(dir, "v.csv"), "-edges", filepath.Join(dir, "e.csv"),
		"-hitting-set", filepath.Join(dir, "h.csv"), "-epsilon", "1", "-out", out)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		id, _, _ := strings.Cut(line, ",")
		ids = append(ids, id)
	}
	if got := strings.Join(ids, " "); got != "007 7 +9 1 01" {
		t.Errorf("ids written %q, want 007 7 +9 1 01 (as the vertices file spells them)\n%s", got, data)
	}
	// Integer vertex ids: an edge naming one with a leading zero is refused, not
	// read as that integer.
	dir = writeFiles(t, map[string]string{
		"v.csv": "id,answer\n7,1\n8,0\n",
		"e.csv": "src,dst\n7,08\n",
		"h.csv": "id,p_true\n7,0.6\n",
	})
	code, _, stderr := graphdp(t, "run", "-quiet", "-vertices", filepath.Join(dir, "v.csv"), "-edges", filepath.Join(dir, "e.csv"),
		"-hitting-set", filepath.Join(dir, "h.csv"), "-epsilon", "1", "-out", filepath.Join(dir, "m.csv"))
	if want := `e.csv: row 1, column "dst": value 08: not an integer id`; code != 3 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %q; want 3 and %q", code, stderr, want)
	}
}

// Issue 24, defect 9: ε from about 709.44 to 709.78 was refused ("must be below
// 709.783 … got 709.44"): the check asked math.Exp, which on amd64 overflows early.
// README promises every ε below ln(MaxFloat64) = 709.7827…; dp.New encloses e^ε
// exactly there. Each ε below runs and verifies; from the limit on, exit 2.
func TestEpsilonUpToTheDocumentedLimit(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"v.csv": "id,answer\n1,0\n2,1\n3,1\n4,0\n",
		"e.csv": "src,dst\n1,2\n2,3\n3,4\n",
		"h.csv": "id,p_true\n1,0.75\n2,0.75\n3,0.75\n4,0.75\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	args := func(cmd, eps string, extra ...string) []string {
		return append([]string{cmd, "-vertices", p("v.csv"), "-edges", p("e.csv"), "-epsilon", eps}, extra...)
	}
	for _, eps := range []string{"709.44", "709.5", "709.7", "709.78", "709.7827128933839"} {
		out := p("m" + eps + ".csv")
		if code, _, stderr := graphdp(t, args("run", eps, "-quiet", "-hitting-set", p("h.csv"), "-out", out)...); code != 0 {
			t.Errorf("run ε=%s: exit %d: %s", eps, code, stderr)
			continue
		}
		if code, _, stderr := graphdp(t, args("verify", eps, "-mechanism", out)...); code != 0 {
			t.Errorf("verify ε=%s: exit %d: %s", eps, code, stderr)
		}
	}
	for _, eps := range []string{"709.782712893384", "709.79", "710", "1e308"} {
		code, _, stderr := graphdp(t, args("run", eps, "-quiet", "-hitting-set", p("h.csv"), "-out", p("never.csv"))...)
		if want := "--epsilon: must be below 709.7827129 (e^ε overflows float64"; code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("run ε=%s: exit %d, %q; want 2 and %q", eps, code, stderr, want)
		}
	}
}
