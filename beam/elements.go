package beam

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
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
	tagArcFile  byte = 'B' // shards: the number of a split that staged its arc block (broadcast.go)
	tagToken    byte = 'T' // rounds: a shard's token to itself (rounds.go)
	tagOffers   byte = 'O' // shards: offers for the next round
	tagStaged   byte = 'R' // shards: offers for the next round left in staging (offers.go, sendOffers)
	tagNeighbor byte = 'P' // shards: p_one of neighbours (audit)
)

// A shard lives in staging as three files (rounds.go): its block, written once by
// the build and only read after (the graph stays put); its info, read by the finish
// and the launcher; and its candidates, a new version each round it changes.

// block is a shard's CSR block (graph doc.go invariant 1 restricted to the shard) and
// its hitting-set vertices (ascending).
type block struct {
	Shard  graph.Shard
	HitPos []int32
	HitAns []bool // the hitting set's answers (in HitPos order): a repair needs them (bfs.Pass.Repaired)

	// The shard's cut arcs on dense indices (bfs.Cut), numbered once per block: on
	// first use, and kept with the block in the worker cache.
	cutOnce sync.Once
	cut     *bfs.Cut
	cutErr  error
}

// cutOf is b's bfs.Cut in layout l.
func (b *block) cutOf(l graph.Layout) (*bfs.Cut, error) {
	b.cutOnce.Do(func() { b.cut, b.cutErr = bfs.NewCut(l, &b.Shard) })
	return b.cut, b.cutErr
}

// info is what the output and the messages need of a shard's vertices: ids,
// answers, and the hitting-set rows and given p_true (in HitPos order).
type info struct {
	IDs    ids
	Answer []bool
	HitRow []int64
	HitP   []float64
}

// vals is a shard's solution as of a round: its hitting-set values as solved
// (exactOf(answer, HitP) until a within-tolerance repair moves one onto its bound:
// bfs.Solve's repair) and both colours' candidates.
type vals struct {
	HitOne []float64
	Cur    [2][]bfs.Cand
}

// state is a whole shard, for the stages that need all of it (finish).
type state struct {
	*block
	*info
	*vals
}

func (b *block) encode() []byte {
	var e enc
	e.i64(int64(b.Shard.Lo))
	e.i64s(b.Shard.Off)
	e.i32s(b.Shard.Adj)
	e.i32s(b.HitPos)
	e.bools(b.HitAns)
	return e.b
}

func decodeBlock(b []byte) (*block, error) {
	d := dec{b: b}
	x := &block{}
	x.Shard.Lo = int32(d.i64())
	x.Shard.Off = d.i64s()
	x.Shard.Adj = d.i32s()
	x.HitPos = d.i32s()
	x.HitAns = d.bools()
	if d.err != nil {
		return nil, d.err
	}
	if len(x.HitAns) != len(x.HitPos) {
		return nil, fmt.Errorf("beam: shard at %d: inconsistent block", x.Shard.Lo)
	}
	if n := x.Shard.Len(); n < 0 || x.Shard.Off[0] != 0 || x.Shard.Off[n] != int64(len(x.Shard.Adj)) {
		return nil, fmt.Errorf("beam: shard at %d: inconsistent block", x.Shard.Lo)
	}
	return x, nil
}

// bytes is the block's size in memory (the worker cache's budget).
func (b *block) bytes() int64 {
	n := int64(8*len(b.Shard.Off) + 4*len(b.Shard.Adj) + 5*len(b.HitPos))
	if b.cut != nil {
		n += b.cut.Bytes()
	}
	return n
}

func (x *info) encode() []byte {
	var e enc
	e.ids(&x.IDs)
	e.bools(x.Answer)
	e.i64s(x.HitRow)
	e.f64s(x.HitP)
	return e.b
}

func decodeInfo(b []byte) (*info, error) {
	d := dec{b: b}
	x := &info{}
	x.IDs = d.ids()
	x.Answer = d.bools()
	x.HitRow = d.i64s()
	x.HitP = d.f64s()
	if d.err == nil && (x.IDs.len() != len(x.Answer) || len(x.HitRow) != len(x.HitP)) {
		d.err = errCorrupt
	}
	return x, d.err
}

func (v *vals) encode() []byte {
	var e enc
	e.f64s(v.HitOne)
	e.candRuns(v.Cur[0])
	e.candRuns(v.Cur[1])
	return e.b
}

