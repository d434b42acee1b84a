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
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	var t *NumberColumns
	if f == formatCSV {
		t, err = readNumbersCSV(ctx, path, a, b)
	} else {
		t, err = readNumbersParquet(ctx, path, a, b, opts)
	}
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

func readNumbersParquet(ctx context.Context, path, a, b string, opts []Option) (*NumberColumns, error) {
	t, c, fp, done, err := openParquetColumns(ctx, path, opts, a, b)
	if err != nil {
		return nil, err
	}
	defer done()
	for _, col := range c {
		if !col.isFloat() && !col.isInt() {
			return nil, columnError(t.path, ErrColumnType, col.name, "must be a number column, not "+col.typeName)
		}
	}
	n := t.numRows()
	if n > maxNumberRows {
		return nil, fileError(t.path, ErrSize, "more rows than a profile or curve may have (65536)")
	}
	out := &NumberColumns{File: path, A: make([]float64, n), B: make([]float64, n)}
	la := t.numberLoader(c[0], validFinite, msgFiniteNumber, copyAt(out.A))
	lb := t.numberLoader(c[1], validFinite, msgFiniteNumber, copyAt(out.B))
	if err := t.run(ctx, la, lb); err != nil {
		return nil, err
	}
	if out.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return out, nil
}

func readNumbersCSV(ctx context.Context, path, a, b string) (*NumberColumns, error) {
	out := &NumberColumns{File: path, A: []float64{}, B: []float64{}}
	var err error
	out.Fingerprint, err = readCSV(ctx, path, []string{a, b}, func(row int64, f []string) error {
		if row >= maxNumberRows {
			return fileError(path, ErrSize, "more rows than a profile or curve may have (65536)")
		}
		var x [2]float64
		for i, name := range []string{a, b} {
			if f[i] == "" {
				return cellError(path, ErrNull, row, name, "", msgEmpty)
			}
			v, err := ParseNumber(f[i])
			if err != nil {
				return cellError(path, ErrNotANumber, row, name, f[i], "not a number")
			}
			if !validFinite(v) {
				return cellError(path, ErrRange, row, name, f[i], msgFiniteNumber)
			}
			x[i] = v
		}
		out.A, out.B = append(out.A, x[0]), append(out.B, x[1])
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
