package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
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

// CSV ids are kept as written (never 007 → 7 or +9 → 9, nor 1 and 01 taken as
// duplicates): a column with one non-canonical integer is a column of strings,
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

// ε from about 709.44 to 709.78 runs, though math.Exp overflows there on amd64 (a
// check by math.Exp would say "must be below 709.783 … got 709.44").
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

// rawControl reports the first control character of s other than newline and tab
// (ESC starts terminal escape sequences; CR rewrites a line), or -1.
func rawControl(s string) int {
	for i, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return i
		}
	}
	return -1
}

// Ids from the data never reach stderr raw (escape sequences on the operator's
// terminal, forged lines), and no message prints what a release protects (a
// rejection the datasets' answers; the deterministic warning, on stderr and in the
// summary, their p_one, the true answer when p_true = 1). Every message that
// names a dataset here is made to, with ids that hold ESC, CR, a newline and a BEL:
// no control character may reach stderr or stdout, no message may state an answer,
// and the summary lists deterministic datasets by id, reason and privacy only.
func TestMessagesEscapeDataAndKeepAnswers(t *testing.T) {
	const (
		red  = "\x1b[31mred\x1b[0m"
		cr   = "x\rOK"
		nl   = "fake\ngraphdp run: ok"
		bell = "b\a"
	)
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` } // a CSV field
	// A path red – cr – nl – bell (answers 1, 0, 0, 1) and an isolated dataset iso
	// (answer 1: deterministic, p_one 1 = its answer).
	dir := writeFiles(t, map[string]string{
		"v.csv":    "id,answer\n" + q(red) + ",1\n" + q(cr) + ",0\n" + q(nl) + ",0\n" + q(bell) + ",1\niso,1\n",
		"e.csv":    "src,dst\n" + q(red) + "," + q(cr) + "\n" + q(cr) + "," + q(nl) + "\n" + q(nl) + "," + q(bell) + "\n",
		"h.csv":    "id,p_true\n" + q(cr) + ",0.6\n" + q(nl) + ",0.6\n",
		"hnot.csv": "id,p_true\n" + q(cr) + ",0.6\n",                     // misses nl – bell
		"hinf.csv": "id,p_true\n" + q(cr) + ",0.99\n" + q(nl) + ",0.6\n", // too far apart
		"dup.csv":  "id,answer\n" + q(red) + ",1\n" + q(red) + ",0\n",
		"unk.csv":  "src,dst\n" + q(red) + "," + q("\x1b]0;title\a") + "\n",
		"col.csv":  "\x1b[2Jid,answer\n1,1\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	run := func(hit string, extra ...string) []string {
		return append([]string{"run", "-vertices", p("v.csv"), "-edges", p("e.csv"), "-hitting-set", p(hit), "-epsilon", "1", "-out", p("m.csv")}, extra...)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string // a line the message must hold, with the ids escaped
		out  string // a line stdout must hold, with the ids escaped
	}{
		{"not hitting", run("hnot.csv"), 3, `not a boundary-hitting set: an edge with neither end in it`, ""},
		{"infeasible", run("hinf.csv", "-json"), 3, `--json prints them on stdout (private)`, `"fake\ngraphdp run: ok",`},
		{"duplicate", []string{"run", "-vertices", p("dup.csv"), "-edges", p("e.csv"), "-hitting-set", p("h.csv"), "-epsilon", "1", "-out", p("m.csv")}, 3,
			`value "\x1b[31mred\x1b[0m": duplicate id "\x1b[31mred\x1b[0m" (first at row 1)`, ""},
		{"unknown", []string{"run", "-vertices", p("v.csv"), "-edges", p("unk.csv"), "-hitting-set", p("h.csv"), "-epsilon", "1", "-out", p("m.csv")}, 3,
			`value "\x1b]0;title\a": not a vertex id`, ""},
		{"missing column", []string{"run", "-vertices", p("col.csv"), "-edges", p("e.csv"), "-hitting-set", p("h.csv"), "-epsilon", "1", "-out", p("m.csv")}, 3,
			`missing (columns present: "\x1b[2Jid", answer)`, ""},
		{"deterministic", run("h.csv", "-summary", p("s.json"), "-allow-non-private"), 0, `datasets: iso (no neighbours, NOT private)`, ""},
		{"not private", run("h.csv"), 3, `datasets: iso`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := graphdp(t, c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) || !strings.Contains(stdout, c.out) {
				t.Errorf("exit %d, stderr:\n%s\nstdout:\n%s\nwant exit %d, %s and on stdout %s", code, stderr, stdout, c.code, c.want, c.out)
			}
			for name, s := range map[string]string{"stdout": stdout, "stderr": stderr} {
				if i := rawControl(s); i >= 0 {
					t.Errorf("%s holds a raw control character %q at %d:\n%q", name, s[i], i, s)
				}
			}
			if strings.Contains(stderr, "(answer") || strings.Contains(stderr, "p_one 1") {
				t.Errorf("stderr states an answer or a deterministic p_one:\n%s", stderr)
			}
		})
	}
	// The summary lists the deterministic dataset by id, reason and privacy: no p_one.
	data, err := os.ReadFile(p("s.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Deterministic struct {
			First []map[string]any `json:"first"`
		} `json:"deterministic"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if f := s.Deterministic.First; len(f) != 1 || len(f[0]) != 3 || f[0]["id"] != "iso" || f[0]["reason"] != "no neighbours" || f[0]["private"] != false {
		t.Errorf("summary's deterministic datasets: %v; want iso with its reason and privacy only (no p_one)", f)
	}
	// report and verify name datasets too (deterministic box, least accurate, edges).
	for _, args := range [][]string{
		{"report", "-mechanism", p("m.csv"), "-vertices", p("v.csv"), "-edges", p("e.csv"), "-epsilon", "1"},
		{"verify", "-mechanism", p("m.csv"), "-vertices", p("v.csv"), "-edges", p("e.csv"), "-hitting-set", p("h.csv"), "-epsilon", "1"},
	} {
		code, stdout, stderr := graphdp(t, args...)
		if code != 0 || !strings.Contains(stdout, `"x\rOK"`) {
			t.Errorf("%s: exit %d, stdout lacks the escaped id:\n%s%s", args[0], code, stdout, stderr)
		}
		if i := rawControl(stdout + stderr); i >= 0 {
			t.Errorf("%s prints a raw control character:\n%q", args[0], stdout+stderr)
		}
	}
}

