package beam

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// The build's broadcast join (Conf.Broadcast). When the vertex table is small (at
// most BroadcastVertices rows) the id index is small enough for every worker to
// hold: each bucket's first join writes its resolved vertices (positions, answers,
// hit flags) to staging instead of shuffling them to the second join, and only then
// are the edges read. A worker loads the whole index once (indexes, like the worker
// cache's blocks) and resolves both ends of each edge where it reads it, sending the
// arcs straight to their shards: the edge rows cross one shuffle instead of three
// (read → first join by src, → second join by dst, → shard). The rejections are the
// join path's: the same checks, ranked by the same keys (elements.go, inputErr).

// BroadcastVertices is the default number of vertex rows up to which the build
// broadcasts the id index (Options.BroadcastVertices): an index of 2^22 dense integer
// ids is a direct array of at most about 64 MiB per worker; other ids take a hash table
// of 2n to 4n slots of 24 bytes (intTable), about 200–400 MiB at 2^22.
const BroadcastVertices = 1 << 22

// useBroadcast is whether the build broadcasts an index of n vertex rows.
func useBroadcast(o Options, n int64) bool {
	switch o.BroadcastVertices {
	case -1:
		return false
	case 0:
		return n <= BroadcastVertices
	}
	return n <= int64(o.BroadcastVertices)
}

func indexFile(staging string, bucket int) string {
	return join(staging, "index", fmt.Sprintf("bucket-%06d", bucket))
}

// writeIndex stores one bucket's resolved vertex blocks (with their hit flags).
func writeIndex(ctx context.Context, staging string, bucket int, vbs []*vertexBlock) error {
	var e enc
	e.u64(uint64(len(vbs)))
	for _, vb := range vbs {
		e.blob(vb.encode(tagVertex))
	}
	return writeBlob(ctx, indexFile(staging, bucket), e.b)
}

// indexes are the broadcast id indexes this process loaded, by staging folder: each
// is read once (all buckets' files) and kept until the run ends (dropCache).
var indexes = struct {
	sync.Mutex
	m map[string]*sharedIndex
}{m: map[string]*sharedIndex{}}

type sharedIndex struct {
	once sync.Once
	x    *wholeIndex
	err  error
}

// wholeIndex resolves every id of a run (the broadcast index). Integer ids that are
// their positions plus one constant (a vertices file numbered 0..n−1 in row order,
// as generators and most exports write it) need no table at all: the position is
// the id less the constant, and the answer and hit flags sit in two bits per
// position (250 KiB for 10^6 vertices: in cache, where the direct array missed it on
// every lookup, the edges' largest cost). Other integer ids that span at most four
// times as many values as there are vertices take a direct array (4 bytes an id
// value, position and flags together: one cache miss a lookup where a hash table
// costs more), other ids the joins' idIndex. Every kind also holds the flags by
// position, which the shards read for their neighbours in other shards (so the arcs
// need not carry them: shardFn).
type wholeIndex struct {
	lo     int64
	dense  []uint32 // by id − lo: the position, with ansBit and hitBit; none for no id
	sparse idIndex
	// shifted: position = id − lo for every id; n positions.
	shifted bool
	n       int64
	// flags by position: flagAns, flagHit at bits 2p%64 of word p/32.
	flags []uint64
}

const (
	flagAns = 1
	flagHit = 2
)

const (
	ansBit = 1 << 30
	hitBit = 1 << 31
	none   = math.MaxUint32
)

func newWholeIndex(str bool, vbs []*vertexBlock) *wholeIndex {
	x := newIDsIndex(str, vbs)
	maxPos := int32(-1)
	for _, vb := range vbs {
		for _, p := range vb.Pos {
			maxPos = max(maxPos, p)
		}
	}
	x.flags = make([]uint64, (int(maxPos)+32)/32)
	for _, vb := range vbs {
		for i, p := range vb.Pos {
			x.flags[p/32] |= uint64(flagsOf(vb.Ans[i], vb.Hit[i])) << (2 * (p % 32))
		}
	}
	return x
}

// newIDsIndex is the index of vbs' ids (without the flags by position).
func newIDsIndex(str bool, vbs []*vertexBlock) *wholeIndex {
	n, lo, hi, maxPos := 0, int64(math.MaxInt64), int64(math.MinInt64), int32(0)
	for _, vb := range vbs {
		n += len(vb.Pos)
		for i, id := range vb.IDs.Int {
			lo, hi, maxPos = min(lo, id), max(hi, id), max(maxPos, vb.Pos[i])
		}
	}
	if str || n == 0 || hi-lo < 0 || uint64(hi-lo) >= 4*uint64(n)+64 || maxPos >= ansBit {
		return &wholeIndex{sparse: newIDIndex(str, vbs)}
	}
	if newShiftedIndex(vbs, n, lo, hi, maxPos) {
		return &wholeIndex{shifted: true, lo: lo, n: int64(n)}
	}
	x := &wholeIndex{lo: lo, dense: make([]uint32, hi-lo+1)}
	for i := range x.dense {
		x.dense[i] = none
	}
	for _, vb := range vbs {
		for i, id := range vb.IDs.Int {
			p := uint32(vb.Pos[i])
			if q := x.dense[id-lo]; q != none && q&(ansBit-1) < p {
				continue // a repeated id resolves to its first position, as newIDIndex
			}
			if vb.Ans[i] {
				p |= ansBit
			}
			if vb.Hit[i] {
				p |= hitBit
			}
			x.dense[id-lo] = p
		}
	}
	return x
}

