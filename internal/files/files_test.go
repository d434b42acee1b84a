package files

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every way of naming one file is caught; different files, input pairs and
// scheme paths are not. Expected values: the file system the test builds.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a.csv", "b.csv"} {
		if err := os.WriteFile(n, []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(dir, "a.csv"), "link.csv"))
	must(os.Link("a.csv", "hard.csv"))
	must(os.Symlink("sub", "subl")) // a folder reached through a link
	abs := func(n string) string { return filepath.Join(dir, n) }

	cases := []struct {
		name  string
		files []File
		want  []string // the keys of each problem, "x and y"
	}{
		{"same string", []File{In("edges", "a.csv"), Out("out", "a.csv")}, []string{"out and edges"}},
		{"relative and absolute", []File{In("ledger", "a.csv"), Out("out", abs("a.csv"))}, []string{"out and ledger"}},
		{"dot segments", []File{In("edges", "./sub/../a.csv"), Out("summary", "a.csv")}, []string{"summary and edges"}},
		{"input through a symlink", []File{In("edges", "link.csv"), Out("summary", "a.csv")}, []string{"summary and edges"}},
		{"output through a symlink", []File{In("edges", "a.csv"), Out("summary", "link.csv")}, []string{"summary and edges"}},
		{"hard link", []File{In("vertices", "hard.csv"), Out("out", "a.csv")}, []string{"out and vertices"}},
		{"two new outputs through a linked folder", []File{Out("out", "sub/new.csv"), Out("summary", abs("subl/new.csv"))}, []string{"out and summary"}},
		{"two outputs", []File{Out("out", "a.csv"), Out("html", "hard.csv")}, []string{"out and html"}},
		{"every pair", []File{In("edges", "a.csv"), In("vertices", "link.csv"), Out("out", "hard.csv")}, []string{"out and edges", "out and vertices"}},
		{"inputs may be one file", []File{In("edges", "a.csv"), In("vertices", "link.csv")}, nil},
		{"different files", []File{In("edges", "a.csv"), Out("out", "b.csv"), Out("summary", "sub/a.csv")}, nil},
		{"new and existing", []File{In("edges", "a.csv"), Out("out", "sub/a.csv")}, nil},
		{"one object", []File{In("edges", "gs://b/a.csv"), Out("out", "gs://b/%61.csv"), Out("summary", ""), In("mechanism", "")}, []string{"out and edges"}},
		{"two objects", []File{In("edges", "s3://b/a.csv"), Out("out", "s3://b/b.csv"), Out("summary", "s3://c/a.csv")}, nil},
		{"a file and an object", []File{In("edges", "a.csv"), Out("out", "gs://b/a.csv")}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			probs := Check(c.files...)
			var got []string
			for _, p := range probs {
				head, _, _ := strings.Cut(p, ":")
				got = append(got, head)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("problems %q, want keys %q", probs, c.want)
			}
			for _, p := range probs {
				if !strings.Contains(p, dir) && !strings.Contains(p, ".csv") || !strings.Contains(p, "overwrite") {
					t.Errorf("problem %q does not say which path and why", p)
				}
			}
		})
	}
}

// CheckAdded reports only pairs with an added file; the message names both paths
// when they are spelled differently.
func TestCheckAdded(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.csv")
	if err := os.WriteFile(a, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	checked := []File{In("edges", a), Out("out", a)} // a known pair: not reported again
	other := filepath.Join(dir, "l.csv")
	if err := os.Symlink(a, other); err != nil {
		t.Fatal(err)
	}
	got := CheckAdded(checked, In("config", other))
	want := "out and config: " // the output first
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Fatalf("got %q, want one problem starting %q", got, want)
	}
	if !strings.Contains(got[0], a) || !strings.Contains(got[0], other) {
		t.Errorf("%q does not name %s and %s", got[0], a, other)
	}
}
