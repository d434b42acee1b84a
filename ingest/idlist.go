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
	read := func(ctx context.Context, s source) (*IDList, error) { return readIDList(ctx, s, cols, vs) }
	l, _, err := byParts(ctx, path, vs, opts, read, joinIDList)
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

// readIDList reads one file of an id list.
func readIDList(ctx context.Context, s source, cols Columns, vs *Vertices) (*IDList, error) {
	f, err := s.field(cols.ID)
	if err != nil {
		return nil, err
	}
	ids, err := s.refIDs(f, vs.IDs.Int != nil, vs.File)
	if err != nil {
		return nil, err
	}
	vertex := newValues[int32](s)
	if err := s.read(ctx, rowLimit{}, refsInto(s.file(), ids, vs, vertex)); err != nil {
		return nil, err
	}
	l := &IDList{File: s.file(), Vertex: vertex.v}
	if l.Fingerprint, err = s.fingerprint(); err != nil {
		return nil, err
	}
	return l, nil
}
