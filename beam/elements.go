package beam

import (
	"cmp"
	"fmt"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/ingest"
)

// Tags: the first byte of every shuffled element says what it is, so one GroupByKey
// joins several kinds of blocks under one key.
const (
	tagVertex   byte = 'V' // join buckets: a block of vertices (ids, positions, answers, hit flags)
	tagHit      byte = 'H' // join buckets: hitting-set rows; shards: resolved hitting-set vertices
	tagEdge     byte = 'E' // join bucket of src: edge rows
	tagHalf     byte = 'F' // join bucket of dst: edge rows with src resolved
	tagInfo     byte = 'I' // shards: ids and answers of a block of positions
	tagArc      byte = 'A' // shards: arcs (u in the shard, v anywhere) with v's answer and hit flag
	tagState    byte = 'S' // shards: a shard's state
	tagOffers   byte = 'O' // shards: offers for the next round
	tagNeighbor byte = 'P' // shards: p_one of neighbours (audit)
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

func (s *errSet) add(file, phase, col int, e *ingest.InputError) {
	x := inputErr{File: file, Phase: phase, Row: e.Row, Col: col, E: *e}
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
	return x, d.err
}

// state is one shard between rounds: its block of the CSR, its vertices' ids,
// answers and hitting-set entries, and both colours' candidates.
type state struct {
	Shard  bfs.Shard
	IDs    ids
	Answer []bool
	HitPos []int32   // hitting-set vertices in the shard, ascending
	HitRow []int64   // their rows in the hitting-set file
	HitP   []float64 // their given p_true
	// HitOne is their p_one as solved: poneOf(answer, HitP) until a within-tolerance
	// repair moves it onto its bound (bfs.Solve's repair; finish.go).
	HitOne  []float64
	Cur     [2][]bfs.Cand
	Changed int // vertices changed in the last round (both colours)
}

func (e *enc) cands(cs []bfs.Cand) {
	e.u64(uint64(len(cs)))
	for _, c := range cs {
		e.f64(c.Value)
		e.f64(c.A)
		e.i64(int64(c.Bind))
		e.i64(int64(c.Dist))
	}
}

func (d *dec) cands() []bfs.Cand {
	n := d.count()
	cs := make([]bfs.Cand, n)
	for i := range cs {
		cs[i] = bfs.Cand{Value: d.f64(), A: d.f64(), Bind: int32(d.i64()), Dist: int32(d.i64())}
	}
	return cs
}

func (s *state) encode() []byte {
	var e enc
	e.b = append(e.b, tagState)
	e.i64(int64(s.Shard.Lo))
	e.i64s(s.Shard.Off)
	e.i32s(s.Shard.Adj)
	e.ids(&s.IDs)
	e.bools(s.Answer)
	e.i32s(s.HitPos)
	e.i64s(s.HitRow)
	e.f64s(s.HitP)
	e.f64s(s.HitOne)
	e.cands(s.Cur[0])
	e.cands(s.Cur[1])
	e.i64(int64(s.Changed))
	return e.b
}

func decodeState(b []byte) (*state, error) {
	if len(b) == 0 || b[0] != tagState {
		return nil, errCorrupt
	}
	d := dec{b: b[1:]}
	s := &state{}
	s.Shard.Lo = int32(d.i64())
	s.Shard.Off = d.i64s()
	s.Shard.Adj = d.i32s()
	s.IDs = d.ids()
	s.Answer = d.bools()
	s.HitPos = d.i32s()
	s.HitRow = d.i64s()
	s.HitP = d.f64s()
	s.HitOne = d.f64s()
	s.Cur[0] = d.cands()
	s.Cur[1] = d.cands()
	s.Changed = int(d.i64())
	if d.err != nil {
		return nil, d.err
	}
	if n := s.Shard.Len(); n < 0 || len(s.Answer) != n || len(s.Cur[0]) != n || len(s.Cur[1]) != n ||
		len(s.HitRow) != len(s.HitPos) || len(s.HitP) != len(s.HitPos) || len(s.HitOne) != len(s.HitPos) {
		return nil, fmt.Errorf("beam: shard at %d: inconsistent state", s.Shard.Lo)
	}
	return s, nil
}

// own is round 0 of colour ci for the shard (the hitting-set vertices' own candidates,
// from their p_one as solved: Instance.POne).
func (s *state) own(p bfs.Pass) []bfs.Cand {
	lo := s.Shard.Lo
	return p.OwnBlock(lo, lo+int32(s.Shard.Len()), s.HitPos, s.HitOne)
}

// minA is the least pass value of the shard's hitting-set vertices, per colour (Top
// when there are none): the launcher's round bound (bfs.Pass.Depth).
func (s *state) minA(pair bfs.Pair) [2]float64 {
	var m [2]float64
	for ci, one := range []bool{false, true} {
		p := bfs.NewPass(pair, one)
		m[ci] = p.Top()
		for _, x := range s.HitOne {
			m[ci] = min(m[ci], p.Value(x))
		}
	}
	return m
}

// poneOf is Instance.POne: the given p_true as Pr[M = 1].
func poneOf(answer bool, ptrue float64) float64 {
	if answer {
		return ptrue
	}
	return 1 - ptrue
}

// offers encodes one colour's offers to one shard.
func encodeOffers(one bool, o bfs.Offers) []byte {
	var e enc
	e.b = append(e.b, tagOffers)
	e.bool(one)
	e.i64(int64(o.To))
	e.i32s(o.V)
	e.cands(o.C)
	return e.b
}

func decodeOffers(b []byte) (bool, bfs.Offers, error) {
	d := dec{b: b[1:]}
	one := d.bool()
	o := bfs.Offers{To: int32(d.i64())}
	o.V = d.i32s()
	o.C = d.cands()
	if d.err == nil && len(o.V) != len(o.C) {
		d.err = errCorrupt
	}
	return one, o, d.err
}
