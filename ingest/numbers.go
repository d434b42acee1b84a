package ingest

import (
	"context"
	"math"
)

// NumberColumns is a small table of two number columns in file order: a privacy
// profile (epsilon, delta) or a trade-off curve (alpha, beta). The values are only
// checked to be numbers here; package dp judges them and names the row at fault,
// which the caller turns into an *InputError (RowError).
type NumberColumns struct {
	File        string
	A, B        []float64
	Fingerprint string
}

// maxNumberRows bounds a NumberColumns table: profiles and curves are small.
const maxNumberRows = 1 << 16

const msgFiniteNumber = "must be a finite number"

func validFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// ReadNumberColumns reads columns a and b (numbers) of the table at path, CSV or
// Parquet by its extension.
func ReadNumberColumns(ctx context.Context, path, a, b string, opts ...Option) (*NumberColumns, error) {
	t, err := readFile(ctx, path, opts, func(ctx context.Context, s source) (*NumberColumns, error) { return readNumbers(ctx, s, a, b) })
	if err != nil {
		return nil, err
	}
	if len(t.A) == 0 {
		return nil, fileError(path, ErrSize, "no rows")
	}
	return t, nil
}

// RowError is the *InputError for data row row (0-based) of a NumberColumns table,
// judged wrong by its consumer.
func RowError(file string, row int64, column, value, msg string) *InputError {
	return cellError(file, ErrRange, row, column, value, msg)
}

// readNumbers reads the number columns a and b of one file.
func readNumbers(ctx context.Context, s source, a, b string) (*NumberColumns, error) {
	f, err := fields(s, a, b)
	if err != nil {
		return nil, err
	}
	rs := make([]reader, len(f))
	vals := [2]*values[float64]{newValues[float64](s), newValues[float64](s)}
	for i, f := range f {
		c, err := s.numbers(f, true, "must be a number column")
		if err != nil {
			return nil, err
		}
		rs[i] = checked(s.file(), c, validFinite, msgFiniteNumber, vals[i])
	}
	if err := s.read(ctx, rowLimit{maxNumberRows, "more rows than a profile or curve may have (65536)"}, rs...); err != nil {
		return nil, err
	}
	out := &NumberColumns{File: s.file(), A: vals[0].v, B: vals[1].v}
	if out.Fingerprint, err = s.fingerprint(); err != nil {
		return nil, err
	}
	return out, nil
}
