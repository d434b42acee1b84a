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

const msgPTrue = "p_true must be in [0, 1]"

// ReadHittingSet reads the hitting-set file at path: columns cols.ID (ids
// of vs, each at most once) and cols.PTrue (a float in [0, 1]).
func ReadHittingSet(ctx context.Context, path string, cols Columns, vs *Vertices, opts ...Option) (*HittingSet, error) {
	h, parts, err := byFormat(ctx, path, cols, vs, opts, readHittingSetCSV, readHittingSetParquet, joinHittingSet)
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

func readHittingSetParquet(ctx context.Context, path string, cols Columns, vs *Vertices, opts []Option) (*HittingSet, error) {
	t, c, fp, done, err := openParquetColumns(ctx, path, opts, cols.ID, cols.PTrue)
	if err != nil {
		return nil, err
	}
	defer done()
	ic, pc := c[0], c[1]
	if err := t.CheckHittingSetColumns(ic, pc, vs.IDs.Int != nil, vs.File); err != nil {
		return nil, err
	}
	n := t.numRows()
	h := &HittingSet{File: path, Vertex: make([]int32, n), PTrue: make([]float64, n)}
	probs := t.pTrueLoader(pc, func(row int64, vals []float64) { copy(h.PTrue[row:], vals) })
	if err := t.run(ctx, t.refLoader(ic, vs, h.Vertex), probs); err != nil {
		return nil, err
	}
	if h.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return h, nil
}

func readHittingSetCSV(ctx context.Context, path string, cols Columns, vs *Vertices) (*HittingSet, error) {
	h := &HittingSet{File: path, Vertex: []int32{}, PTrue: []float64{}}
	var err error
	h.Fingerprint, err = readCSV(ctx, path, []string{cols.ID, cols.PTrue}, func(row int64, f []string) error {
		v, err := refCSV(path, row, cols.ID, f[0], vs)
		if err != nil {
			return err
		}
		p, err := csvProb(path, row, cols.PTrue, f[1], msgPTrue)
		h.Vertex, h.PTrue = append(h.Vertex, v), append(h.PTrue, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}
