package objstore

import (
	"strings"
	"testing"
)

// Parse decodes a key as net/url does and refuses what a store would read
// otherwise or ignore; String spells a URL so that Parse gives it back.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want URL
		err  string
	}{
		{raw: "s3://b/in/e%64ges.csv", want: URL{"s3", "b", "in/edges.csv"}},
		{raw: "gs://b/in/", want: URL{"gs", "b", "in/"}},
		{raw: "s3://b", want: URL{"s3", "b", ""}},
		{raw: "s3://b/a%3Fb%23c%25.csv", want: URL{"s3", "b", "a?b#c%.csv"}},
		{raw: "s3://b/a.csv?v=1", err: "query"},
		{raw: "s3://b/a.csv#x", err: "fragment"},
		{raw: "s3://Bk/a.csv", err: "lower case (write s3://bk/a.csv)"},
		{raw: "s3://b:1/a.csv", err: "port"},
		{raw: "s3://b/a/../c.csv", err: "segment"},
		{raw: "s3:///a.csv", err: "want s3://bucket/object"},
		{raw: "http://b/a.csv", err: "not an s3:// or gs://"},
	} {
		got, err := Parse(c.raw)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Parse(%q) = %v, %v; want an error saying %q", c.raw, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("Parse(%q) = %v, %v; want %v", c.raw, got, err, c.want)
		case c.err == "":
			if back, err := Parse(got.String()); err != nil || back != got {
				t.Errorf("Parse(%q.String() = %q) = %v, %v", c.raw, got.String(), back, err)
			}
		}
	}
}