// newShiftedIndex is whether the n ids in [lo, hi] at positions up to maxPos are
// each their position plus lo (so n distinct ids: no repeats).
func newShiftedIndex(vbs []*vertexBlock, n int, lo, hi int64, maxPos int32) bool {
	if hi-lo != int64(n)-1 || int64(maxPos) != int64(n)-1 {
		return false
	}
	for _, vb := range vbs {
		for i, id := range vb.IDs.Int {
			if id-lo != int64(vb.Pos[i]) {
				return false
			}
		}
	}
	return true
}

// flagsAt is position p's flagAns and flagHit.
func (x *wholeIndex) flagsAt(p int32) uint8 { return uint8(x.flags[p/32] >> (2 * (p % 32)) & 3) }

// pos is the position of id i, without its flags.
func (x *wholeIndex) pos(id *ids, i int) (int32, bool) {
	if x.shifted {
		p := id.Int[i] - x.lo
		return int32(p), uint64(p) < uint64(x.n)
	}
	v, ok := x.get(id, i)
	return v.pos, ok
}

func (x *wholeIndex) get(id *ids, i int) (vref, bool) {
	if x.shifted {
		p := id.Int[i] - x.lo
		if uint64(p) >= uint64(x.n) {
			return vref{}, false
		}
		f := x.flagsAt(int32(p))
		return vref{pos: int32(p), second: -1, ans: f&flagAns != 0, hit: f&flagHit != 0}, true
	}
	if x.dense == nil {
		return x.sparse.get(id, i)
	}
	k := uint64(id.Int[i] - x.lo)
	if k >= uint64(len(x.dense)) {
		return vref{}, false
	}
	p := x.dense[k]
	if p == none {
		return vref{}, false
	}
	return vref{pos: int32(p & (ansBit - 1)), second: -1, ans: p&ansBit != 0, hit: p&hitBit != 0}, true
}

// loadIndex is the whole id index of c's run.
func loadIndex(ctx context.Context, c Conf) (*wholeIndex, error) {
	indexes.Lock()
	si := indexes.m[c.Staging]
	if si == nil {
		si = &sharedIndex{}
		indexes.m[c.Staging] = si
	}
	indexes.Unlock()
	si.once.Do(func() { si.x, si.err = readIndex(ctx, c) })
	if si.err != nil { // not kept: the next bundle (a retry) reads it again
		indexes.Lock()
		if indexes.m[c.Staging] == si {
			delete(indexes.m, c.Staging)
		}
		indexes.Unlock()
	}
	return si.x, si.err
}

