package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Where people go wrong with their tables: a column whose name differs
// only in case or by a typo gets "did you mean --id-column ID?" (the config key
// where the config file named it), a header that holds semicolons or
// tabs names the --delimiter, and --delimiter (config key delimiter) or a .tsv name
// reads the file to the same mechanism as its comma-separated twin.
func TestInputHints(t *testing.T) {
	dir := reviewFiles(t, map[string]string{
		"v.csv":     "id,answer\n1,0\n2,1\n3,1\n4,0\n",
		"e.csv":     "src,dst\n1,2\n2,3\n3,4\n",
		"h.csv":     "id,p_true\n1,0.7\n4,0.9\n",
		"vU.csv":    "ID,ANSWER\n1,0\n2,1\n3,1\n4,0\n",
		"v;.csv":    "id;answer\n1;0\n2;1\n3;1\n4;0\n",
		"e;.csv":    "src;dst\n1;2\n2;3\n3;4\n",
		"h;.csv":    "id;p_true\n1;0.7\n4;0.9\n",
		"vt.csv":    "id\tanswer\n1\t0\n2\t1\n3\t1\n4\t0\n",
		"et.csv":    "src\tdst\n1\t2\n2\t3\n3\t4\n",
		"ht.csv":    "id\tp_true\n1\t0.7\n4\t0.9\n",
		"v.tsv":     "id\tanswer\n1\t0\n2\t1\n3\t1\n4\t0\n",
		"wU.csv":    "id,Weight\n1,1\n2,2\n",
		"vD.csv":    "dataset_id,answer\n1,0\n2,1\n3,1\n4,0\n",
		"typo.yaml": "vertices: vD.csv\nedges: e.csv\nhitting_set: h.csv\nepsilon: 1\ncolumns:\n  id: datset_id\n",
		"semi.yaml": "vertices: v;.csv\nedges: e;.csv\nhitting_set: h;.csv\nepsilon: " + ln2 + "\ndelimiter: \";\"\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	run := func(v, e, h, out string, more ...string) []string {
		return append([]string{"run", "--quiet", "--vertices", p(v), "--edges", p(e), "--hitting-set", p(h), "--epsilon", ln2, "--out", p(out)}, more...)
	}
	for _, c := range []struct {
		name string
		args []string
		hint string
	}{
		{"case", run("vU.csv", "e.csv", "h.csv", "m.csv"), `column "id": missing (columns present: ID, ANSWER); did you mean --id-column ID?`},
		{"typo", run("vD.csv", "e.csv", "h.csv", "m.csv", "--id-column", "datset_id"),
			`column "datset_id": missing (columns present: dataset_id, answer); did you mean --id-column dataset_id?`},
		{"typo in the config", []string{"run", "--quiet", "--config", p("typo.yaml"), "--out", p("m.csv")},
			`did you mean columns.id: dataset_id (in the config file)?`},
		{"semicolons", run("v;.csv", "e.csv", "h.csv", "m.csv"), "missing (columns present: id;answer); this looks ';'-separated: use --delimiter ';'"},
		{"tabs", run("vt.csv", "e.csv", "h.csv", "m.csv"), "this looks tab-separated: use --delimiter tab"},
		{"weights case", []string{"optimize", "--quiet", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--epsilon", ln2, "--out", p("o.csv"),
			"--weights", p("wU.csv")}, `column "weight": missing (columns present: id, Weight); did you mean --weight-column Weight?`},
		{"verify case", []string{"verify", "--vertices", p("v.csv"), "--edges", p("e.csv"), "--mechanism", p("vU.csv"), "--epsilon", ln2},
			`did you mean --id-column ID?`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := graphdp(t, c.args...)
			if code != 3 || !strings.Contains(stderr, c.hint) {
				t.Errorf("exit %d, want 3 with %q:\n%s", code, c.hint, stderr)
			}
		})
	}

	// Read with the right delimiter, each writes the comma files' mechanism.
	if code, _, stderr := graphdp(t, run("v.csv", "e.csv", "h.csv", "m.csv")...); code != 0 {
		t.Fatalf("the comma-separated job: exit %d: %s", code, stderr)
	}
	want, _ := os.ReadFile(p("m.csv"))
	for _, c := range []struct {
		name, out string
		args      []string
	}{
		{"--delimiter ';'", "m1.csv", run("v;.csv", "e;.csv", "h;.csv", "m1.csv", "--delimiter", ";")},
		{"--delimiter tab", "m2.csv", run("vt.csv", "et.csv", "ht.csv", "m2.csv", "--delimiter", "tab")},
		{".tsv beside .csv", "m3.csv", run("v.tsv", "e.csv", "h.csv", "m3.csv")},
		{"config delimiter", "m4.csv", []string{"run", "--quiet", "--config", p("semi.yaml"), "--out", p("m4.csv")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := graphdp(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got, _ := os.ReadFile(p(c.out)); !bytes.Equal(got, want) {
				t.Errorf("the mechanism differs from the comma-separated job's:\n%s\nwant\n%s", got, want)
			}
		})
	}
	code, _, stderr := graphdp(t, run("v.csv", "e.csv", "h.csv", "m5.csv", "--delimiter", "::")...)
	if code != 2 || !strings.Contains(stderr, `--delimiter: "::" is not one character`) {
		t.Errorf("a bad --delimiter: exit %d: %s", code, stderr)
	}
}
