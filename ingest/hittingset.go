package ingest

import (
	"context"
	"io"
	"math"
	"strconv"
)

// HittingSet is the partial mechanism: the given Pr[M(v) = answer(v)] on
// the vertices of a boundary-hitting set, in file order.
type HittingSet struct {
	File        string
	Vertex      []int32   // dense positions, input order
	PTrue       []float64 // the given Pr[M(v) = answer(v)], in [0,1]
	Fingerprint string
}

const msgPTrue = "p_true must be in [0, 1]"

// ReadHittingSet reads the hitting-set file at path: columns cols.ID (ids
// of vs, each at most once) and cols.PTrue (a float in [0, 1]).
func ReadHittingSet(ctx context.Context, path string, cols Columns, vs *Vertices) (*HittingSet, error) {
	if err := checkVertices(vs); err != nil {
		return nil, err
	}
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	var h *HittingSet
	if f == formatCSV {
		h, err = readHittingSetCSV(ctx, path, cols, vs)
	} else {
		h, err = readHittingSetParquet(ctx, path, cols, vs)
	}
	if err != nil {
		return nil, err
	}
	if err := checkUniqueVertices(path, cols.ID, h.Vertex, vs); err != nil {
		return nil, err
	}
	return h, nil
}

// checkUniqueVertices reports the first row naming a vertex an earlier row named.
func checkUniqueVertices(path, column string, vertex []int32, vs *Vertices) error {
	first := make([]int32, vs.IDs.Len()) // row+1 of the first mention, 0 = none
	for i, p := range vertex {
		if r := first[p]; r != 0 {
			id := vs.IDs.String(int(p))
			return cellError(path, int64(i), column, id, msgDuplicate(id, int64(r-1)))
		}
		first[p] = int32(i) + 1
	}
	return nil
}

// validPTrue reports whether p is a probability (NaN and ±Inf are not).
func validPTrue(p float64) bool { return p >= 0 && p <= 1 }

func readHittingSetParquet(ctx context.Context, path string, cols Columns, vs *Vertices) (*HittingSet, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t, err := openParquet(path)
	if err != nil {
		return nil, err
	}
	defer t.close()
	fp := fingerprintAsync(ctx, path)

	ic, err := t.column(cols.ID)
	if err != nil {
		return nil, err
	}
	pc, err := t.column(cols.PTrue)
	if err != nil {
		return nil, err
	}
	if err := checkRefType(t, ic, vs); err != nil {
		return nil, err
	}
	if !pc.isFloat() {
		return nil, columnError(path, pc.name, "p_true must be a float64 or float32 column, not "+pc.typeName)
	}
	n := t.numRows()
	if n > math.MaxInt32 {
		// More rows than vertices can be, so some id repeats; say so cheaply.
		return nil, fileError(path, "more rows than there can be vertices")
	}
	h := &HittingSet{File: path, Vertex: make([]int32, n), PTrue: make([]float64, n)}
	probs := func(check func() error, g int) error {
		return scanFloats(t, pc, g, check, func(row int64, vals []float64) error {
			for i, p := range vals {
				if !validPTrue(p) {
					return cellError(path, row+int64(i), pc.name, strconv.FormatFloat(p, 'g', -1, 64), msgPTrue)
				}
			}
			copy(h.PTrue[row:], vals)
			return nil
		})
	}
	if err := t.run(ctx, t.refLoader(ic, vs, h.Vertex), probs); err != nil {
		return nil, err
	}
	if h.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return h, nil
}

func readHittingSetCSV(ctx context.Context, path string, cols Columns, vs *Vertices) (*HittingSet, error) {
	t, err := openCSV(path)
	if err != nil {
		return nil, err
	}
	defer t.close()
	ic, err := t.column(cols.ID)
	if err != nil {
		return nil, err
	}
	pc, err := t.column(cols.PTrue)
	if err != nil {
		return nil, err
	}
	h := &HittingSet{File: path, Vertex: []int32{}, PTrue: []float64{}}
	for {
		rec, row, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if row%batchRows == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		v, err := refCSV(path, row, cols.ID, rec[ic], vs)
		if err != nil {
			return nil, err
		}
		field := rec[pc]
		if field == "" {
			return nil, cellError(path, row, cols.PTrue, "", msgEmpty)
		}
		p, err := strconv.ParseFloat(field, 64)
		if err != nil {
			return nil, cellError(path, row, cols.PTrue, field, "not a number")
		}
		if !validPTrue(p) {
			return nil, cellError(path, row, cols.PTrue, field, msgPTrue)
		}
		h.Vertex = append(h.Vertex, v)
		h.PTrue = append(h.PTrue, p)
	}
	if h.Fingerprint, err = t.fingerprint(); err != nil {
		return nil, err
	}
	return h, nil
}
