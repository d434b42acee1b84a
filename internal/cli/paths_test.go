package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/internal/objstore"
)

// partsJob writes the path graph of testdata/path into a fresh folder, its edges as
// two part files ed/part-0.csv and ed/part-1.csv, with a 16-byte provenance key,
// a privacy profile and an id list, and runs there; it returns the folder.
func partsJob(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "ed"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"vertices.csv": "id,answer\n1,0\n2,1\n3,1\n4,0\n", "hitting.csv": "id,p_true\n1,0.7\n4,0.9\n",
		"ed/part-0.csv": "src,dst\n1,2\n2,3\n", "ed/part-1.csv": "src,dst\n3,4\n",
		"key": "0123456789abcdef", "profile.csv": "epsilon,delta\n" + ln2 + ",0\n", "ids.csv": "id\n1\n", "ids2.csv": "id\n2\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// partsRun is run over partsJob's tables, relative to its folder, then more flags.
func partsRun(more ...string) []string {
	return append([]string{"run", "-quiet", "-vertices", "vertices.csv", "-edges", "ed/part-*.csv", "-hitting-set", "hitting.csv", "-epsilon", ln2}, more...)
}

// "Fail closed", one identity for every path: an output that replaces or lands in
// a file the command reads, by a glob, a repeated table flag, a key or a privacy
// profile, is refused with exit 2 naming both flags and the path, and nothing is
// written. Before, each of these exited 0 and the input was replaced (the glob,
// the key and the profile were never compared with the outputs), or a later run
// read the output as an input (an output matching the input glob).
func TestOutputReplacingAnyInputRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		want []string // in the message
	}{
		{"run --out one of the --edges glob's files", partsRun("-out", "ed/part-0.csv"),
			[]string{"--out and --edges:", "ed/part-0.csv", "ed/part-*.csv"}},
		{"run --summary a file the --edges glob matches, not there yet", partsRun("-out", "m.csv", "-summary", "ed/part-9.csv"),
			[]string{"--summary and --edges:", "ed/part-9.csv", "ed/part-*.csv"}},
		{"run --out the glob's file spelled otherwise", partsRun("-out", "./ed/../ed/part-1.csv"),
			[]string{"--out and --edges:", "/./ed/../ed/part-1.csv is one of the files"}},
		{"release --out the file of its --mechanism glob", []string{"release", "-mechanism", "m.parq*", "-id", "1", "-out", "m.parquet"},
			[]string{"--out and --mechanism:", "m.parquet", "m.parq*"}},
		{"report --html the file of its --vertices glob", []string{"report", "-mechanism", "m.parquet", "-edges", "ed/part-*.csv", "-vertices", "vert*.csv", "-epsilon", ln2, "-html", "vertices.csv"},
			[]string{"--html and --vertices:", "vertices.csv", "vert*.csv"}},
		{"run --summary the --provenance-key", partsRun("-out", "m.csv", "-provenance-key", "key", "-summary", "key"),
			[]string{"--summary and --provenance-key:", "key"}},
		{"run --summary the --privacy-profile", []string{"run", "-quiet", "-vertices", "vertices.csv", "-edges", "ed/part-*.csv", "-hitting-set", "hitting.csv",
			"-privacy-profile", "profile.csv", "-out", "m.csv", "-summary", "profile.csv"},
			[]string{"--summary and --privacy-profile:", "profile.csv"}},
		{"query --out the second of two --ids", []string{"query", "-vertices", "vertices.csv", "-edges", "ed/part-*.csv", "-hitting-set", "hitting.csv", "-epsilon", ln2,
			"-ids", "ids.csv", "-ids", "ids2.csv", "-out", "ids2.csv"},
			[]string{"--out and --ids:", "ids2.csv"}},
		{"release --out the second of two --ids", []string{"release", "-mechanism", "m.parquet", "-ids", "ids.csv", "-ids", "ids2.csv", "-out", "ids2.csv"},
			[]string{"--out and --ids:", "ids2.csv"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := partsJob(t)
			p := func(rel string) string { return filepath.Join(dir, rel) }
			// The mechanism the read commands take, by absolute paths (no Chdir: parallel).
			if code, _, stderr := graphdp(t, "run", "-quiet", "-vertices", p("vertices.csv"), "-edges", p("ed/part-*.csv"),
				"-hitting-set", p("hitting.csv"), "-epsilon", ln2, "-out", p("m.parquet")); code != 0 {
				t.Fatalf("run: exit %d: %s", code, stderr)
			}
			args := absArgs(c.args, dir)
			before := snapshot(t, dir)
			code, _, stderr := graphdp(t, args...)
			if code != 2 {
				t.Errorf("exit %d, want 2: %s", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("the message does not say %q:\n%s", w, stderr)
				}
			}
			assertSame(t, dir, before)
		})
	}
}

