package ingest

import (
	"context"
	"slices"
	"testing"
)

// --delimiter's values: one character or tab; never one encoding/csv cannot split on.
func TestParseDelimiter(t *testing.T) {
	for in, want := range map[string]rune{";": ';', "tab": '\t', `\t`: '\t', "\t": '\t', "|": '|', ",": ',', "§": '§'} {
		if got, err := ParseDelimiter(in); err != nil || got != want {
			t.Errorf("ParseDelimiter(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", ";;", `"`, "\n", "\r", "\uFFFD", "tabs"} {
		if _, err := ParseDelimiter(in); err == nil {
			t.Errorf("ParseDelimiter(%q) accepted", in)
		}
	}
}

// The same table separated by commas (.csv), semicolons (.csv under
// WithDelimiter) and tabs (.tsv, whatever the context says) reads the same.
func TestDelimitedTablesReadAlike(t *testing.T) {
	dir := t.TempDir()
	cols := DefaultColumns()
	bg := context.Background()
	want, err := ReadVertices(bg, writeFile(t, dir, "v.csv", "id,answer\n7,1\n3,0\n9,1\n"), cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		ctx        context.Context
	}{
		{"v;.csv", "id;answer\n7;1\n3;0\n9;1\n", WithDelimiter(bg, ';')},
		{"v.tsv", "id\tanswer\n7\t1\n3\t0\n9\t1\n", bg},
		{"v2.tsv", "id\tanswer\n7\t1\n3\t0\n9\t1\n", WithDelimiter(bg, ';')},
		{"V.TSV", "id\tanswer\n7\t1\n3\t0\n9\t1\n", bg},
	} {
		got, err := ReadVertices(c.ctx, writeFile(t, dir, c.name, c.text), cols)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(got.IDs.Int, want.IDs.Int) || !slices.Equal(got.Answer, want.Answer) {
			t.Errorf("%s: ids %v answers %v, want %v %v", c.name, got.IDs.Int, got.Answer, want.IDs.Int, want.Answer)
		}
	}
}
