package beam

import (
	"context"
	"fmt"
	"slices"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/graph"
)

// shardStats is what one shard reports after the build.
type shardStats struct {
	Kept, Boundary, Uncovered, Hits int64
}

func (s *shardStats) encode() []byte {
	var e enc
	e.i64(s.Kept)
	e.i64(s.Boundary)
	e.i64(s.Uncovered)
	e.i64(s.Hits)
	return e.b
}

func decodeShardStats(b []byte) (*shardStats, error) {
	d := dec{b: b}
	s := &shardStats{Kept: d.i64(), Boundary: d.i64(), Uncovered: d.i64(), Hits: d.i64()}
	return s, d.err
}

// shardFn assembles one shard: its CSR block (graph.BuildShard: graph doc.go
// invariant 3), ids, answers, hitting-set entries and round 0; it checks the shard's
// boundary edges (u < v, u in the shard) against the hitting set.
type shardFn struct{ C Conf }

func (f *shardFn) ProcessElement(ctx context.Context, s int, elems func(*[]byte) bool, _ func(int, []byte)) error {
	ctx = f.C.context(ctx)
	l := f.C.layout()
	lo, hi := l.Range(int32(s))
	n := int(hi - lo)
	st := &state{info: &info{IDs: ids{Str: f.C.StrIDs}, Answer: make([]bool, n)}, vals: &vals{}}
	if st.IDs.Str {
		st.IDs.S = make([]string, n)
	} else {
		st.IDs.Int = make([]int64, n)
	}
	arcs, hits, err := st.collect(ctx, f.C.Staging, s, elems, lo)
	if err != nil {
		return err
	}
	var flagsAt func(int32) uint8 // the neighbours' flags when the arcs do not carry them
	if f.C.Broadcast {
		index, err := loadIndex(ctx, f.C)
		if err != nil {
			return err
		}
		flagsAt = index.flagsAt
	}
	b, ff, err := buildShardBlock(l, lo, n, arcs, flagsAt)
	if err != nil {
		return err
	}
	st.block = b
	isHit := st.placeHits(hits, lo, n)
	cut, _ := b.cutOf(l)
	stats := st.checkEdges(lo, hi, isHit, cut, ff)
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
	return st.writeRound0(ctx, &f.C, s)
}

