package beam

import (
	"cmp"
	"slices"

	"github.com/graphdp/graphdp/ingest"
)

// Files ranked as the single-machine run reads them (vertices, then edges, then the
// hitting set) and phases within a file (cell errors before duplicates).
const (
	fileVertices = iota
	fileEdges
	fileHit
)

// inputErr is a rejection with the key that decides which one is reported: the
// single-machine readers report the first bad row (lowest row, then column order) of
// the first failing file, and duplicates only when no cell is bad. The launcher
// reports the least key over all workers.
type inputErr struct {
	File, Phase int
	Row         int64
	Col         int
	E           ingest.InputError
}

func (a inputErr) less(b inputErr) bool {
	if c := cmp.Compare(a.File, b.File); c != 0 {
		return c < 0
	}
	if c := cmp.Compare(a.Phase, b.Phase); c != 0 {
		return c < 0
	}
	if c := cmp.Compare(a.Row, b.Row); c != 0 {
		return c < 0
	}
	return a.Col < b.Col
}

// errSet keeps the least inputErr a worker found.
type errSet struct {
	best *inputErr
}

// add records e, of table file, ranked by phase, the table's row (numbered across
// its files) and col.
func (s *errSet) add(file, phase int, row int64, col int, e *ingest.InputError) {
	x := inputErr{File: file, Phase: phase, Row: row, Col: col, E: *e}
	if s.best == nil || x.less(*s.best) {
		s.best = &x
	}
}

func (s *errSet) encode() []byte {
	if s.best == nil {
		return nil
	}
	var e enc
	b := s.best
	e.i64(int64(b.File))
	e.i64(int64(b.Phase))
	e.i64(b.Row)
	e.i64(int64(b.Col))
	e.str(b.E.File)
	e.i64(b.E.Row)
	e.str(b.E.Column)
	e.str(b.E.Value)
	e.str(b.E.Msg)
	e.i64(int64(slices.Index(ingest.Kinds(), b.E.Err)))
	return e.b
}

func decodeErr(b []byte) (inputErr, error) {
	d := dec{b: b}
	var x inputErr
	x.File = int(d.i64())
	x.Phase = int(d.i64())
	x.Row = d.i64()
	x.Col = int(d.i64())
	x.E.File = d.str()
	x.E.Row = d.i64()
	x.E.Column = d.str()
	x.E.Value = d.str()
	x.E.Msg = d.str()
	if k := d.i64(); k >= 0 && k < int64(len(ingest.Kinds())) {
		x.E.Err = ingest.Kinds()[k]
	}
	return x, d.err
}
