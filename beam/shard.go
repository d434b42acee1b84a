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