// absArgs makes the path values of args (those naming a file of partsJob's folder,
// or a glob or path below it) absolute under dir, as a command run in dir sees them.
func absArgs(args []string, dir string) []string {
	out := append([]string(nil), args...)
	for i := 1; i < len(out); i++ {
		switch out[i-1] {
		case "-vertices", "-edges", "-hitting-set", "-out", "-summary", "-mechanism", "-html", "-ids", "-provenance-key", "-privacy-profile":
			out[i] = dir + string(filepath.Separator) + out[i] // as spelled, not cleaned
		}
	}
	return out
}

// The provenance key named by $GRAPHDP_PROVENANCE_KEY_FILE is an input too.
func TestSummaryOverProvenanceKeyFromEnvRefused(t *testing.T) {
	dir := partsJob(t)
	t.Chdir(dir)
	t.Setenv("GRAPHDP_PROVENANCE_KEY_FILE", filepath.Join(dir, "key"))
	before := snapshot(t, dir)
	code, _, stderr := graphdp(t, partsRun("-out", "m.csv", "-summary", "key")...)
	if code != 2 || !strings.Contains(stderr, "summary and $GRAPHDP_PROVENANCE_KEY_FILE:") {
		t.Errorf("exit %d, want 2 naming --summary and $GRAPHDP_PROVENANCE_KEY_FILE: %s", code, stderr)
	}
	assertSame(t, dir, before)
}

// With the input s3://warehouse/in/edges.csv, every output that the S3 client
// would send as that key, or that the reader of the input glob would read, is
// refused with exit 2, and the object is left as it was; spellings the store
// would read otherwise (a query, a fragment, a capital bucket) are refused too.
// Before, each of these exited 0 and replaced the edges object. A real S3
// server (objtest); the control run writes to another key and exits 0.
func TestObjectOutputReplacingInputRefused(t *testing.T) {
	s3Env(t)
	const edges = "src,dst\n1,2\n2,3\n3,4\n"
	putObject(t, "s3://warehouse/in/vertices.csv", "id,answer\n1,0\n2,1\n3,1\n4,0\n")
	putObject(t, "s3://warehouse/in/hitting.csv", "id,p_true\n1,0.7\n4,0.9\n")
	putObject(t, "s3://warehouse/in/edges.csv", edges)
	job := func(edgesSpec string, more ...string) []string {
		return append([]string{"run", "-quiet", "-vertices", "s3://warehouse/in/vertices.csv", "-edges", edgesSpec,
			"-hitting-set", "s3://warehouse/in/hitting.csv", "-epsilon", ln2}, more...)
	}
	for _, c := range []struct {
		edges, out string
		want       string
	}{
		{"s3://warehouse/in/edges.csv", "s3://warehouse/in/e%64ges.csv", "--out and --edges: s3://warehouse/in/e%64ges.csv and s3://warehouse/in/edges.csv are one file"},
		{"s3://warehouse/in/edges.csv", "s3://warehouse/in/edges.csv?v=.csv", "--out: s3://warehouse/in/edges.csv?v=.csv: has a query"},
		{"s3://warehouse/in/edges.csv", "s3://warehouse/in/edges.csv#x.parquet", "--out: s3://warehouse/in/edges.csv#x.parquet: has a fragment"},
		{"s3://warehouse/in/edges.csv", "s3://Warehouse/in/edges.csv", "--out: s3://Warehouse/in/edges.csv: bucket \"Warehouse\" has capitals"},
		{"s3://warehouse/in/edges.csv", "s3://warehouse/in/./edges.csv", "--out: s3://warehouse/in/./edges.csv: key"},
		{"s3://warehouse/in/e*.csv", "s3://warehouse/in/edges.csv", "--out and --edges: s3://warehouse/in/edges.csv is one of the files the input glob s3://warehouse/in/e*.csv"},
		{"s3://warehouse/in/e*.csv", "s3://warehouse/in/edges-new.csv", "--out and --edges: s3://warehouse/in/edges-new.csv is one of the files the input glob"},
		{"s3://warehouse/in/edges.csv", "s3://warehouse/in/edges.csv/m.csv", "--out and --edges: s3://warehouse/in/edges.csv/m.csv lies in the input folder"},
	} {
		code, msg := reviewMain(job(c.edges, "-out", c.out)...)
		if code != 2 || !strings.Contains(msg, c.want) {
			t.Errorf("--edges %s --out %s: exit %d, want 2 saying %q:\n%s", c.edges, c.out, code, c.want, msg)
		}
		if got, err := getObject(t, "s3://warehouse/in/edges.csv"); err != nil || got != edges {
			t.Fatalf("--out %s: the edges object is now %q (%v)", c.out, got, err)
		}
	}
	if _, err := getObject(t, "s3://warehouse/in/edges-new.csv"); !errors.Is(err, objstore.ErrNotFound) {
		t.Errorf("an output matching the input glob was written (%v)", err)
	}
	if code, msg := reviewMain(job("s3://warehouse/in/e*.csv", "-out", "s3://warehouse/out/m.csv")...); code != 0 {
		t.Fatalf("control run: exit %d: %s", code, msg)
	}
}
