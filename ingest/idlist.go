package ingest

import "context"

// IDList is a plain list of vertex ids (column cols.ID), as used by
// `graphdp release/query --ids FILE`. Repeats are kept, in file order.
type IDList struct {
	File        string
	Vertex      []int32
	Fingerprint string
}

// ReadIDList reads the id list at path: column cols.ID, holding ids of vs.
func ReadIDList(ctx context.Context, path string, cols Columns, vs *Vertices, opts ...Option) (*IDList, error) {
	l, _, err := byFormat(ctx, path, cols, vs, opts, readIDListCSV, readIDListParquet, joinIDList)
	return l, err
}

func (l *IDList) partRows() int64 { return int64(len(l.Vertex)) }
func (l *IDList) partSum() string { return l.Fingerprint }

// joinIDList is the ids of a table's files, file after file.
func joinIDList(spec string, parts []*IDList, fp string) *IDList {
	l := &IDList{File: spec, Vertex: []int32{}, Fingerprint: fp}
	for _, p := range parts {
		if p != nil {
			l.Vertex = append(l.Vertex, p.Vertex...)
		}
	}
	return l
}

func readIDListParquet(ctx context.Context, path string, cols Columns, vs *Vertices, opts []Option) (*IDList, error) {
	t, c, fp, done, err := openParquetColumns(ctx, path, opts, cols.ID)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := checkRefType(t, c[0], vs); err != nil {
		return nil, err
	}
	l := &IDList{File: path, Vertex: make([]int32, t.numRows())}
	if err := t.run(ctx, t.refLoader(c[0], vs, l.Vertex)); err != nil {
		return nil, err
	}
	if l.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return l, nil
}

func readIDListCSV(ctx context.Context, path string, cols Columns, vs *Vertices) (*IDList, error) {
	l := &IDList{File: path, Vertex: []int32{}}
	var err error
	l.Fingerprint, err = readCSV(ctx, path, []string{cols.ID}, func(row int64, f []string) error {
		v, err := refCSV(path, row, cols.ID, f[0], vs)
		l.Vertex = append(l.Vertex, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}
