package ingest

import (
	"context"
	"errors"
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
	return byFormat(ctx, path, cols, vs, readEdgesCSV, readEdgesParquet)
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
	t, c, fp, done, err := openParquetColumns(ctx, path, cols.Src, cols.Dst)
	if err != nil {
		return nil, err
	}
	defer done()
	for _, c := range c {
		if err := checkRefType(t, c, vs); err != nil {
			return nil, err
		}
	}
	n := t.numRows()
	e := &Edges{File: path, Src: make([]int32, n), Dst: make([]int32, n)}
	if err := t.run(ctx, t.refLoader(c[0], vs, e.Src), t.refLoader(c[1], vs, e.Dst)); err != nil {
		return nil, err
	}
	if e.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return e, nil
}

func readEdgesCSV(ctx context.Context, path string, cols Columns, vs *Vertices) (*Edges, error) {
	e := &Edges{File: path, Src: []int32{}, Dst: []int32{}}
	var err error
	e.Fingerprint, err = readCSV(ctx, path, []string{cols.Src, cols.Dst}, func(row int64, f []string) error {
		s, err := refCSV(path, row, cols.Src, f[0], vs)
		if err != nil {
			return err
		}
		d, err := refCSV(path, row, cols.Dst, f[1], vs)
		if err != nil {
			return err
		}
		e.Src, e.Dst = append(e.Src, s), append(e.Dst, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}
