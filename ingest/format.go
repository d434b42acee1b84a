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
	return 0, fileError(path, ErrPath, "unsupported file extension (accepted: .parquet, .csv, .tsv)")
}

// IsCSV reports whether path is read as CSV (its extension is .csv, in any case).
func IsCSV(path string) bool {
	f, err := formatOf(path)
	return err == nil && f == formatCSV
}

// byFormat reads the table spec names (one file or many, parts.go) whose ids are
// vertices of vs, after checking that vs is usable: each file with the CSV or the
// Parquet reader (opts go to the latter), joined in read order. It returns the files
// too, for checks across them (a repeated id names both files).
func byFormat[T part](ctx context.Context, spec string, cols Columns, vs *Vertices, opts []Option,
	csv func(context.Context, string, Columns, *Vertices) (T, error),
	parquet func(context.Context, string, Columns, *Vertices, []Option) (T, error),
	join func(spec string, parts []T, fingerprint string) T) (T, *partList, error) {
	var zero T
	if err := checkVertices(vs); err != nil {
		return zero, nil, err
	}
	p, err := openParts(ctx, spec, opts)
	if err != nil {
		return zero, nil, err
	}
	if p.single() {
		var t T
		if p.format == formatCSV {
			t, err = csv(ctx, p.files[0], cols, vs)
		} else {
			t, err = parquet(ctx, p.files[0], cols, vs, opts)
		}
		p.starts = []int64{0}
		return t, p, err
	}
	parts := make([]T, len(p.files))
	sums := make([]string, len(p.files))
	var rows int64
	for i, f := range p.files {
		p.starts = append(p.starts, rows)
		if p.empty[i] {
			sums[i] = emptySum
			continue
		}
		if p.format == formatCSV {
			parts[i], err = csv(ctx, f, cols, vs)
		} else {
			parts[i], err = parquet(ctx, f, cols, vs, opts)
		}
		if err != nil {
			return zero, nil, err
		}
		rows += parts[i].partRows()
		sums[i] = parts[i].partSum()
	}
	return join(spec, parts, joinFingerprints(sums)), p, nil
}

// part is what byFormat reads of one file of a table.
type part interface {
	partRows() int64 // its rows
	partSum() string // its fingerprint
}