func readIndex(ctx context.Context, c Conf) (*wholeIndex, error) {
	var vbs []*vertexBlock
	// buckets with vertices
	err := eachBlob(ctx, join(c.Staging, "index", "bucket-*"), func(path string, raw []byte) error {
		d := dec{b: raw}
		for range d.count() {
			vb, err := decodeVertexBlock(d.blob())
			if err != nil {
				return fmt.Errorf("beam: %s: %w", path, err)
			}
			vbs = append(vbs, vb)
		}
		if d.err != nil {
			return fmt.Errorf("beam: %s: %w", path, d.err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return newWholeIndex(c.StrIDs, vbs), nil
}

// dropIndex forgets the index of the run staged at staging.
func dropIndex(staging string) {
	indexes.Lock()
	delete(indexes.m, staging)
	indexes.Unlock()
}

// seedFn gives edgeSplitsFn its key even when no bucket has vertices.
type seedFn struct{}

func (*seedFn) ProcessElement(_ []byte, emit func(int, []byte)) { emit(0, nil) }

// edgeSplitsFn starts the edges' reads once every bucket's index is written: its
// one key groups a token from each bucket's first join.
type edgeSplitsFn struct {
	Splits [][]byte
}

func (f *edgeSplitsFn) ProcessElement(_ context.Context, _ int, _ func(*[]byte) bool, emit func(int, []byte)) error {
	for i, sp := range f.Splits {
		emit(i, sp)
	}
	return nil
}

// edgesFn reads one split of the edges and resolves both ends against the whole
// index: an unknown src id is the first join's error, an unknown dst id (of a row
// whose src is known) the second join's; the arcs go to their shards shuffled,
// without flags (the shards read them from the index), or, when the job stages arcs
// (Conf.StageArcs) and there are at most maxArcFiles row groups times shards,
// through staging (arcFile): the shard is sent the split's number, and reads the
// block where the split wrote it. A runner then does not hold the graph's arcs in
// its shuffle (Prism copies each shuffled byte several times, in one process).
type edgesFn struct{ C Conf }

// maxArcFiles bounds the files the edges' reads write to staging (one per row group
// and shard with arcs) when the job stages arcs (Conf.StageArcs): beyond it, the
// arc blocks are shuffled (a staging file per element is no cheaper than a
// shuffle).
const maxArcFiles = 1 << 12

func arcFile(staging string, g, s int) string {
	// Two levels, as every staging file: removeStaging lists <staging>/*/*.
	return join(staging, fmt.Sprintf("arcs-%06d", g), fmt.Sprintf("shard-%06d", s))
}

// arcFileRef is the element that sends shard s the arc block split g staged for it.
func arcFileRef(g int) []byte {
	e := enc{b: []byte{tagArcFile}}
	e.u64(uint64(g))
	return e.b
}

// readArcFile is the arc block an arcFileRef element names for shard s.
func readArcFile(ctx context.Context, staging string, s int, ref []byte) ([]byte, error) {
	d := dec{b: ref[1:]}
	g := d.u64()
	if d.err != nil || len(d.b) != 0 || g > math.MaxInt32 {
		return nil, errCorrupt
	}
	b, err := readBlob(ctx, arcFile(staging, int(g), s))
	if err == nil && (len(b) == 0 || b[0] != tagArc) {
		err = fmt.Errorf("beam: %s: %w", arcFile(staging, int(g), s), errCorrupt)
	}
	return b, err
}

func (f *edgesFn) ProcessElement(ctx context.Context, _ int, b []byte, toShard func(int, []byte)) error {
	ctx = f.C.context(ctx)
	sp, err := decodeSplit(b)
	if err != nil {
		return err
	}
	var errs errSet
	eg, err := readEdges(ctx, f.C, sp.U, &errs)
	if err != nil {
		return err
	}
	src, dst, start, n := eg.src, eg.dst, eg.start, eg.n
	edges := &f.C.Tables[fileEdges]
	index, err := loadIndex(ctx, f.C)
	if err != nil {
		return err
	}
	a := newArcSink(f.C.layout(), int(n), false) // the shards read the flags from the index
	for i := range int(n) {
		u, ok := index.pos(&src, i)
		if !ok {
			errs.add(fileEdges, 0, start+int64(i), 0, edges.Parts.UnknownID(start+int64(i), f.C.Cols.Src, src.text(i), f.C.vertexFile()))
			continue
		}
		d, ok := index.pos(&dst, i)
		if !ok {
			errs.add(fileEdges, 0, start+int64(i), 1, edges.Parts.UnknownID(start+int64(i), f.C.Cols.Dst, dst.text(i), f.C.vertexFile()))
			continue
		}
		a.edge(u, false, false, vref{pos: d})
	}
	emit := toShard
	var werr error
	if f.C.StageArcs && int64(edges.units())*int64(f.C.layout().Shards()) <= maxArcFiles {
		emit = func(s int, b []byte) {
			if werr == nil {
				if werr = writeBlob(ctx, arcFile(f.C.Staging, sp.U, s), b); werr == nil {
					toShard(s, arcFileRef(sp.U))
				}
			}
		}
	}
	a.emit(emit)
	if werr != nil {
		return werr
	}
	if err := writeSelfLoops(ctx, f.C.Staging, fmt.Sprintf("join2-e%06d", sp.U), a.selfLoops); err != nil {
		return err
	}
	return writeErrors(ctx, f.C.Staging, fmt.Sprintf("read-%d-%06d", sp.File, sp.U), &errs)
}

// The finish of a small graph (Conf.Broadcast) exchanges the cut vertices' p_one and
// local roots through staging: each shard writes its whole arrays (12 bytes a
// vertex), and a shard reads those of the shards it neighbours, in place of a
// shuffle of one entry per cut vertex and neighbouring shard.

func nbrFile(staging string, round, s int) string {
	return join(staging, fmt.Sprintf("nbr-%06d", round), fmt.Sprintf("shard-%06d", s))
}

// readNeighbours is the p_one and root of the foreign vertices fv (ascending, a
// block's Cut numbering), from their shards' files of the given round.
func readNeighbours(ctx context.Context, c Conf, round int, fv []int32) (neighbours, error) {
	l := c.layout()
	nb := neighbours{pOne: make([]float64, len(fv)), root: make([]int32, len(fv))}
	for k := 0; k < len(fv); {
		t := l.Of(fv[k])
		lo, hi := l.Range(t)
		path := nbrFile(c.Staging, round, int(t))
		raw, err := readBlob(ctx, path)
		if err != nil {
			return nb, err
		}
		d := dec{b: raw}
		p, r := d.f64s(), d.i32s()
		if d.err != nil || len(p) != int(hi-lo) || len(r) != len(p) {
			return nb, fmt.Errorf("beam: %s: %w", path, errCorrupt)
		}
		for ; k < len(fv) && fv[k] < hi; k++ {
			nb.pOne[k], nb.root[k] = p[fv[k]-lo], r[fv[k]-lo]
		}
	}
	return nb, nil
}
