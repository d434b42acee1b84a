package ingest

import (
	"context"
	"errors"
	"io"
)

// Edges is the edges table as dense vertex positions, one entry per input
// row in file order. Duplicates and self-loops are kept; the graph builder
// dedupes.
type Edges struct {
	File        string
	Src, Dst    []int32
	Fingerprint string
}

// ReadEdges reads the edges file at path: columns cols.Src and cols.Dst,
// holding ids of vs (of the same type: integer or string).
func ReadEdges(ctx context.Context, path string, cols Columns, vs *Vertices) (*Edges, error) {
	if err := checkVertices(vs); err != nil {
		return nil, err
	}
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	if f == formatCSV {
		return readEdgesCSV(ctx, path, cols, vs)
	}
	return readEdgesParquet(ctx, path, cols, vs)
}

// checkVertices rejects a Vertices the caller did not get from ReadVertices
// (or fill in the same way); this is a programming error, not bad input.
func checkVertices(vs *Vertices) error {
	if vs == nil || vs.Index == nil || vs.Index.Len() != vs.IDs.Len() || (vs.IDs.Int == nil) != (vs.Index.kind == kindString) {
		return errors.New("ingest: Vertices without a matching Index")
	}
	return nil
}

func readEdgesParquet(ctx context.Context, path string, cols Columns, vs *Vertices) (*Edges, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t, err := openParquet(path)
	if err != nil {
		return nil, err
	}
	defer t.close()
	fp := fingerprintAsync(ctx, path)

	sc, err := t.column(cols.Src)
	if err != nil {
		return nil, err
	}
	dc, err := t.column(cols.Dst)
	if err != nil {
		return nil, err
	}
	for _, c := range []*pqColumn{sc, dc} {
		if err := checkRefType(t, c, vs); err != nil {
			return nil, err
		}
	}
	n := t.numRows()
	e := &Edges{File: path, Src: make([]int32, n), Dst: make([]int32, n)}
	if err := t.run(ctx, t.refLoader(sc, vs, e.Src), t.refLoader(dc, vs, e.Dst)); err != nil {
		return nil, err
	}
	if e.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return e, nil
}

func readEdgesCSV(ctx context.Context, path string, cols Columns, vs *Vertices) (*Edges, error) {
	t, err := openCSV(path)
	if err != nil {
		return nil, err
	}
	defer t.close()
	sc, err := t.column(cols.Src)
	if err != nil {
		return nil, err
	}
	dc, err := t.column(cols.Dst)
	if err != nil {
		return nil, err
	}
	e := &Edges{File: path, Src: []int32{}, Dst: []int32{}}
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
		s, err := refCSV(path, row, cols.Src, rec[sc], vs)
		if err != nil {
			return nil, err
		}
		d, err := refCSV(path, row, cols.Dst, rec[dc], vs)
		if err != nil {
			return nil, err
		}
		e.Src = append(e.Src, s)
		e.Dst = append(e.Dst, d)
	}
	if e.Fingerprint, err = t.fingerprint(); err != nil {
		return nil, err
	}
	return e, nil
}
