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
	read := func(ctx context.Context, s source) (*Weights, error) {
		return readWeights(ctx, s, idColumn, weight, vs)
	}
	w, parts, err := byParts(ctx, path, vs, opts, read, joinWeights)
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
	s, err := openSource(ctx, p.files[0], nil) // reads only the footer: nothing to allocate
	if err != nil {
		return false, err
	}
	defer s.close()
	_, err = s.field(name)
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

// readWeights reads one file of a weights table.
func readWeights(ctx context.Context, s source, idColumn, weight string, vs *Vertices) (*Weights, error) {
	f, err := fields(s, idColumn, weight)
	if err != nil {
		return nil, err
	}
	ids, err := s.refIDs(f[0], vs.IDs.Int != nil, vs.File)
	if err != nil {
		return nil, err
	}
	ws, err := s.numbers(f[1], true, "weight must be a number column")
	if err != nil {
		return nil, err
	}
	vertex, wt := newValues[int32](s), newValues[float64](s)
	err = s.read(ctx, perVertexRows, refsInto(s.file(), ids, vs, vertex), checked(s.file(), ws, validWeight, msgWeight, wt))
	if err != nil {
		return nil, err
	}
	w := &Weights{File: s.file(), Vertex: vertex.v, Weight: wt.v}
	if w.Fingerprint, err = s.fingerprint(); err != nil {
		return nil, err
	}
	return w, nil
}