// candRuns writes cs as runs of equal candidates (count, candidate): a shard no
// offer reached yet — all of it after the build or a repair — is one run of None.
func (e *enc) candRuns(cs []bfs.Cand) {
	e.u64(uint64(len(cs)))
	e.b = slices.Grow(e.b, 20*len(cs))
	for i := 0; i < len(cs); {
		j := i + 1
		for j < len(cs) && sameBits(cs[j], cs[i]) {
			j++
		}
		e.u64(uint64(j - i))
		c := cs[i]
		e.f64(c.Value)
		e.f64(c.A)
		e.i64(int64(c.Bind))
		e.i64(int64(c.Dist))
		i = j
	}
}

// sameBits compares candidates bit for bit (== would merge −0 with +0).
func sameBits(a, b bfs.Cand) bool {
	return math.Float64bits(a.Value) == math.Float64bits(b.Value) && math.Float64bits(a.A) == math.Float64bits(b.A) &&
		a.Bind == b.Bind && a.Dist == b.Dist
}

func (d *dec) candRuns() []bfs.Cand {
	n := d.u64()
	if n > 1<<31 {
		d.fail()
		return nil
	}
	cs := make([]bfs.Cand, 0, n)
	for uint64(len(cs)) < n && d.err == nil {
		run := d.u64()
		c := bfs.Cand{Value: d.f64(), A: d.f64(), Bind: int32(d.i64()), Dist: int32(d.i64())}
		if run == 0 || run > n-uint64(len(cs)) {
			d.fail()
			break
		}
		for range run {
			cs = append(cs, c)
		}
	}
	return cs
}

func decodeVals(b []byte) (*vals, error) {
	d := dec{b: b}
	v := &vals{}
	v.HitOne = d.f64s()
	v.Cur[0] = d.candRuns()
	v.Cur[1] = d.candRuns()
	if d.err == nil && len(v.Cur[0]) != len(v.Cur[1]) {
		d.err = errCorrupt
	}
	return v, d.err
}

// check reports a block, info and vals that do not belong together.
func (st *state) check() error {
	n := st.Shard.Len()
	if len(st.Answer) != n || len(st.Cur[0]) != n || len(st.HitRow) != len(st.HitPos) || len(st.HitOne) != len(st.HitPos) {
		return fmt.Errorf("beam: shard at %d: inconsistent state", st.Shard.Lo)
	}
	return nil
}

// excessOf is what a shard knows of its hitting-set values against the bounds the
// converged rounds give them (bfs.Excess.Add; the launcher sums the shards').
func excessOf(pair dp.Pair, b *block, v *vals) bfs.Excess {
	var x bfs.Excess
	for ci, one := range []bool{false, true} {
		p := bfs.NewPass(pair, one)
		for j, h := range b.HitPos {
			x.Add(p, v.HitOne[j], v.Cur[ci][h-b.Shard.Lo].Value)
		}
	}
	return x
}

// exactOf is a hitting-set vertex's exact value from its given p_true.
var exactOf = dp.ExactOfPTrue

// encodeOffers encodes one colour's offers to one shard: the frontier on the wire.
// Vertices ascend, so they are sent as varint gaps; binding vertices and distances
// as varints. A candidate's value and source value repeat across a message (the value
// is Step^Dist of the source value, and source values are the hitting set's pass
// values, often a handful), so when the distinct pairs are at most half the offers
// they go once, in a table, and each offer names its pair by index (about 6 bytes an
// offer instead of 21); otherwise each offer carries its two float64s.
func encodeOffers(one bool, o bfs.Offers) []byte {
	var e enc
	e.b = slices.Grow(e.b, 16+6*len(o.V))
	e.b = append(e.b, tagOffers)
	pairs, idx := valuePairs(o.C)
	flags := byte(0)
	if one {
		flags |= 1
	}
	if idx != nil {
		flags |= 2
	}
	e.b = append(e.b, flags)
	e.i64(int64(o.To))
	e.i64(int64(o.From))
	e.u64(uint64(len(o.V)))
	prev := int32(0)
	for _, v := range o.V {
		e.u64(uint64(v - prev))
		prev = v
	}
	if idx != nil {
		e.u64(uint64(len(pairs)))
		for _, p := range pairs {
			e.b = binary.LittleEndian.AppendUint64(e.b, p[0])
			e.b = binary.LittleEndian.AppendUint64(e.b, p[1])
		}
		for _, k := range idx {
			e.u64(uint64(k))
		}
	} else {
		for _, c := range o.C {
			e.f64(c.Value)
			e.f64(c.A)
		}
	}
	for _, c := range o.C {
		e.u64(uint64(c.Bind))
		e.u64(uint64(c.Dist))
	}
	return e.b
}

