package beam

import (
	"encoding/binary"
	"slices"
)

// Block codecs of the build stage: what the read and join DoFns send each other and
// the shards (vertex, edge, hit, half-edge and arc blocks, and one hitting-set entry).

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

// An arc block is what one shard receives of one split's edges: arcs u → v for u in
// the shard and v in another, with v's answer and hit flag, and the edges with both
// ends in the shard, sent once and without flags (the shard knows its vertices).
// Both lists come ordered by tail (a counting sort over the shard's positions), so a
// tail crosses as a gap of a byte, where in row order it took three:
//
//	tag, cut arcs, inner edges, tails, heads, answers, hit flags, inner tails, inner heads
//
// The answers and hit flags are empty when the shard reads them from the broadcast
// index (wholeIndex.flags).
//
// The shard decodes the columns straight into the arrays graph.BuildShard reads
// (decodeArcs), with both directions of each inner edge.

// arcScratch is a sink's buffers for ordering one shard's arcs by tail.
type arcScratch struct {
	cnt    []int32
	u, v   []int32
	f      []uint8
	iu, iv []int32
}

// byTail writes the arcs (tail, head, and f unless nil) ordered by tail into ts, hs
// and fs: a stable counting sort, cnt one longer than the shard's positions from lo.
func byTail(cnt []int32, lo int32, tail, head []int32, f []uint8, ts, hs []int32, fs []uint8) {
	clear(cnt)
	for _, t := range tail {
		cnt[t-lo+1]++
	}
	for i := 1; i < len(cnt); i++ {
		cnt[i] += cnt[i-1]
	}
	for i, t := range tail {
		j := cnt[t-lo]
		cnt[t-lo]++
		ts[j], hs[j] = t, head[i]
		if f != nil {
			fs[j] = f[i]
		}
	}
}

// encode is shard sa's arc block (n positions from lo).
func (x *arcScratch) encode(sa *shardArcs, lo int32, n int) []byte {
	nc, ni := sa.nc, sa.ni
	x.cnt = grow(x.cnt, n+1)
	x.u, x.v, x.iu, x.iv = grow(x.u, nc), grow(x.v, nc), grow(x.iu, ni), grow(x.iv, ni)
	var f []uint8
	if sa.cf != nil {
		f, x.f = sa.cf[:nc], grow(x.f, nc)
	}
	byTail(x.cnt, lo, sa.cu[:nc], sa.cv[:nc], f, x.u, x.v, x.f)
	byTail(x.cnt, lo, sa.iu[:ni], sa.iv[:ni], nil, x.iu, x.iv, nil)
	e := enc{b: make([]byte, 0, 16+4*nc+6*ni)}
	e.b = append(e.b, tagArc)
	e.u64(uint64(nc))
	e.u64(uint64(ni))
	e.i32s(x.u)
	e.i32s(x.v)
	if f != nil {
		e.flagBits(x.f, flagAns)
		e.flagBits(x.f, flagHit)
	} else { // the shard reads its neighbours' flags from the whole index
		e.u64(0)
		e.u64(0)
	}
	e.i32s(x.iu)
	e.i32s(x.iv)
	return e.b
}

// grow is xs resized to n (its contents undefined).
func grow[T any](xs []T, n int) []T { return slices.Grow(xs[:0], n)[:n] }

// flagBits writes bit of each of fs as bools writes a []bool.
func (e *enc) flagBits(fs []uint8, bit uint8) {
	e.u64(uint64(len(fs)))
	for i := 0; i < len(fs); i += 8 {
		var c byte
		for j, f := range fs[i:min(i+8, len(fs))] {
			if f&bit != 0 {
				c |= 1 << j
			}
		}
		e.b = append(e.b, c)
	}
}

// arcCounts reads an arc block's numbers of cut arcs and inner edges.
func arcCounts(b []byte) (cut, inner int, err error) {
	d := dec{b: b[1:]}
	cut, inner = d.count(), d.count()
	return cut, inner, d.err
}

// cutArcs is the cut arcs of one arc block, as the shard keeps them for its
// neighbours' flags: their heads (in the shard's head array) and the answer and hit
// bits, packed as the block carries them (nil: not carried).
type cutArcs struct {
	heads    []int32
	ans, hit []byte
}

func bitAt(bs []byte, i int) bool { return bs[i/8]>>(i%8)&1 == 1 }

// decodeArcs decodes arc block b into tail and head (which have room for its cut
// arcs and both arcs of each inner edge) and returns how many arcs it wrote.
func decodeArcs(b []byte, tail, head []int32) (int, cutArcs, error) {
	d := dec{b: b[1:]}
	nc, ni := d.count(), d.count()
	if d.err != nil || nc+2*ni > len(tail) || len(tail) != len(head) {
		return 0, cutArcs{}, errCorrupt
	}
	d.gapsInto(tail[:nc])
	d.gapsInto(head[:nc])
	c := cutArcs{heads: head[:nc], ans: d.bitBytes(nc), hit: d.bitBytes(nc)}
	if (c.ans == nil) != (c.hit == nil) {
		d.fail() // both flag columns or neither
	}
	d.gapsInto(tail[nc : nc+ni])
	d.gapsInto(head[nc : nc+ni])
	if d.err != nil {
		return 0, cutArcs{}, d.err
	}
	copy(tail[nc+ni:nc+2*ni], head[nc:nc+ni])
	copy(head[nc+ni:nc+2*ni], tail[nc:nc+ni])
	return nc + 2*ni, c, nil
}

// gapsInto reads a column written by i32s into xs, which must be its length. The
// varints of one to three bytes (every gap below 2^20: all of a shard's arcs up to
// 10^6 vertices) are read inline.
func (d *dec) gapsInto(xs []int32) {
	if d.u64() != uint64(len(xs)) {
		d.fail()
		return
	}
	b, j, prev := d.b, 0, int64(0)
	for i := range xs {
		var u uint64
		switch {
		case j < len(b) && b[j] < 0x80:
			u = uint64(b[j])
			j++
		case j+1 < len(b) && b[j+1] < 0x80:
			u = uint64(b[j]&0x7f) | uint64(b[j+1])<<7
			j += 2
		case j+2 < len(b) && b[j+2] < 0x80:
			u = uint64(b[j]&0x7f) | uint64(b[j+1]&0x7f)<<7 | uint64(b[j+2])<<14
			j += 3
		default:
			var n int
			if u, n = binary.Uvarint(b[j:]); n <= 0 {
				d.fail()
				clear(xs)
				return
			}
			j += n
		}
		prev += int64(u>>1) ^ -int64(u&1) // zig-zag
		xs[i] = int32(prev)
	}
	d.b = b[j:]
}

// bitBytes reads a column written by bools of n flags, as its packed bytes, or
// an empty column (nil).
func (d *dec) bitBytes(n int) []byte {
	m := d.u64()
	if m == 0 {
		return nil
	}
	if m != uint64(n) || (n+7)/8 > len(d.b) {
		d.fail()
		return nil
	}
	bs := d.b[:(n+7)/8]
	d.b = d.b[(n+7)/8:]
	return bs
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
