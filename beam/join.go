package beam

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/graphdp/graphdp/graph"
)

// join1Fn resolves, in one id bucket, the hitting-set ids and the edges' src ids,
// and reports repeated vertex and hitting-set ids.
type join1Fn struct{ C Conf }

func (f *join1Fn) ProcessElement(ctx context.Context, bucket int, vals func(*[]byte) bool, toJoin2, toShard func(int, []byte)) error {
	ctx = f.C.context(ctx)
	vbs, hbs, ebs, err := collectJoin1(vals)
	if err != nil {
		return err
	}
	var errs errSet
	index := newIDIndex(f.C.StrIDs, vbs)
	index.duplicates(func(id string, first, second int32) {
		errs.add(fileVertices, 1, int64(second), 0, f.C.Tables[fileVertices].Parts.DuplicateID(int64(second), f.C.Cols.ID, id, int64(first)))
	})
	hitByShard := f.resolveHits(index, hbs, &errs)
	for _, s := range sortedKeys(hitByShard) {
		toShard(s, hitByShard[s].encode())
	}
	// Vertices go on to the second join with their hit flags, or to the broadcast
	// index (broadcast.go), and a token says this bucket's part is written.
	for _, vb := range vbs {
		vb.Hit = make([]bool, len(vb.Pos))
		for i := range vb.Pos {
			v, _ := index.get(&vb.IDs, i)
			vb.Hit[i] = v.hit
		}
		if !f.C.Broadcast {
			toJoin2(bucket, vb.encode(tagVertex))
		}
	}
	if f.C.Broadcast {
		if err := writeIndex(ctx, f.C.Staging, bucket, vbs); err != nil {
			return err
		}
		toJoin2(0, nil)
	}
	for k, hb := range f.resolveSrc(index, ebs, &errs) {
		if hb != nil {
			toJoin2(k, hb.encode())
		}
	}
	return writeErrors(ctx, f.C.Staging, fmt.Sprintf("join1-%06d", bucket), &errs)
}

// collectJoin1 decodes a bucket's grouped vertex, hitting-set and edge blocks.
func collectJoin1(vals func(*[]byte) bool) (vbs []*vertexBlock, hbs []*hitBlock, ebs []*edgeBlock, err error) {
	var b []byte
	for vals(&b) {
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
			return nil, nil, nil, err
		}
	}
	return vbs, hbs, ebs, nil
}

