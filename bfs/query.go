package bfs

import (
	"context"
)

// Query is the paper's Algorithm 2 (docs/DESIGN.md §6): the optimal mechanism at one
// vertex w, found by a breadth-first search from w instead of a pass over the whole
// graph. Level d of
// the search holds the hitting-set vertices at distance d; each is a candidate
// (Step^d(a_c(h)), d, h) in the order of doc.go, invariant 3 (keys.less). The search
// stops before level d once no candidate at distance ≥ d can precede the best found,
// which it decides without looking at them: such a candidate's value history read
// back from w, Step^(d'−i)(a) for i = 0, 1, …, dominates entry by entry that of a
// virtual candidate with the smallest value over all of H, amin, at distance d
// (Step is non-decreasing and Step(x) ≥ x), so if that virtual history does not
// precede the best one, none does. In particular the search stops as soon as
// Step^d(amin) exceeds the best value, and where Step^d(amin) reaches the top (1 for
// p_one) nothing further constrains w.
//
// Because the candidate order is the one the propagation's FIFO pops in, a query
// returns exactly Solve's p_one, p_true, binding vertex and distance (query_test.go
// checks it on thousands of instances). It does not decide feasibility, which needs
// every hitting-set vertex's value: callers check that first (Solve or Violations).
//
// A Query reuses its buffers across calls and is not safe for concurrent use.
type Query struct {
	in       *Instance
	hitIndex []int32
	col      [2]*queryPass
	seen     []uint32 // seen[v] == stamp: v was reached by the current search
	stamp    uint32
	level    []int32
	next     []int32
}

// queryPass is one pass's view: the candidate order and amin's value history.
type queryPass struct {
	c       Pass
	key     *keys
	minHist []float64 // minHist[k] = Step^k(amin), grown on demand; amin = Top when H is empty
	bestH   []float64 // Step^k(a) of the best candidate's source, k = 0..its distance
}

// QueryResult is one vertex of the optimal mechanism, as Solve's Mechanism has it,
// with what the search touched.
type QueryResult struct {
	POne, PTrue float64
	Bind, Dist  int32 // binding hitting-set vertex and its distance; -1, -1 where none binds
	Vertices    int   // vertices the search reached (w included)
	Scans       int64 // adjacency entries it read
	Depth       int32 // deepest level it reached
}

// NewQuery prepares Algorithm 2 on in: O(n + |H| log |H|) once, then each Vertex call
// costs the size of the ball it explores.
func NewQuery(in *Instance) *Query {
	q := &Query{in: in, hitIndex: in.HitIndex(), seen: make([]uint32, in.G.N())}
	for ci, one := range []bool{false, true} {
		c := NewPass(in.Pair, one)
		src := in.sources(c)
		qc := &queryPass{c: c, key: newKeys(in, c, src)}
		amin := c.Top()
		if len(src) > 0 {
			amin = src[0].a // sources are sorted by value
		}
		qc.minHist = append(qc.minHist, amin)
		q.col[ci] = qc
	}
	return q
}

// candidate is a pass's best binding so far.
type candidate struct {
	val  float64
	d, h int32 // h < 0: none yet
}

// Vertex returns the optimal mechanism at w (a vertex position).
func (q *Query) Vertex(ctx context.Context, w int32) (QueryResult, error) {
	g := q.in.G
	q.stamp++
	if q.stamp == 0 { // wrapped: clear once every 2^32 queries
		clear(q.seen)
		q.stamp = 1
	}
	var res QueryResult
	var best [2]candidate
	var done [2]bool
	for ci, qc := range q.col {
		best[ci] = candidate{qc.c.Top(), -1, -1}
	}
	q.seen[w] = q.stamp
	q.level = append(q.level[:0], w)
	res.Vertices = 1
	for d := int32(0); ; d++ {
		res.Depth = d
		for _, x := range q.level {
			if q.hitIndex[x] < 0 {
				continue
			}
			for ci, qc := range q.col {
				if !done[ci] {
					qc.consider(&best[ci], x, d, x == w)
				}
			}
		}
		// Can level d+1 or deeper still hold a better candidate?
		stop := true
		for ci, qc := range q.col {
			if !done[ci] {
				done[ci] = qc.settled(best[ci], d+1)
				stop = stop && done[ci]
			}
		}
		if stop {
			break
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
		q.next = q.next[:0]
		for _, x := range q.level {
			adj := g.Adj[g.Off[x]:g.Off[x+1]]
			res.Scans += int64(len(adj))
			for _, y := range adj {
				if q.seen[y] != q.stamp {
					q.seen[y] = q.stamp
					q.next = append(q.next, y)
				}
			}
		}
		if len(q.next) == 0 {
			break
		}
		res.Vertices += len(q.next)
		q.level, q.next = q.next, q.level
	}
	q.assemble(w, best, &res)
	return res, nil
}

// consider offers hitting-set vertex h at distance d as a candidate.
func (qc *queryPass) consider(best *candidate, h, d int32, self bool) {
	c, top := qc.c, qc.c.Top()
	val := qc.key.srcA[h]
	// Iterate exactly as the engines do (Iterate: stop at the top). Values only grow,
	// so one already above the best value cannot end below it.
	for k := int32(0); k < d && val < top; k++ {
		if best.h >= 0 && val > best.val {
			return
		}
		val = c.Step(val)
	}
	if val >= top && !self { // a value at the top binds nothing (doc.go, invariant 2)
		return
	}
	if best.h >= 0 && !qc.key.less(val, d, h, best.val, best.d, best.h) {
		return
	}
	*best = candidate{val, d, h}
	qc.bestH = qc.key.history(qc.key.srcA[h], d, qc.bestH)
}

// settled reports whether no candidate at distance ≥ d can precede best (see Query).
func (qc *queryPass) settled(best candidate, d int32) bool {
	c, top := qc.c, qc.c.Top()
	for int32(len(qc.minHist)) <= d {
		x := qc.minHist[len(qc.minHist)-1]
		if x < top {
			x = c.Step(x)
		}
		qc.minHist = append(qc.minHist, x)
	}
	if best.h < 0 {
		return qc.minHist[d] >= top // every candidate from here on is at the top
	}
	// Compare the virtual history (Step^(d−i)(amin))_i with the best's (Step^(bd−i)(a))_i,
	// lexicographically, a proper prefix first; best was found at a distance bd < d.
	for i := int32(0); i <= best.d; i++ {
		x, y := qc.minHist[d-i], qc.bestH[best.d-i]
		if x != y {
			return x > y
		}
	}
	return true // best's history is a proper prefix of the virtual one
}

// assemble turns the two passes' values at w into the mechanism exactly as Solve's
// assemble does (on the instance Solve solved: Solution.Instance).
func (q *Query) assemble(w int32, best [2]candidate, res *QueryResult) {
	b := best[0]
	if q.in.Answer[w] {
		b = best[1]
	}
	res.Bind, res.Dist = b.h, b.d
	res.POne, res.PTrue = Output(q.in.Answer[w], best[0].val, best[1].val)
}
