package beam

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
)

// The build stage (one Beam pipeline): read every row group of the three inputs, map
// ids to positions with two hash joins (src, then dst), and assemble each shard's
// block of the CSR with its vertices and hitting-set entries. Rejections, counts and
// the hitting-set check are written as small files under the staging folder; each
// shard's block, info and round-0 candidates are written once (rounds.go).

// Conf is what every worker needs to know about the job; Beam serialises it with the
// DoFns (exported fields).
type Conf struct {
	Staging                  string
	Vertices, Edges, Hitting string
	Cols                     ingest.Columns
	StrIDs                   bool
	N                        int32
	ShardSize                int32
	Buckets                  int
	List                     int
	Epsilon, Delta           float64
}

func (c *Conf) layout() graph.Layout { return graph.Layout{N: c.N, Size: c.ShardSize} }

func (c *Conf) pair() (dp.Pair, error) { return dp.New(c.Epsilon, c.Delta) }

// split is one row group of one input file.
type split struct {
	File int // fileVertices, fileEdges, fileHit
	G    int
}

func (s split) encode() []byte { return []byte(fmt.Sprintf("%d/%d", s.File, s.G)) }

func decodeSplit(b []byte) (split, error) {
	var s split
	_, err := fmt.Sscanf(string(b), "%d/%d", &s.File, &s.G)
	return s, err
}

// readFn reads one split and sends its rows on as blocks: vertices and hitting-set
// rows to the join bucket of their id, edges to the bucket of their src id, and
// vertices' ids and answers to their shard.
type readFn struct{ C Conf }

func (f *readFn) ProcessElement(ctx context.Context, b []byte, toJoin, toShard func(int, []byte)) error {
	sp, err := decodeSplit(b)
	if err != nil {
		return err
	}
	var errs errSet
	switch sp.File {
	case fileVertices:
		err = f.vertices(ctx, sp.G, &errs, toJoin, toShard)
	case fileEdges:
		err = f.edges(ctx, sp.G, &errs, toJoin)
	case fileHit:
		err = f.hits(ctx, sp.G, &errs, toJoin)
	}
	if err != nil {
		return err
	}
	return writeErrors(ctx, f.C.Staging, fmt.Sprintf("read-%d-%06d", sp.File, sp.G), &errs)
}

// writeErrors stores a worker's least rejection, if any.
func writeErrors(ctx context.Context, staging, name string, errs *errSet) error {
	if errs.best == nil {
		return nil
	}
	return writeBlob(ctx, join(staging, "errors", name), errs.encode())
}

// addInput records err if it is an *ingest.InputError and returns other errors.
func addInput(errs *errSet, file, col int, err error) error {
	if ie, ok := err.(*ingest.InputError); ok {
		errs.add(file, 0, col, ie)
		return nil
	}
	return err
}

// prefix is how many rows of a split are usable after cell errors: rows before the
// first bad one still go on, so that an earlier unknown id (found in a join) is
// reported as the single-machine reader would (lowest row first).
func prefix(start, n int64, errs *errSet, file int) int64 {
	if errs.best != nil && errs.best.File == file && errs.best.Row >= start {
		return min(n, errs.best.Row-start)
	}
	return n
}