// valuePairs is the table of distinct (value, source value) pairs of cs, by their
// bits, and each candidate's index in it; idx is nil when the pairs are more than
// half the candidates (a table would not pay). The pairs are found through an
// open-addressing table of their indices (a Go map cost 17 ns an offer here).
func valuePairs(cs []bfs.Cand) (pairs [][2]uint64, idx []uint32) {
	limit := len(cs) / 2
	if limit == 0 {
		return nil, nil
	}
	slot := make([]uint32, 64) // index in pairs + 1; 0: empty
	idx = make([]uint32, len(cs))
	last, lastK := [2]uint64{}, uint32(0)
	for j, c := range cs {
		key := [2]uint64{math.Float64bits(c.Value), math.Float64bits(c.A)}
		if j > 0 && key == last {
			idx[j] = lastK
			continue
		}
		mask := uint64(len(slot) - 1)
		h := (key[0]*0x9e3779b97f4a7c15 ^ key[1]*0xc2b2ae3d27d4eb4f) >> 32
		for ; slot[h&mask] != 0 && pairs[slot[h&mask]-1] != key; h++ {
		}
		k := slot[h&mask]
		if k == 0 {
			if len(pairs) == limit {
				return nil, nil
			}
			pairs = append(pairs, key)
			k = uint32(len(pairs))
			slot[h&mask] = k
			if 2*len(pairs) > len(slot) { // at most half full
				slot = rehash(pairs, 2*len(slot))
			}
		}
		idx[j], last, lastK = k-1, key, k-1
	}
	return pairs, idx
}

// rehash is valuePairs' table of pairs with n slots.
func rehash(pairs [][2]uint64, n int) []uint32 {
	slot := make([]uint32, n)
	mask := uint64(n - 1)
	for k, key := range pairs {
		h := (key[0]*0x9e3779b97f4a7c15 ^ key[1]*0xc2b2ae3d27d4eb4f) >> 32
		for ; slot[h&mask] != 0; h++ {
		}
		slot[h&mask] = uint32(k + 1)
	}
	return slot
}

func decodeOffers(b []byte) (bool, bfs.Offers, error) {
	d := dec{b: b[1:]}
	if len(d.b) == 0 {
		return false, bfs.Offers{}, errCorrupt
	}
	flags := d.b[0]
	d.b = d.b[1:]
	one, table := flags&1 != 0, flags&2 != 0
	o := bfs.Offers{To: int32(d.i64()), From: int32(d.i64())}
	n := d.count()
	if d.err != nil || flags > 3 {
		return false, o, errCorrupt
	}
	o.V = make([]int32, n)
	o.C = make([]bfs.Cand, n)
	// The columns, from one slice with an index: a one-byte varint (most of an
	// offer's fields) is read inline (uvarintAt).
	buf, i := d.b, 0
	var x, prev uint64
	for k := range o.V {
		if x, i = uvarintAt(buf, i); i < 0 {
			return false, o, errCorrupt
		}
		prev += x
		o.V[k] = int32(prev)
	}
	f64 := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(buf[i:])) }
	if table {
		var np uint64
		if np, i = uvarintAt(buf, i); i < 0 || np > uint64(len(buf)-i)/16 {
			return false, o, errCorrupt
		}
		pairs := make([][2]float64, np)
		for k := range pairs {
			pairs[k] = [2]float64{f64(i), f64(i + 8)}
			i += 16
		}
		for k := range o.C {
			if x, i = uvarintAt(buf, i); i < 0 || x >= np {
				return false, o, errCorrupt
			}
			o.C[k].Value, o.C[k].A = pairs[x][0], pairs[x][1]
		}
	} else {
		if uint64(len(buf)-i)/16 < uint64(n) {
			return false, o, errCorrupt
		}
		for k := range o.C {
			o.C[k].Value, o.C[k].A = f64(i), f64(i+8)
			i += 16
		}
	}
	var bind, dist uint64
	for k := range o.C {
		if bind, i = uvarintAt(buf, i); i < 0 {
			return false, o, errCorrupt
		}
		if dist, i = uvarintAt(buf, i); i < 0 || bind > math.MaxInt32 || dist > math.MaxInt32 {
			return false, o, errCorrupt
		}
		o.C[k].Bind, o.C[k].Dist = int32(bind), int32(dist)
	}
	if i != len(buf) {
		return false, o, errCorrupt
	}
	return one, o, nil
}

// uvarintAt reads the varint at b[i:] and returns it with the index after it, or
// i < 0 when b holds none there.
func uvarintAt(b []byte, i int) (uint64, int) {
	if i < len(b) && b[i] < 0x80 {
		return uint64(b[i]), i + 1
	}
	x, n := binary.Uvarint(b[min(i, len(b)):])
	if n <= 0 {
		return 0, -1
	}
	return x, i + n
}
