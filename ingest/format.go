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

// IsCSV reports whether path is read as CSV (its extension is .csv, in any case).
func IsCSV(path string) bool {
	f, err := formatOf(path)
	return err == nil && f == formatCSV
}
