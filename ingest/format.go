package ingest

import (
	"context"
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
	return 0, fileError(path, ErrUnreadable, "unsupported file extension (accepted: .parquet, .csv, .tsv)")
}

// IsCSV reports whether path is read as CSV (its extension is .csv, in any case).
func IsCSV(path string) bool {
	f, err := formatOf(path)
	return err == nil && f == formatCSV
}

// byFormat runs the CSV or the Parquet reader of a file that names vertices of vs,
// after checking that vs is usable; opts go to the Parquet reader.
func byFormat[T any](ctx context.Context, path string, cols Columns, vs *Vertices, opts []Option,
	csv func(context.Context, string, Columns, *Vertices) (T, error),
	parquet func(context.Context, string, Columns, *Vertices, []Option) (T, error)) (T, error) {
	var zero T
	if err := checkVertices(vs); err != nil {
		return zero, err
	}
	f, err := formatOf(path)
	if err != nil {
		return zero, err
	}
	if f == formatCSV {
		return csv(ctx, path, cols, vs)
	}
	return parquet(ctx, path, cols, vs, opts)
}
