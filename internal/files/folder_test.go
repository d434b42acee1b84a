package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An output inside an input folder (or a folder below it, or reached through a
// symbolic link) is refused; one beside the folder, or named like it, is not;
// input pairs are never compared. Expected values: the tree the test builds.
func TestOutputInInputFolder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, d := range []string{"edges/dt=1", "edges2"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "edges"), "alias"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out  string
		want bool
	}{
		{"edges/m.parquet", true},
		{"edges/dt=1/m.parquet", true},
		{"alias/m.parquet", true},
		{"./edges/../edges/m.csv", true},
		{"edges2/m.parquet", false},
		{"m.parquet", false},
		{"edges.parquet", false},
	} {
		probs := Check(In("edges", "edges"), Out("out", c.out))
		got := len(probs) == 1 && strings.Contains(probs[0], "lies in the input folder edges")
		if got != c.want || (!c.want && len(probs) != 0) {
			t.Errorf("out %s: problems %q, want refused %v", c.out, probs, c.want)
		}
	}
	if probs := Check(In("edges", "edges"), In("vertices", "edges/v.csv")); len(probs) != 0 {
		t.Errorf("two inputs compared: %q", probs)
	}
}

// An object-store folder (a URL ending in "/", as README's nightly job gives its
// part files) refuses an output below it, and only below it.
func TestOutputInObjectFolder(t *testing.T) {
	for _, c := range []struct {
		out  string
		want bool
	}{
		{"s3://w/edges/m.parquet", true},
		{"s3://w/edges/dt=1/m.parquet", true},
		{"s3://w/%65dges/m.csv", true},
		{"s3://w/edges2/m.parquet", false},
		{"s3://w/edges.parquet", false},
		{"gs://w/edges/m.parquet", false},
	} {
		probs := Check(In("edges", "s3://w/edges/"), Out("out", c.out))
		got := len(probs) == 1 && strings.Contains(probs[0], "lies in the input folder s3://w/edges/")
		if got != c.want || (!c.want && len(probs) != 0) {
			t.Errorf("out %s: problems %q, want refused %v", c.out, probs, c.want)
		}
	}
}
