package ingest

import (
	"context"
	"slices"
)

// HittingSet is the partial mechanism: the given Pr[M(v) = answer(v)] on
// the vertices of a boundary-hitting set, in file order.
type HittingSet struct {
	File        string
	Vertex      []int32   // dense positions, input order
	PTrue       []float64 // the given Pr[M(v) = answer(v)], in [0,1]
	Fingerprint string
}

const (
	msgPTrue     = "p_true must be in [0, 1]"
	msgPTrueType = "p_true must be a float64 or float32 column"
)

// ReadHittingSet reads the hitting-set file at path: columns cols.ID (ids
// of vs, each at most once) and cols.PTrue (a float in [0, 1]).
func ReadHittingSet(ctx context.Context, path string, cols Columns, vs *Vertices, opts ...Option) (*HittingSet, error) {
	read := func(ctx context.Context, s source) (*HittingSet, error) { return readHittingSet(ctx, s, cols, vs) }
	h, parts, err := byParts(ctx, path, vs, opts, read, joinHittingSet)
	if err != nil {
		return nil, err
	}
	for i, p := range h.PTrue {
		if p == 0 {
			h.PTrue[i] = 0 // -0 is 0: write it as 0
		}
	}
	if err := checkUniqueVertices(parts, cols.ID, h.Vertex, vs); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *HittingSet) partRows() int64 { return int64(len(h.Vertex)) }
func (h *HittingSet) partSum() string { return h.Fingerprint }

// joinHittingSet is the rows of a table's files, file after file.
func joinHittingSet(spec string, parts []*HittingSet, fp string) *HittingSet {
	h := &HittingSet{File: spec, Vertex: []int32{}, PTrue: []float64{}, Fingerprint: fp}
	for _, p := range parts {
		if p != nil {
			h.Vertex, h.PTrue = append(h.Vertex, p.Vertex...), append(h.PTrue, p.PTrue...)
		}
	}
	return h
}

// checkUniqueVertices reports the first row naming a vertex an earlier row named
// (rows of the table's files, p; each named by its file and row there).
// A bitmap of the vertices seen (n/8 bytes, which stay in cache, where a row
// index a vertex was 4 bytes of fresh memory each); the first mention's row is
// looked for only once a repeat is found.
func checkUniqueVertices(p *partList, column string, vertex []int32, vs *Vertices) error {
	seen := make([]uint64, (vs.IDs.Len()+63)/64)
	for i, v := range vertex {
		if seen[v>>6]&(1<<(v&63)) != 0 {
			r := slices.Index(vertex[:i], v)
			return p.duplicateRow(int64(i), column, vs.IDs.String(int(v)), int64(r))
		}
		seen[v>>6] |= 1 << (v & 63)
	}
	return nil
}

// validPTrue reports whether p is a probability (NaN and ±Inf are not).
func validPTrue(p float64) bool { return p >= 0 && p <= 1 }

// readHittingSet reads one file of a hitting set.
func readHittingSet(ctx context.Context, s source, cols Columns, vs *Vertices) (*HittingSet, error) {
	f, err := fields(s, cols.ID, cols.PTrue)
	if err != nil {
		return nil, err
	}
	ids, probs, err := hittingSetColumns(s, f, vs.IDs.Int != nil, vs.File)
	if err != nil {
		return nil, err
	}
	vertex, ptrue := newValues[int32](s), newValues[float64](s)
	err = s.read(ctx, perVertexRows, refsInto(s.file(), ids, vs, vertex), checked(s.file(), probs, validPTrue, msgPTrue, ptrue))
	if err != nil {
		return nil, err
	}
	h := &HittingSet{File: s.file(), Vertex: vertex.v, PTrue: ptrue.v}
	if h.Fingerprint, err = s.fingerprint(); err != nil {
		return nil, err
	}
	return h, nil
}

// hittingSetColumns opens a hitting set's columns f (its id and p_true): ids of the
// vertices of verticesFile (integers when intIDs), p_true a float column.
func hittingSetColumns(s source, f []field, intIDs bool, verticesFile string) (ids, column[float64], error) {
	k, err := s.refIDs(f[0], intIDs, verticesFile)
	if err != nil {
		return ids{}, nil, err
	}
	probs, err := s.numbers(f[1], false, msgPTrueType)
	return k, probs, err
}

// perVertexRows bounds a table that names each vertex at most once (a hitting set,
// weights): more rows than vertices can be means some id repeats; say so cheaply.
var perVertexRows = rowLimit{maxPositions, "more rows than there can be vertices"}
