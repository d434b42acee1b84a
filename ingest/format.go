package ingest

import (
	"path/filepath"
	"strings"
)

// format is a supported input file format, chosen by extension.
type format int

const (
	formatParquet format = iota
	formatCSV
)

// formatOf picks the reader for path by its extension (case-insensitive).
func formatOf(path string) (format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet":
		return formatParquet, nil
	case ".csv", ".tsv":
		return formatCSV, nil
	}
	return 0, fileError(path, ErrPath, "unsupported file extension (accepted: .parquet, .csv, .tsv)")
}

// streamed reports whether an edges table in format f is streamed, a unit at a
// time, every file's columns checked before any row is read (OpenEdges): a format
// whose files say their rows and types before they are read (Parquet's footers).
// Any other is read whole.
func streamed(f format) bool { return f == formatParquet }

// IsCSV reports whether path is read as CSV (its extension is .csv, in any case).
func IsCSV(path string) bool {
	f, err := formatOf(path)
	return err == nil && f == formatCSV
}
