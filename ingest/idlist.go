package ingest

import (
	"context"
	"io"
)

// IDList is a plain list of vertex ids (column cols.ID), as used by
// `graphdp release/query --ids FILE`. Repeats are kept, in file order.
type IDList struct {
	File        string
	Vertex      []int32
	Fingerprint string
}

// ReadIDList reads the id list at path: column cols.ID, holding ids of vs.
func ReadIDList(ctx context.Context, path string, cols Columns, vs *Vertices) (*IDList, error) {
	if err := checkVertices(vs); err != nil {
		return nil, err
	}
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	if f == formatCSV {
		return readIDListCSV(ctx, path, cols, vs)
	}
	return readIDListParquet(ctx, path, cols, vs)
}

func readIDListParquet(ctx context.Context, path string, cols Columns, vs *Vertices) (*IDList, error) {
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
	if err := checkRefType(t, ic, vs); err != nil {
		return nil, err
	}
	l := &IDList{File: path, Vertex: make([]int32, t.numRows())}
	if err := t.run(ctx, t.refLoader(ic, vs, l.Vertex)); err != nil {
		return nil, err
	}
	if l.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return l, nil
}

func readIDListCSV(ctx context.Context, path string, cols Columns, vs *Vertices) (*IDList, error) {
	t, err := openCSV(path)
	if err != nil {
		return nil, err
	}
	defer t.close()
	ic, err := t.column(cols.ID)
	if err != nil {
		return nil, err
	}
	l := &IDList{File: path, Vertex: []int32{}}
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
		l.Vertex = append(l.Vertex, v)
	}
	if l.Fingerprint, err = t.fingerprint(); err != nil {
		return nil, err
	}
	return l, nil
}
