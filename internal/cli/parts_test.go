package cli

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// partsGraph is a random graph (fixed seed) as rows: vertices "id,answer", edges
// (src, dst) and a hitting set of every vertex with an edge to a vertex of the other
// answer (so that run's check passes) at p_true 0.6.
func partsGraph() (vertices []string, edges [][2]int64, hit []string) {
	r := rand.New(rand.NewPCG(27, 1))
	n := 300
	ans := make([]int, n)
	for i := range n {
		ans[i] = r.IntN(2)
		vertices = append(vertices, fmt.Sprintf("%d,%d", i+1, ans[i]))
	}
	inHit := map[int64]bool{}
	for range 900 {
		a, b := int64(r.IntN(n)+1), int64(r.IntN(n)+1)
		edges = append(edges, [2]int64{a, b})
		if ans[a-1] != ans[b-1] {
			inHit[a] = true
		}
	}
	for v := int64(1); v <= int64(n); v++ {
		if inHit[v] {
			hit = append(hit, fmt.Sprintf("%d,0.6", v))
		}
	}
	return vertices, edges, hit
}

func edgeRows(es [][2]int64) string {
	var b strings.Builder
	b.WriteString("src,dst\n")
	for _, e := range es {
		fmt.Fprintf(&b, "%d,%d\n", e[0], e[1])
	}
	return b.String()
}

// The same rows in the same order give the same output bytes whatever the files
// they come in: one file; a folder of part files (with an empty part, _SUCCESS and a
// partition folder); the flag repeated; a glob; a config list; Parquet parts.
// Expected: the one-file run's output, computed here.
func TestRunFromPartsSameBytes(t *testing.T) {
	vs, es, hit := partsGraph()
	dir := reviewFiles(t, map[string]string{
		"v.csv": "id,answer\n" + strings.Join(vs, "\n") + "\n",
		"e.csv": edgeRows(es),
		"h.csv": "id,p_true\n" + strings.Join(hit, "\n") + "\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	cuts := []int{0, 100, 100, 450, 899, 900} // an empty part between 100 and 100
	parts := filepath.Join(dir, "edges")
	pq := filepath.Join(dir, "edges-pq")
	var names []string
	for i := 0; i+1 < len(cuts); i++ {
		sub := filepath.Join(parts, fmt.Sprintf("dt=2026-11-%02d", 20+i/2))
		os.MkdirAll(sub, 0o755)
		name := filepath.Join(sub, fmt.Sprintf("part-%05d.csv", i))
		body := edgeRows(es[cuts[i]:cuts[i+1]])
		if i == 1 {
			body = "" // a zero-byte part, as a thread with no rows leaves it
		}
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		src, dst := []any{}, []any{}
		for _, e := range es[cuts[i]:cuts[i+1]] {
			src, dst = append(src, e[0]), append(dst, e[1])
		}
		os.MkdirAll(pq, 0o755)
		writeTable(t, filepath.Join(pq, fmt.Sprintf("part-%05d.parquet", i)), arrow.PrimitiveTypes.Int64, []string{"src", "dst"}, src, dst)
	}
	os.WriteFile(filepath.Join(parts, "_SUCCESS"), nil, 0o644)
	os.WriteFile(filepath.Join(parts, ".part-00000.csv.crc"), []byte("x"), 0o644)

	run := func(out string, edges ...string) []byte {
		t.Helper()
		args := []string{"run", "--vertices", p("v.csv"), "--hitting-set", p("h.csv"), "--epsilon", "0.5", "--out", out, "--quiet"}
		for _, e := range edges {
			args = append(args, "--edges", e)
		}
		code, msg := reviewMain(args...)
		if code != 0 {
			t.Fatalf("run %v: exit %d: %s", edges, code, msg)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	want := run(p("one.csv"), p("e.csv"))
	for name, edges := range map[string][]string{
		"folder":  {parts},
		"flags":   names,
		"glob":    {filepath.Join(parts, "dt=*", "part-*.csv")},
		"parquet": {pq},
	} {
		if got := run(p(name+".csv"), edges...); string(got) != string(want) {
			t.Errorf("%s: output differs from the one-file run's", name)
		}
	}
	cfg := p("job.yaml")
	list := "edges:\n"
	for _, n := range names {
		rel, _ := filepath.Rel(dir, n)
		list += "  - " + rel + "\n"
	}
	os.WriteFile(cfg, []byte(list+"vertices: v.csv\nhitting_set: h.csv\nepsilon: 0.5\nout: cfg.csv\n"), 0o644)
	if code, msg := reviewMain("run", "--config", cfg, "--quiet"); code != 0 {
		t.Fatalf("config list: exit %d: %s", code, msg)
	}
	if got, _ := os.ReadFile(p("cfg.csv")); string(got) != string(want) {
		t.Errorf("config list: output differs from the one-file run's")
	}
}

// A bad row of a part file is reported by file and row within it, exit 3, and
// nothing is written.
func TestRunFromPartsBadRow(t *testing.T) {
	dir := reviewFiles(t, map[string]string{
		"v.csv":  "id,answer\n1,1\n2,0\n3,1\n",
		"e0.csv": "src,dst\n1,2\n",
		"e1.csv": "src,dst\n2,3\n3,7\n",
		"h.csv":  "id,p_true\n2,0.6\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, msg := reviewMain("run", "--vertices", p("v.csv"), "--edges", p("e0.csv"), "--edges", p("e1.csv"), "--hitting-set", p("h.csv"),
		"--epsilon", "1", "--out", p("m.csv"), "--quiet")
	if code != 3 || !strings.Contains(msg, p("e1.csv")+": row 2") {
		t.Errorf("exit %d, want 3 naming e1.csv row 2: %s", code, msg)
	}
	if _, err := os.Stat(p("m.csv")); err == nil {
		t.Error("an output was written")
	}
}
