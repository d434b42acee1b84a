package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every spelling of the object an input names is that object, as
// objstore.Parse (the reader's and the writer's parse) reads it; spellings the
// store would read otherwise or in part are refused, naming the key and the
// path. Expected values: how net/url decodes each URL and what S3 and GCS do
// with its parts (objstore/url.go).
func TestObjectSpellings(t *testing.T) {
	const in = "s3://b/in/edges.csv"
	for _, c := range []struct {
		out  string
		want string // "" none; else a word of the one problem
	}{
		{"s3://b/in/e%64ges.csv", "one file"},
		{"s3://b/in/edges%2Ecsv", "one file"},
		{"s3://b/in%2Fedges.csv", "one file"},
		{"s3://b/in/edges.csv?v=.csv", "query"},
		{"s3://b/in/edges.csv?", "query"},
		{"s3://b/in/edges.csv#x.parquet", "fragment"},
		{"s3://b/in/edges.csv#", "fragment"},
		{"s3://B/in/edges.csv", "lower case"},
		{"s3://b:443/in/edges.csv", "a port"},
		{"s3://u@b/in/edges.csv", "a user"},
		{"s3://b/in//edges.csv", "segment"},
		{"s3://b/in/./edges.csv", "segment"},
		{"s3://b/x/../in/edges.csv", "segment"},
		{"s3://b//in/edges.csv", "segment"},
		{"S3://b/in/edges.csv", "only s3:// and gs://"},
		{"s3://b/in/edges.csv/m.parquet", "lies in the input folder"},
		{"s3://b/in/edges.csv.parquet", ""},
		{"gs://b/in/edges.csv", ""},
		{"s3://c/in/edges.csv", ""},
		{"s3://b/in/%45dges.csv", ""}, // "Edges.csv": keys are case-sensitive
	} {
		probs := Check(In("edges", in), Out("out", c.out))
		switch {
		case c.want == "" && len(probs) != 0:
			t.Errorf("out %s: problems %q, want none", c.out, probs)
		case c.want == "":
		case len(probs) != 1 || !strings.Contains(probs[0], c.want) || !strings.HasPrefix(probs[0], "out") || !strings.Contains(probs[0], c.out):
			t.Errorf("out %s: problems %q, want one naming out and the path, saying %q", c.out, probs, c.want)
		case c.want == "one file" && !strings.HasPrefix(probs[0], "out and edges: "):
			t.Errorf("out %s: %q does not name both keys", c.out, probs[0])
		}
	}
	// An input spelled so is refused as well: the reader would read another object.
	if probs := Check(In("edges", "s3://b/in/edges.csv?v=1"), Out("out", "s3://b/m.parquet")); len(probs) != 1 || !strings.HasPrefix(probs[0], "edges: ") {
		t.Errorf("input with a query: %q, want it refused", probs)
	}
}

// A glob input names the files it matches now (by inode, however the output is
// spelled) and every path it would match at the next run. Expected values: the
// tree the test builds and filepath.Match.
func TestGlobInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, d := range []string{"ed", "other"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"ed/part-0.csv", "ed/part-1.csv", "ed/notes.txt"} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Link("ed/part-1.csv", "other/hard.csv"))
	must(os.Symlink(filepath.Join(dir, "ed"), "alias"))
	for _, c := range []struct {
		in, out string
		want    bool
	}{
		{"ed/part-*.csv", "ed/part-0.csv", true},                        // a file it reads
		{"ed/part-*.csv", "./ed/../ed/part-1.csv", true},                // spelled otherwise
		{"ed/part-*.csv", "other/hard.csv", true},                       // a hard link of one
		{"ed/part-*.csv", "ed/part-9.csv", true},                        // not there yet: read next time
		{"ed/part-*.csv", filepath.Join(dir, "alias/part-7.csv"), true}, // through a linked folder
		{"alias/part-*.csv", "ed/part-8.csv", true},
		{"e?/part-[0-9].csv", "ed/part-5.csv", true},
		{"*/part-0.csv", "other/part-0.csv", true},
		{"ed/part-*.csv", "ed/notes.txt", false},
		{"ed/part-*.csv", "ed/part-0.parquet", false},
		{"ed/part-*.csv", "part-0.csv", false},
		{"ed/*.csv", "ed/sub/m.csv", false}, // '*' does not cross a '/'
	} {
		probs := Check(In("edges", c.in), Out("out", c.out))
		got := len(probs) == 1 && strings.HasPrefix(probs[0], "out and edges: "+c.out+" is one of the files the input glob "+c.in)
		if got != c.want || (!c.want && len(probs) != 0) {
			t.Errorf("edges %s, out %s: problems %q, want refused %v", c.in, c.out, probs, c.want)
		}
	}
	// Two outputs are compared as spelled: a '*' in an output is a character.
	if probs := Check(Out("out", "ed/*.csv"), Out("summary", "ed/part-0.csv")); len(probs) != 0 {
		t.Errorf("outputs taken as globs: %q", probs)
	}
}

// An object glob names every key it matches (the reader's objstore.Match), as
// objstore.Parse decodes both.
func TestObjectGlobInput(t *testing.T) {
	for _, c := range []struct {
		out  string
		want bool
	}{
		{"s3://b/in/part-3.csv", true},
		{"s3://b/in/p%61rt-3.csv", true},
		{"s3://b/in/part-*.csv", true},
		{"s3://b/in/x/part-3.csv", false},
		{"s3://b/in/part-3.parquet", false},
		{"gs://b/in/part-3.csv", false},
		{"s3://c/in/part-3.csv", false},
	} {
		probs := Check(In("edges", "s3://b/in/part-*.csv"), Out("out", c.out))
		got := len(probs) == 1 && strings.Contains(probs[0], "is one of the files the input glob s3://b/in/part-*.csv")
		if got != c.want || (!c.want && len(probs) != 0) {
			t.Errorf("out %s: problems %q, want refused %v", c.out, probs, c.want)
		}
	}
}

// A glob whose wildcard the path's cleaning removes ("d*/../e.csv" is e.csv) names
// that one file, and does not panic.
func TestGlobCleanedToAFile(t *testing.T) {
	dir := t.TempDir()
	e := filepath.Join(dir, "e.csv")
	if err := os.WriteFile(e, []byte("src,dst\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	probs := Check(In("edges", dir+"/d*/../e.csv"), Out("out", e))
	if len(probs) != 1 || !strings.Contains(probs[0], "out and edges") {
		t.Errorf("%q", probs)
	}
}
