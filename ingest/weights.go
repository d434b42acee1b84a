package ingest

import (
	"context"
	"errors"
	"math"
)

// Weights is a table of per-dataset weights (graphdp optimize's utility), in file
// order: a separate table of id and weight, or the vertices file's own weight column.
type Weights struct {
	File        string
	Vertex      []int32   // dense positions, input order, each at most once
	Weight      []float64 // finite, ≥ 0
	Fingerprint string
}

const msgWeight = "weight must be a finite number ≥ 0"

func validWeight(w float64) bool { return w >= 0 && !math.IsInf(w, 1) }

// ReadWeights reads the weights table at path: column idColumn (ids of vs, each at
// most once) and column weight (a finite float ≥ 0). The vertices file itself may be
// given: its rows then name every dataset once.
func ReadWeights(ctx context.Context, path, idColumn, weight string, vs *Vertices, opts ...Option) (*Weights, error) {
	cols := Columns{ID: idColumn, PTrue: weight} // the readers take the value column as PTrue
	w, parts, err := byFormat(ctx, path, cols, vs, opts, readWeightsCSV, readWeightsParquet, joinWeights)
	if err != nil {
		return nil, err
	}
	for i, x := range w.Weight {
		if x == 0 {
			w.Weight[i] = 0 // -0 is 0
		}
	}
	if err := checkUniqueVertices(parts, idColumn, w.Vertex, vs); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *Weights) partRows() int64 { return int64(len(w.Vertex)) }
func (w *Weights) partSum() string { return w.Fingerprint }

// joinWeights is the rows of a table's files, file after file.
func joinWeights(spec string, parts []*Weights, fp string) *Weights {
	w := &Weights{File: spec, Vertex: []int32{}, Weight: []float64{}, Fingerprint: fp}
	for _, p := range parts {
		if p != nil {
			w.Vertex, w.Weight = append(w.Vertex, p.Vertex...), append(w.Weight, p.Weight...)
		}
	}
	return w
}

// HasColumn reports whether the table at path (Parquet or CSV) has a column named
// name; unreadable files are errors as the readers report them.
func HasColumn(ctx context.Context, spec, name string) (bool, error) {
	p, err := listParts(ctx, spec) // the files share their columns (openParts checks)
	if err != nil {
		return false, err
	}
	path, f := p.files[0], p.format
	if f == formatCSV {
		t, err := openCSV(ctx, path)
		if err != nil {
			return false, err
		}
		defer t.close()
		_, err = t.column(name)
		return hasColumn(err)
	}
	t, err := openParquet(ctx, path, nil) // reads only the footer: nothing to allocate
	if err != nil {
		return false, err
	}
	defer t.close()
	_, err = t.column(name)
	return hasColumn(err)
}

// hasColumn is HasColumn's answer from a column lookup's error: a missing column is
// false, a name given to several columns is an error.
func hasColumn(err error) (bool, error) {
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrDuplicateColumn):
		return false, err
	}
	return false, nil
}

func readWeightsParquet(ctx context.Context, path string, cols Columns, vs *Vertices, opts []Option) (*Weights, error) {
	t, c, fp, done, err := openParquetColumns(ctx, path, opts, cols.ID, cols.PTrue)
	if err != nil {
		return nil, err
	}
	defer done()
	ic, wc := c[0], c[1]
	if err := t.CheckRefColumn(ic, vs.IDs.Int != nil, vs.File); err != nil {
		return nil, err
	}
	if !wc.isFloat() && !wc.isInt() {
		return nil, columnError(t.path, ErrColumnType, wc.name, "weight must be a number column, not "+wc.typeName)
	}
	if t.numRows() > maxPositions {
		return nil, fileError(t.path, ErrSize, "more rows than there can be vertices")
	}
	n := t.numRows()
	w := &Weights{File: path, Vertex: make([]int32, n), Weight: make([]float64, n)}
	load := t.numberLoader(wc, validWeight, msgWeight, copyAt(w.Weight))
	if err := t.run(ctx, t.refLoader(ic, vs, w.Vertex), load); err != nil {
		return nil, err
	}
	if w.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return w, nil
}

func readWeightsCSV(ctx context.Context, path string, cols Columns, vs *Vertices) (*Weights, error) {
	w := &Weights{File: path, Vertex: []int32{}, Weight: []float64{}}
	var err error
	w.Fingerprint, err = readCSV(ctx, path, []string{cols.ID, cols.PTrue}, func(row int64, f []string) error {
		v, err := refCSV(path, row, cols.ID, f[0], vs)
		if err != nil {
			return err
		}
		if f[1] == "" {
			return cellError(path, ErrNull, row, cols.PTrue, "", msgEmpty)
		}
		x, err := ParseNumber(f[1])
		if err != nil {
			return cellError(path, ErrNotANumber, row, cols.PTrue, f[1], "not a number")
		}
		if !validWeight(x) {
			return cellError(path, ErrRange, row, cols.PTrue, f[1], msgWeight)
		}
		w.Vertex, w.Weight = append(w.Vertex, v), append(w.Weight, x)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}