func (f *readFn) vertices(ctx context.Context, g int, errs *errSet, toJoin, toShard func(int, []byte)) error {
	t, err := openTable(ctx, f.C.Vertices)
	if err != nil {
		return err
	}
	defer t.Close()
	idc, err := t.Column(f.C.Cols.ID)
	if err != nil {
		return err
	}
	ac, err := t.Column(f.C.Cols.Answer)
	if err != nil {
		return err
	}
	id, err := readIDs(t, idc, g, "")
	if err := addInput(errs, fileVertices, 0, err); err != nil {
		return err
	}
	ans, err := t.ReadAnswers(g, ac)
	if err := addInput(errs, fileVertices, 1, err); err != nil {
		return err
	}
	if errs.best != nil {
		return nil // a bad cell rejects the vertices file: nothing to join
	}
	start := t.Start(g)
	buckets := make(map[int]*vertexBlock)
	for i := range id.len() {
		k := id.key(i).bucket(f.C.Buckets)
		vb := buckets[k]
		if vb == nil {
			vb = &vertexBlock{IDs: ids{Str: id.Str}}
			buckets[k] = vb
		}
		vb.Pos = append(vb.Pos, int32(start)+int32(i))
		vb.IDs.append(&id, i)
		vb.Ans = append(vb.Ans, ans[i])
	}
	for _, k := range sortedKeys(buckets) {
		toJoin(k, buckets[k].encode(tagVertex))
	}
	// Ids and answers by shard (a row group may straddle shards).
	l := f.C.layout()
	for i := 0; i < id.len(); {
		pos := int32(start) + int32(i)
		s := l.Of(pos)
		_, hi := l.Range(s)
		j := i + int(hi-pos)
		j = min(j, id.len())
		vb := &vertexBlock{IDs: ids{Str: id.Str}}
		for k := i; k < j; k++ {
			vb.Pos = append(vb.Pos, int32(start)+int32(k))
			vb.IDs.append(&id, k)
			vb.Ans = append(vb.Ans, ans[k])
		}
		toShard(int(s), vb.encode(tagInfo))
		i = j
	}
	return nil
}

func (f *readFn) edges(ctx context.Context, g int, errs *errSet, toJoin func(int, []byte)) error {
	t, err := openTable(ctx, f.C.Edges)
	if err != nil {
		return err
	}
	defer t.Close()
	sc, err := t.Column(f.C.Cols.Src)
	if err != nil {
		return err
	}
	dc, err := t.Column(f.C.Cols.Dst)
	if err != nil {
		return err
	}
	src, err := readIDs(t, sc, g, f.C.Vertices)
	if err := addInput(errs, fileEdges, 0, err); err != nil {
		return err
	}
	dst, err := readIDs(t, dc, g, f.C.Vertices)
	if err := addInput(errs, fileEdges, 1, err); err != nil {
		return err
	}
	start := t.Start(g)
	n := prefix(start, t.Start(g+1)-start, errs, fileEdges)
	if errs.best != nil {
		// Re-read without the failing column cut short: keep what is valid.
		n = min(n, int64(src.len()), int64(dst.len()))
	}
	buckets := make(map[int]*edgeBlock)
	for i := range int(n) {
		k := src.key(i).bucket(f.C.Buckets)
		eb := buckets[k]
		if eb == nil {
			eb = &edgeBlock{Src: ids{Str: src.Str}, Dst: ids{Str: dst.Str}}
			buckets[k] = eb
		}
		eb.Row = append(eb.Row, start+int64(i))
		eb.Src.append(&src, i)
		eb.Dst.append(&dst, i)
	}
	for _, k := range sortedKeys(buckets) {
		toJoin(k, buckets[k].encode())
	}
	return nil
}