// resolveHits resolves the bucket's hitting-set rows against index: an unknown id
// and a repeated vertex are input errors; the resolved rows are returned by the shard
// they go to, and their vertices are marked hit in index.
func (f *join1Fn) resolveHits(index idIndex, hbs []*hitBlock, errs *errSet) map[int]*hitInfo {
	l := f.C.layout()
	hitRows := make(map[int32]*twoLeast)
	hitByShard := make(map[int]*hitInfo)
	for _, hb := range hbs {
		for i, row := range hb.Row {
			v, ok := index.get(&hb.IDs, i)
			if !ok {
				errs.add(fileHit, 0, row, 0, f.C.Tables[fileHit].Parts.UnknownID(row, f.C.Cols.ID, hb.IDs.text(i), f.C.vertexFile()))
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
			errs.add(fileHit, 1, r.b, 0, f.C.Tables[fileHit].Parts.DuplicateID(r.b, f.C.Cols.ID, text, r.a))
		}
	}
	return hitByShard
}

// resolveSrc resolves the edges' src ids against index (an unknown one is an input
// error) and returns the half edges by the bucket of their dst id (nil: none), where
// join2 resolves it.
func (f *join1Fn) resolveSrc(index idIndex, ebs []*edgeBlock, errs *errSet) []*halfBlock {
	out := make([]*halfBlock, f.C.Buckets)
	for _, eb := range ebs {
		for i, row := range eb.Row {
			v, ok := index.get(&eb.Src, i)
			if !ok {
				errs.add(fileEdges, 0, row, 0, f.C.Tables[fileEdges].Parts.UnknownID(row, f.C.Cols.Src, eb.Src.text(i), f.C.vertexFile()))
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
	return out
}

// join2Fn resolves the edges' dst ids in one bucket and sends both arcs of every
// edge to their tails' shards.
type join2Fn struct{ C Conf }

func (f *join2Fn) ProcessElement(ctx context.Context, bucket int, vals func(*[]byte) bool, toShard func(int, []byte)) error {
	ctx = f.C.context(ctx)
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
	rows := 0
	for _, hb := range halves {
		rows += len(hb.Row)
	}
	a := newArcSink(f.C.layout(), rows, true)
	for _, hb := range halves {
		for i, row := range hb.Row {
			d, ok := index.get(&hb.Dst, i)
			if !ok {
				errs.add(fileEdges, 0, row, 1, f.C.Tables[fileEdges].Parts.UnknownID(row, f.C.Cols.Dst, hb.Dst.text(i), f.C.vertexFile()))
				continue
			}
			a.edge(hb.Src[i], hb.SrcAns[i], hb.SrcHit[i], d)
		}
	}
	a.emit(toShard)
	if err := writeSelfLoops(ctx, f.C.Staging, fmt.Sprintf("join2-%06d", bucket), a.selfLoops); err != nil {
		return err
	}
	return writeErrors(ctx, f.C.Staging, fmt.Sprintf("join2-%06d", bucket), &errs)
}

// arcSink collects resolved edges by the shard they go to: an edge inside a shard
// once (its inner edges), a cut edge as both its arcs, each with its head's answer
// and hit flag; self-loops are only counted. emit sends each shard one arc block,
// its arcs ordered by tail (blocks.go: the tails cross as gaps of a byte).
type arcSink struct {
	l         graph.Layout
	out       []*shardArcs // by shard (nil: no arcs)
	per       int          // the first allocation of a shard's columns
	flags     bool         // cut arcs carry their heads' flags (else the shards read the whole index's)
	selfLoops int64
	scratch   arcScratch
}

// shardArcs is one shard's part of a split: cut arcs (tail, head, head's flags) and
// inner edges, written by index into columns that grow by doubling (an append would
// store each slice's header back into the heap: a write barrier an arc while the
// collector runs).
type shardArcs struct {
	nc, ni int
	cu, cv []int32
	cf     []uint8 // flagAns, flagHit of the head
	iu, iv []int32
}

// newArcSink is a sink for about rows edge rows, its cut arcs with their heads'
// flags or not.
func newArcSink(l graph.Layout, rows int, flags bool) *arcSink {
	return &arcSink{l: l, out: make([]*shardArcs, l.Shards()), per: 2*rows/int(l.Shards()) + 64, flags: flags}
}

func (a *arcSink) to(s int32) *shardArcs {
	sa := a.out[s]
	if sa == nil {
		sa = &shardArcs{}
		a.out[s] = sa
	}
	return sa
}

// more is xs (all used) grown: to n slots at first, then twice as many.
func more[T any](xs []T, n int) []T {
	n = max(n, 2*len(xs))
	return slices.Grow(xs, n-len(xs))[:n]
}

func (a *arcSink) arc(u, v int32, f uint8) {
	sa := a.to(a.l.Of(u))
	if sa.nc == len(sa.cu) {
		sa.cu, sa.cv = more(sa.cu, a.per), more(sa.cv, a.per)
		if a.flags {
			sa.cf = more(sa.cf, a.per)
		}
	}
	sa.cu[sa.nc], sa.cv[sa.nc] = u, v
	if a.flags {
		sa.cf[sa.nc] = f
	}
	sa.nc++
}

func flagsOf(ans, hit bool) uint8 {
	var f uint8
	if ans {
		f |= flagAns
	}
	if hit {
		f |= flagHit
	}
	return f
}

// edge adds the edge from u (with its answer and hit flag) to d.
func (a *arcSink) edge(u int32, uAns, uHit bool, d vref) {
	if u == d.pos {
		a.selfLoops++
		return
	}
	if su := a.l.Of(u); su == a.l.Of(d.pos) {
		sa := a.to(su)
		if sa.ni == len(sa.iu) {
			sa.iu, sa.iv = more(sa.iu, a.per/4), more(sa.iv, a.per/4)
		}
		sa.iu[sa.ni], sa.iv[sa.ni] = u, d.pos
		sa.ni++
		return
	}
	a.arc(u, d.pos, flagsOf(d.ans, d.hit))
	a.arc(d.pos, u, flagsOf(uAns, uHit))
}

func (a *arcSink) emit(toShard func(int, []byte)) {
	for s, sa := range a.out {
		if sa != nil {
			lo, hi := a.l.Range(int32(s))
			toShard(s, a.scratch.encode(sa, lo, int(hi-lo)))
		}
	}
}

// writeSelfLoops stores a worker's count of self-loops (gatherBuild sums them).
func writeSelfLoops(ctx context.Context, staging, name string, n int64) error {
	var e enc
	e.i64(n)
	return writeBlob(ctx, join(staging, "stats", name), e.b)
}
