package sink

import (
	"errors"
	"strings"
	"testing"
)

func TestFormatOf(t *testing.T) {
	for _, tc := range []struct {
		path string
		want Format
	}{
		{"out.parquet", Parquet},
		{"/a/b.c/OUT.PARQUET", Parquet},
		{"x.arrow", ArrowIPC},
		{"x.Arrow", ArrowIPC},
		{"x.feather", ArrowIPC},
		{"x.FEATHER", ArrowIPC},
		{"x.csv", CSV},
		{"dir.parquet/x.CSV", CSV},
	} {
		got, err := FormatOf(tc.path)
		if err != nil || got != tc.want {
			t.Errorf("FormatOf(%q) = %v, %v; want %v", tc.path, got, err, tc.want)
		}
	}
	for _, path := range []string{"out.tsv", "out", "out.parquet.gz", "parquet", ".csv.bak"} {
		_, err := FormatOf(path)
		var ufe *UnknownFormatError
		if !errors.As(err, &ufe) || ufe.Path != path {
			t.Errorf("FormatOf(%q) err = %v, want *UnknownFormatError for the path", path, err)
			continue
		}
		for _, ext := range []string{".parquet", ".arrow", ".feather", ".csv", path} {
			if !strings.Contains(err.Error(), ext) {
				t.Errorf("FormatOf(%q) error %q does not mention %s", path, err, ext)
			}
		}
	}
}