// End to end: a 50 MB CSV row of commas in the edges file is refused with exit 3
// naming the file and the row (read whole it would take 3.1 GB). TestCSVRowBounded
// bounds what the reader allocates.
func TestCSVHugeRowRefused(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"v.csv": "id,answer\n1,0\n2,1\n",
		"e.csv": "src,dst\n1,2\n" + strings.Repeat(",", 50<<20) + "\n",
		"h.csv": "id,p_true\n1,0.6\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	code, _, stderr := graphdp(t, "run", "-quiet", "-vertices", p("v.csv"), "-edges", p("e.csv"), "-hitting-set", p("h.csv"), "-epsilon", "1", "-out", p("m.csv"))
	want := p("e.csv") + ": row 2: longer than 65536 bytes (64 KiB), the most a CSV row may hold"
	if code != 3 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %q; want 3 and %q", code, stderr, want)
	}
	if _, err := os.Stat(p("m.csv")); !os.IsNotExist(err) {
		t.Errorf("an output was written: %v", err)
	}
}

// End to end: run's Parquet output carries page checksums,
// and a byte flipped inside a page of it (the last p_one page) is refused by the
// commands that read it, exit 3 naming the file and the column, instead of being
// read as another probability.
func TestParquetPageFlipRefused(t *testing.T) {
	dir := t.TempDir()
	mech := filepath.Join(dir, "m.parquet")
	mustRun(t, 0, "run", "-quiet", "-config", "../../configs/example.yaml", "-out", mech, "-summary", filepath.Join(dir, "s.json"))
	data, err := os.ReadFile(mech)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	col := rd.MetaData().Schema.ColumnIndexByName("p_one")
	g := rd.NumRowGroups() - 1
	cc, err := rd.MetaData().RowGroup(g).ColumnChunk(col)
	if err != nil {
		t.Fatal(err)
	}
	end := cc.DataPageOffset() + cc.TotalCompressedSize()
	rd.Close()
	data[end-1] ^= 0x01 // the low bit of the last p_one's mantissa (a snappy literal)
	if err := os.WriteFile(mech, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"verify", "-config", "../../configs/example.yaml", "-mechanism", mech},
		{"report", "-config", "../../configs/example.yaml", "-mechanism", mech},
	} {
		code, _, stderr := graphdp(t, args...)
		want := mech + `: column "p_one": row group ` + strconv.Itoa(g) + ", page at byte "
		if code != 3 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "checksum mismatch") || !strings.Contains(stderr, "the file is damaged") {
			t.Errorf("%s: exit %d, %q; want 3 and %q … checksum mismatch", args[0], code, stderr, want)
		}
	}
}
