package beam

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