// collect reads shard s's grouped elements: the vertices' ids and answers go into
// st (at their positions less lo), the arc blocks (still encoded; those staged read
// from staging) and hitting-set blocks are returned.
func (st *state) collect(ctx context.Context, staging string, s int, elems func(*[]byte) bool, lo int32) (arcs [][]byte, hits []*hitInfo, err error) {
	var b []byte
	for elems(&b) {
		switch b[0] {
		case tagInfo:
			vb, err := decodeVertexBlock(b)
			if err != nil {
				return nil, nil, err
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
			arcs = append(arcs, b) // a fresh slice per element (Beam's bytes coder)
		case tagArcFile:
			ab, err := readArcFile(ctx, staging, s, b)
			if err != nil {
				return nil, nil, err
			}
			arcs = append(arcs, ab)
		case tagHit:
			hb, err := decodeHitInfo(b)
			if err != nil {
				return nil, nil, err
			}
			hits = append(hits, hb)
		}
	}
	return arcs, hits, nil
}

// placeHits records the shard's hitting-set entries in st in position order (a
// repeated vertex keeps its first row) and returns which of the shard's n vertices
// are in the hitting set.
func (st *state) placeHits(hits []*hitInfo, lo int32, n int) []bool {
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
	isHit := make([]bool, n)
	for _, h := range hs {
		if isHit[h.pos-lo] {
			continue // a repeated vertex: rejected (join1); keep the state well-formed
		}
		isHit[h.pos-lo] = true
		st.HitPos = append(st.HitPos, h.pos)
		st.HitAns = append(st.HitAns, st.Answer[h.pos-lo])
		st.HitRow = append(st.HitRow, h.row)
		st.HitP = append(st.HitP, h.p)
		st.HitOne = append(st.HitOne, exactOf(st.Answer[h.pos-lo], h.p))
	}
	return isHit
}

// foreignFlags are the answers and hitting-set flags of a shard's neighbours in other
// shards, by their number in the block's bfs.Cut (foreign.go).
type foreignFlags struct{ ans, hit []bool }

// buildShardBlock is the shard's CSR block: graph.BuildShard, the single-machine
// build's code, on the shard's arcs (the arc blocks decoded into one tail and one
// head array, with both directions of its inner edges), and its bfs.Cut, kept with
// the block for the rounds. The answer and hit flag of each neighbour in another
// shard, stored by Cut number, come with its arcs or, when they do not carry them,
// from flagsAt (the broadcast index's flags by position).
func buildShardBlock(l graph.Layout, lo int32, n int, arcs [][]byte, flagsAt func(int32) uint8) (*block, foreignFlags, error) {
	total := 0
	for _, b := range arcs {
		nc, ni, err := arcCounts(b)
		if err != nil {
			return nil, foreignFlags{}, err
		}
		total += nc + 2*ni
	}
	tail, head := make([]int32, total), make([]int32, total)
	cuts := make([]cutArcs, len(arcs))
	k := 0
	for i, b := range arcs {
		m, c, err := decodeArcs(b, tail[k:], head[k:])
		if err != nil {
			return nil, foreignFlags{}, err
		}
		k, cuts[i] = k+m, c
	}
	sh, err := graph.BuildShard(lo, n, tail, head)
	if err != nil {
		return nil, foreignFlags{}, err
	}
	b := &block{Shard: *sh}
	cut, err := b.cutOf(l)
	if err != nil {
		return nil, foreignFlags{}, err
	}
	ff := foreignFlags{ans: make([]bool, len(cut.Foreign)), hit: make([]bool, len(cut.Foreign))}
	if flagsAt != nil { // the broadcast index: its arcs carry no flags
		for k, v := range cut.Foreign {
			f := flagsAt(v)
			ff.ans[k], ff.hit[k] = f&flagAns != 0, f&flagHit != 0
		}
		return b, ff, nil
	}
	idx := newForeignIndex(cut.Foreign)
	for _, c := range cuts {
		if c.ans == nil && len(c.heads) > 0 {
			return nil, foreignFlags{}, fmt.Errorf("beam: shard at %d: arcs without their heads' flags: %w", lo, errCorrupt)
		}
		for i, v := range c.heads {
			k, ok := idx.find(v)
			if !ok {
				return nil, foreignFlags{}, fmt.Errorf("beam: shard at %d: arc to %d is not a cut arc", lo, v)
			}
			ff.ans[k], ff.hit[k] = bitAt(c.ans, i), bitAt(c.hit, i)
		}
	}
	return b, ff, nil
}

// checkEdges is check.Hitting's count on the shard's edges u < v (u in [lo, hi)):
// the kept edges, the boundary ones and the uncovered ones (which ones is private
// and named by no rejection: pipeline's notHittingSetError).
// A vertex's foreign neighbours come in list order, as its cut arcs' numbers do.
func (st *state) checkEdges(lo, hi int32, isHit []bool, cut *bfs.Cut, ff foreignFlags) shardStats {
	stats := shardStats{}
	var hc check.HitCheck
	for i := range int(hi - lo) {
		u := lo + int32(i)
		ks := cut.Of(int32(i))
		for _, v := range st.Shard.Neighbours(i) {
			var ansV, hitV bool
			if v >= lo && v < hi {
				ansV, hitV = st.Answer[v-lo], isHit[v-lo]
			} else {
				ansV, hitV = ff.ans[ks[0]], ff.hit[ks[0]]
				ks = ks[1:]
			}
			if v <= u {
				continue
			}
			stats.Kept++
			hc.Edge(u, v, st.Answer[i], ansV, isHit[i], hitV, 0)
		}
	}
	stats.Boundary, stats.Uncovered = hc.Boundary, hc.Uncovered
	return stats
}

// writeRound0 stages round 0 of shard s: the graph and the vertices' info once, the
// candidates None, and a token that seeds the hitting set in round 1. A worker that
// keeps its cache between stages settles round 1 without reading them back.
func (st *state) writeRound0(ctx context.Context, c *Conf, s int) error {
	staging := c.Staging
	for _, w := range []struct {
		path string
		b    []byte
	}{{blockFile(staging, s), st.block.encode()}, {infoFile(staging, s), st.info.encode()}, {valsFile(staging, 0, s), st.vals.encode()}} {
		if err := writeBlob(ctx, w.path, w.b); err != nil {
			return err
		}
	}
	keepBlock(c, blockFile(staging, s), st.block)
	putVals(c, 0, s, st.vals)
	return writePending(ctx, staging, 0, s, &token{Own: true}, nil)
}