func (f *readFn) hits(ctx context.Context, g int, errs *errSet, toJoin func(int, []byte)) error {
	t, err := openTable(ctx, f.C.Hitting)
	if err != nil {
		return err
	}
	defer t.Close()
	ic, err := t.Column(f.C.Cols.ID)
	if err != nil {
		return err
	}
	pc, err := t.Column(f.C.Cols.PTrue)
	if err != nil {
		return err
	}
	id, err := readIDs(t, ic, g, f.C.Vertices)
	if err := addInput(errs, fileHit, 0, err); err != nil {
		return err
	}
	pt, err := t.ReadPTrue(g, pc)
	if err := addInput(errs, fileHit, 1, err); err != nil {
		return err
	}
	start := t.Start(g)
	n := prefix(start, t.Start(g+1)-start, errs, fileHit)
	n = min(n, int64(id.len()), int64(len(pt)))
	buckets := make(map[int]*hitBlock)
	for i := range int(n) {
		k := id.key(i).bucket(f.C.Buckets)
		hb := buckets[k]
		if hb == nil {
			hb = &hitBlock{IDs: ids{Str: id.Str}}
			buckets[k] = hb
		}
		hb.Row = append(hb.Row, start+int64(i))
		hb.IDs.append(&id, i)
		hb.P = append(hb.P, pt[i])
	}
	for _, k := range sortedKeys(buckets) {
		toJoin(k, buckets[k].encode())
	}
	return nil
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// vertexBlock is a block of vertices: positions, ids, answers, and (after the first
// join) whether each is in the hitting set.
type vertexBlock struct {
	Pos []int32
	IDs ids
	Ans []bool
	Hit []bool
}

func (v *vertexBlock) encode(tag byte) []byte {
	e := enc{b: []byte{tag}}
	e.i32s(v.Pos)
	e.ids(&v.IDs)
	e.bools(v.Ans)
	e.bools(v.Hit)
	return e.b
}

func decodeVertexBlock(b []byte) (*vertexBlock, error) {
	d := dec{b: b[1:]}
	v := &vertexBlock{Pos: d.i32s(), IDs: d.ids(), Ans: d.bools(), Hit: d.bools()}
	return v, d.err
}

// edgeBlock is edge rows by id.
type edgeBlock struct {
	Row      []int64
	Src, Dst ids
}

func (x *edgeBlock) encode() []byte {
	e := enc{b: []byte{tagEdge}}
	e.i64s(x.Row)
	e.ids(&x.Src)
	e.ids(&x.Dst)
	return e.b
}

func decodeEdgeBlock(b []byte) (*edgeBlock, error) {
	d := dec{b: b[1:]}
	x := &edgeBlock{Row: d.i64s(), Src: d.ids(), Dst: d.ids()}
	return x, d.err
}

// hitBlock is hitting-set rows by id.
type hitBlock struct {
	Row []int64
	IDs ids
	P   []float64
}

func (x *hitBlock) encode() []byte {
	e := enc{b: []byte{tagHit}}
	e.i64s(x.Row)
	e.ids(&x.IDs)
	e.f64s(x.P)
	return e.b
}

func decodeHitBlock(b []byte) (*hitBlock, error) {
	d := dec{b: b[1:]}
	x := &hitBlock{Row: d.i64s(), IDs: d.ids(), P: d.f64s()}
	return x, d.err
}

// halfBlock is edge rows whose src is resolved, keyed by the dst's bucket.
type halfBlock struct {
	Row    []int64
	Src    []int32
	SrcAns []bool
	SrcHit []bool
	Dst    ids
}

func (x *halfBlock) encode() []byte {
	e := enc{b: []byte{tagHalf}}
	e.i64s(x.Row)
	e.i32s(x.Src)
	e.bools(x.SrcAns)
	e.bools(x.SrcHit)
	e.ids(&x.Dst)
	return e.b
}

func decodeHalfBlock(b []byte) (*halfBlock, error) {
	d := dec{b: b[1:]}
	x := &halfBlock{Row: d.i64s(), Src: d.i32s(), SrcAns: d.bools(), SrcHit: d.bools(), Dst: d.ids()}
	return x, d.err
}

// arcBlock is what one shard receives of the edges: arcs u → v for u in the shard
// and v in another, with v's answer and hit flag, and the edges (IU, IV) with both
// ends in the shard, sent once and without flags (the shard knows its vertices).
type arcBlock struct {
	U, V   []int32
	Ans    []bool
	Hit    []bool
	IU, IV []int32
}

func (x *arcBlock) encode() []byte {
	e := enc{b: []byte{tagArc}}
	e.i32s(x.U)
	e.i32s(x.V)
	e.bools(x.Ans)
	e.bools(x.Hit)
	e.i32s(x.IU)
	e.i32s(x.IV)
	return e.b
}

func decodeArcBlock(b []byte) (*arcBlock, error) {
	d := dec{b: b[1:]}
	x := &arcBlock{U: d.i32s(), V: d.i32s(), Ans: d.bools(), Hit: d.bools(), IU: d.i32s(), IV: d.i32s()}
	if d.err == nil && (len(x.V) != len(x.U) || len(x.Ans) != len(x.U) || len(x.Hit) != len(x.U) || len(x.IV) != len(x.IU)) {
		d.err = errCorrupt
	}
	return x, d.err
}

// hitInfo is resolved hitting-set vertices for one shard.
type hitInfo struct {
	Pos []int32
	Row []int64
	P   []float64
}

func (x *hitInfo) encode() []byte {
	e := enc{b: []byte{tagHit}}
	e.i32s(x.Pos)
	e.i64s(x.Row)
	e.f64s(x.P)
	return e.b
}

func decodeHitInfo(b []byte) (*hitInfo, error) {
	d := dec{b: b[1:]}
	x := &hitInfo{Pos: d.i32s(), Row: d.i64s(), P: d.f64s()}
	return x, d.err
}

// vref is a resolved id: its first position, answer and hit flag, and the second
// position it appears at (-1: none; a duplicate id).
type vref struct {
	pos, second int32
	ans, hit    bool
}

// idIndex resolves one join bucket's ids: a map per id type (a map keyed by both
// would hash a string for every integer id).
type idIndex struct {
	ints map[int64]vref
	strs map[string]vref
}

// newIDIndex indexes the vertex blocks of a bucket; an id's vref is its first
// position (ingest keeps the first of repeated ids), with the flags of that row.
func newIDIndex(str bool, vbs []*vertexBlock) idIndex {
	n := 0
	for _, vb := range vbs {
		n += len(vb.Pos)
	}
	var x idIndex
	if str {
		x.strs = make(map[string]vref, n)
	} else {
		x.ints = make(map[int64]vref, n)
	}
	for _, vb := range vbs {
		for i, p := range vb.Pos {
			r := vref{pos: p, second: -1, ans: vb.Ans[i]}
			if len(vb.Hit) == len(vb.Pos) { // after the first join
				r.hit = vb.Hit[i]
			}
			if old, ok := x.get(&vb.IDs, i); ok {
				// Keep the two least positions: "duplicate id (first at row …)"
				// names the earliest repetition.
				lo, hi := min(old.pos, p), max(old.pos, p)
				if old.second >= 0 {
					hi = min(hi, old.second)
				}
				if p < old.pos {
					old = r
				}
				old.pos, old.second = lo, hi
				r = old
			}
			x.set(&vb.IDs, i, r)
		}
	}
	return x
}

func (x idIndex) get(id *ids, i int) (vref, bool) {
	if x.strs != nil {
		r, ok := x.strs[id.S[i]]
		return r, ok
	}
	r, ok := x.ints[id.Int[i]]
	return r, ok
}

func (x idIndex) set(id *ids, i int, r vref) {
	if x.strs != nil {
		x.strs[id.S[i]] = r
	} else {
		x.ints[id.Int[i]] = r
	}
}

// setHit marks a known id as in the hitting set.
func (x idIndex) setHit(id *ids, i int) {
	r, _ := x.get(id, i)
	r.hit = true
	x.set(id, i, r)
}

// duplicates calls fn for every id that appears twice or more.
func (x idIndex) duplicates(fn func(id string, first, second int32)) {
	for s, r := range x.strs {
		if r.second >= 0 {
			fn(s, r.pos, r.second)
		}
	}
	for k, r := range x.ints {
		if r.second >= 0 {
			fn(strconv.FormatInt(k, 10), r.pos, r.second)
		}
	}
}

// twoLeast keeps the two smallest rows an id appears at (for "duplicate id (first at
// row …)", which names the earliest second occurrence).
type twoLeast struct{ a, b int64 }

func (t *twoLeast) add(r int64) {
	switch {
	case r < t.a:
		t.a, t.b = r, t.a
	case r < t.b:
		t.b = r
	}
}

// join1Fn resolves, in one id bucket, the hitting-set ids and the edges' src ids,
// and reports repeated vertex and hitting-set ids.
type join1Fn struct{ C Conf }

func (f *join1Fn) ProcessElement(ctx context.Context, bucket int, vals func(*[]byte) bool, toJoin2, toShard func(int, []byte)) error {
	var vbs []*vertexBlock
	var hbs []*hitBlock
	var ebs []*edgeBlock
	var b []byte
	for vals(&b) {
		var err error
		switch b[0] {
		case tagVertex:
			var x *vertexBlock
			x, err = decodeVertexBlock(b)
			vbs = append(vbs, x)
		case tagHit:
			var x *hitBlock
			x, err = decodeHitBlock(b)
			hbs = append(hbs, x)
		case tagEdge:
			var x *edgeBlock
			x, err = decodeEdgeBlock(b)
			ebs = append(ebs, x)
		}
		if err != nil {
			return err
		}
	}
	var errs errSet
	index := newIDIndex(f.C.StrIDs, vbs)
	index.duplicates(func(id string, first, second int32) {
		errs.add(fileVertices, 1, 0, ingest.DuplicateID(f.C.Vertices, int64(second), f.C.Cols.ID, id, int64(first)))
	})
	// Hitting-set rows: unknown ids, repeated vertices; resolved rows go to their shard.
	l := f.C.layout()
	hitRows := make(map[int32]*twoLeast)
	hitByShard := make(map[int]*hitInfo)
	for _, hb := range hbs {
		for i, row := range hb.Row {
			v, ok := index.get(&hb.IDs, i)
			if !ok {
				errs.add(fileHit, 0, 0, ingest.UnknownID(f.C.Hitting, row, f.C.Cols.ID, hb.IDs.text(i), f.C.Vertices))
				continue
			}
			if r, ok := hitRows[v.pos]; ok {
				r.add(row)
			} else {
				hitRows[v.pos] = &twoLeast{row, math.MaxInt64}
			}
			s := int(l.Of(v.pos))
			hi := hitByShard[s]
			if hi == nil {
				hi = &hitInfo{}
				hitByShard[s] = hi
			}
			hi.Pos = append(hi.Pos, v.pos)
			hi.Row = append(hi.Row, row)
			hi.P = append(hi.P, hb.P[i])
			index.setHit(&hb.IDs, i)
		}
	}
	for _, r := range hitRows {
		if r.b != math.MaxInt64 {
			// The id as the vertices file spells it: the same text for these id types.
			var text string
			for _, hb := range hbs {
				if i := slices.Index(hb.Row, r.b); i >= 0 {
					text = hb.IDs.text(i)
				}
			}
			errs.add(fileHit, 1, 0, ingest.DuplicateID(f.C.Hitting, r.b, f.C.Cols.ID, text, r.a))
		}
	}
	for _, s := range sortedKeys(hitByShard) {
		toShard(s, hitByShard[s].encode())
	}
	// Vertices go on to the second join with their hit flags.
	for _, vb := range vbs {
		vb.Hit = make([]bool, len(vb.Pos))
		for i := range vb.Pos {
			v, _ := index.get(&vb.IDs, i)
			vb.Hit[i] = v.hit
		}
		toJoin2(bucket, vb.encode(tagVertex))
	}
	// Edges: resolve src, send on to dst's bucket.
	out := make(map[int]*halfBlock)
	for _, eb := range ebs {
		for i, row := range eb.Row {
			v, ok := index.get(&eb.Src, i)
			if !ok {
				errs.add(fileEdges, 0, 0, ingest.UnknownID(f.C.Edges, row, f.C.Cols.Src, eb.Src.text(i), f.C.Vertices))
				continue
			}
			k := eb.Dst.key(i).bucket(f.C.Buckets)
			hb := out[k]
			if hb == nil {
				hb = &halfBlock{Dst: ids{Str: eb.Dst.Str}}
				out[k] = hb
			}
			hb.Row = append(hb.Row, row)
			hb.Src = append(hb.Src, v.pos)
			hb.SrcAns = append(hb.SrcAns, v.ans)
			hb.SrcHit = append(hb.SrcHit, v.hit)
			hb.Dst.append(&eb.Dst, i)
		}
	}
	for _, k := range sortedKeys(out) {
		toJoin2(k, out[k].encode())
	}
	return writeErrors(ctx, f.C.Staging, fmt.Sprintf("join1-%06d", bucket), &errs)
}

// join2Fn resolves the edges' dst ids in one bucket and sends both arcs of every
// edge to their tails' shards.
type join2Fn struct{ C Conf }

func (f *join2Fn) ProcessElement(ctx context.Context, bucket int, vals func(*[]byte) bool, toShard func(int, []byte)) error {
	var vbs []*vertexBlock
	var halves []*halfBlock
	var b []byte
	for vals(&b) {
		switch b[0] {
		case tagVertex:
			vb, err := decodeVertexBlock(b)
			if err != nil {
				return err
			}
			vbs = append(vbs, vb)
		case tagHalf:
			hb, err := decodeHalfBlock(b)
			if err != nil {
				return err
			}
			halves = append(halves, hb)
		}
	}
	index := newIDIndex(f.C.StrIDs, vbs)
	var errs errSet
	l := f.C.layout()
	out := make(map[int]*arcBlock)
	to := func(s int32) *arcBlock {
		ab := out[int(s)]
		if ab == nil {
			ab = &arcBlock{}
			out[int(s)] = ab
		}
		return ab
	}
	arc := func(u, v int32, ans, hit bool) {
		ab := to(l.Of(u))
		ab.U = append(ab.U, u)
		ab.V = append(ab.V, v)
		ab.Ans = append(ab.Ans, ans)
		ab.Hit = append(ab.Hit, hit)
	}
	var selfLoops int64
	for _, hb := range halves {
		for i, row := range hb.Row {
			d, ok := index.get(&hb.Dst, i)
			if !ok {
				errs.add(fileEdges, 0, 1, ingest.UnknownID(f.C.Edges, row, f.C.Cols.Dst, hb.Dst.text(i), f.C.Vertices))
				continue
			}
			u := hb.Src[i]
			if u == d.pos {
				selfLoops++
				continue
			}
			if su := l.Of(u); su == l.Of(d.pos) {
				ab := to(su)
				ab.IU = append(ab.IU, u)
				ab.IV = append(ab.IV, d.pos)
				continue
			}
			arc(u, d.pos, d.ans, d.hit)
			arc(d.pos, u, hb.SrcAns[i], hb.SrcHit[i])
		}
	}
	for _, s := range sortedKeys(out) {
		toShard(s, out[s].encode())
	}
	var e enc
	e.i64(selfLoops)
	if err := writeBlob(ctx, join(f.C.Staging, "stats", fmt.Sprintf("join2-%06d", bucket)), e.b); err != nil {
		return err
	}
	return writeErrors(ctx, f.C.Staging, fmt.Sprintf("join2-%06d", bucket), &errs)
}

// shardStats is what one shard reports after the build.
type shardStats struct {
	Kept, Boundary, Uncovered int64
	First                     []uncovered // the shard's first List uncovered edges (U < V)
	Hits                      int64
}

type uncovered struct {
	U, V       int32
	AnsU, AnsV bool
	IDU        string
}

func (s *shardStats) encode() []byte {
	var e enc
	e.i64(s.Kept)
	e.i64(s.Boundary)
	e.i64(s.Uncovered)
	e.u64(uint64(len(s.First)))
	for _, x := range s.First {
		e.i64(int64(x.U))
		e.i64(int64(x.V))
		e.bool(x.AnsU)
		e.bool(x.AnsV)
		e.str(x.IDU)
	}
	e.i64(s.Hits)
	return e.b
}

func decodeShardStats(b []byte) (*shardStats, error) {
	d := dec{b: b}
	s := &shardStats{Kept: d.i64(), Boundary: d.i64(), Uncovered: d.i64()}
	s.First = make([]uncovered, d.count())
	for i := range s.First {
		s.First[i] = uncovered{U: int32(d.i64()), V: int32(d.i64()), AnsU: d.bool(), AnsV: d.bool(), IDU: d.str()}
	}
	s.Hits = d.i64()
	return s, d.err
}

// shardFn assembles one shard: its CSR block (graph.BuildShard: graph doc.go
// invariant 3), ids, answers, hitting-set entries and round 0; it checks the shard's
// boundary edges (u < v, u in the shard) against the hitting set.
type shardFn struct{ C Conf }

func (f *shardFn) ProcessElement(ctx context.Context, s int, elems func(*[]byte) bool) error {
	l := f.C.layout()
	lo, hi := l.Range(int32(s))
	n := int(hi - lo)
	st := &state{block: &block{}, info: &info{IDs: ids{Str: f.C.StrIDs}, Answer: make([]bool, n)}, vals: &vals{}}
	if st.IDs.Str {
		st.IDs.S = make([]string, n)
	} else {
		st.IDs.Int = make([]int64, n)
	}
	isHit := make([]bool, n)
	var arcs []*arcBlock
	var hits []*hitInfo
	var b []byte
	for elems(&b) {
		switch b[0] {
		case tagInfo:
			vb, err := decodeVertexBlock(b)
			if err != nil {
				return err
			}
			for i, p := range vb.Pos {
				st.Answer[p-lo] = vb.Ans[i]
				if st.IDs.Str {
					st.IDs.S[p-lo] = vb.IDs.S[i]
				} else {
					st.IDs.Int[p-lo] = vb.IDs.Int[i]
				}
			}
		case tagArc:
			ab, err := decodeArcBlock(b)
			if err != nil {
				return err
			}
			arcs = append(arcs, ab)
		case tagHit:
			hb, err := decodeHitInfo(b)
			if err != nil {
				return err
			}
			hits = append(hits, hb)
		}
	}
	// Hitting-set entries in position order.
	type hrow struct {
		pos int32
		row int64
		p   float64
	}
	var hs []hrow
	for _, h := range hits {
		for i, p := range h.Pos {
			hs = append(hs, hrow{p, h.Row[i], h.P[i]})
		}
	}
	slices.SortFunc(hs, func(a, b hrow) int {
		if a.pos != b.pos {
			return int(a.pos - b.pos)
		}
		return int(a.row - b.row)
	})
	for _, h := range hs {
		if isHit[h.pos-lo] {
			continue // a repeated vertex: rejected (join1); keep the state well-formed
		}
		isHit[h.pos-lo] = true
		st.HitPos = append(st.HitPos, h.pos)
		st.HitRow = append(st.HitRow, h.row)
		st.HitP = append(st.HitP, h.p)
		st.HitOne = append(st.HitOne, poneOf(st.Answer[h.pos-lo], h.p))
	}
	// The CSR block: graph.BuildShard, the single-machine build's code, on the
	// shard's arcs (both directions of its inner edges). Neighbours in other
	// shards bring their answer and hit flag along.
	type flags struct{ ans, hit bool }
	total := 0
	for _, ab := range arcs {
		total += len(ab.U) + 2*len(ab.IU)
	}
	tail, head := make([]int32, 0, total), make([]int32, 0, total)
	outer := make(map[int32]flags)
	for _, ab := range arcs {
		tail, head = append(tail, ab.U...), append(head, ab.V...)
		for i, v := range ab.V {
			outer[v] = flags{ab.Ans[i], ab.Hit[i]}
		}
		tail, head = append(tail, ab.IU...), append(head, ab.IV...)
		tail, head = append(tail, ab.IV...), append(head, ab.IU...)
	}
	arcs = nil
	sh, err := graph.BuildShard(lo, n, tail, head)
	if err != nil {
		return err
	}
	tail, head = nil, nil
	st.Shard = *sh
	stats := shardStats{}
	var hc check.HitCheck // check.Hitting's count, on the shard's edges u < v
	for i := range n {
		u := lo + int32(i)
		for _, v := range sh.Neighbours(i) {
			if v <= u {
				continue
			}
			stats.Kept++
			fv := outer[v]
			if v < hi {
				fv = flags{st.Answer[v-lo], isHit[v-lo]}
			}
			if hc.Edge(u, v, st.Answer[i], fv.ans, isHit[i], fv.hit, f.C.List) {
				stats.First = append(stats.First, uncovered{U: u, V: v, AnsU: st.Answer[i], AnsV: fv.ans, IDU: st.IDs.text(i)})
			}
		}
	}
	stats.Boundary, stats.Uncovered = hc.Boundary, hc.Uncovered
	pair, err := f.C.pair()
	if err != nil {
		return err
	}
	for ci, one := range []bool{false, true} {
		st.Cur[ci] = bfs.NewPass(pair, one).NoneBlock(n)
	}
	stats.Hits = int64(len(st.HitPos))
	if err := writeBlob(ctx, join(f.C.Staging, "stats", fmt.Sprintf("shard-%06d", s)), stats.encode()); err != nil {
		return err
	}
	// Round 0: the graph and the vertices' info once, the candidates None, and a
	// token that seeds the hitting set in round 1.
	for _, w := range []struct {
		path string
		b    []byte
	}{{blockFile(f.C.Staging, s), st.block.encode()}, {infoFile(f.C.Staging, s), st.info.encode()}, {valsFile(f.C.Staging, 0, s), st.vals.encode()}} {
		if err := writeBlob(ctx, w.path, w.b); err != nil {
			return err
		}
	}
	// A worker that keeps its cache between stages settles round 1 without reading
	// them back.
	keepBlock(blockFile(f.C.Staging, s), st.block)
	putVals(f.C.Staging, 0, s, st.vals)
	return writePending(ctx, f.C.Staging, 0, s, &token{Own: true}, nil)
}
