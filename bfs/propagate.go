package bfs

import (
	"context"
	"math"
	"math/bits"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/hugepage"
	"github.com/graphdp/graphdp/internal/prefetch"
	"github.com/graphdp/graphdp/internal/progress"
)

// Propagate is the default engine (docs/DESIGN.md §4): label-setting from the hitting set,
// which is sorted by a_c and merged with one FIFO of vertex ids. Because the same
// non-decreasing U with U(x) ≥ x sits on every edge, values leave the FIFO in
// non-decreasing order (pass.go: both passes minimise, pass 0 on Pr[M = 0] in its
// keys), so each vertex is settled at its first pop and enters the FIFO at most once:
// O(|H| log |H| + V + E) per pass. Values at the top (Pass.Top) constrain nothing and
// are never queued.
type Propagate struct{}

// Name is the engine's name in flags and metadata.
func (Propagate) Name() string { return "propagate" }

// Pass computes g_c for every vertex.
//
// Two bitmaps instead of a state byte per vertex: the inner loop tests one bit per
// arc, so its random reads stay within n/8 bytes (cache-resident where n bytes would
// not be); settled is read once per pop. FIFO entries carry their key (value,
// distance, binding vertex), so a pop reads the queue sequentially and writes the
// field once, instead of reading three arrays at random. At 10^8 vertices a bitmap
// is 12.5 MB, no longer cache-resident: huge pages keep the TLB's reach over it
// (package hugepage). The reached words are prefetched only where the bitmap is
// larger than a core's L2 cache: below, the loads hit anyway and the prefetch is
// overhead. Step is a function of the value alone and values leave the queue
// sorted, so runs of pops share it: one call per run. unreached counts the vertices
// not yet queued or settled: once it is 0 no scan can find a new neighbour.
func (Propagate) Pass(ctx context.Context, in *Instance, one bool) (*Field, error) {
	g, c := in.G, NewPass(in.Pair, one)
	n := g.N()
	top := c.Top()
	f := newField(n, top)
	reached := hugepage.Make[uint64]((n + 63) / 64) // queued or settled
	settled := hugepage.Make[uint64]((n + 63) / 64)
	var bitsAhead []uint64
	if len(reached) > smallBitmap {
		bitsAhead = reached
	}
	var fifo fifoQueue
	src := in.sources(c)
	next := 0
	var steps int
	lastA, lastOffer := math.NaN(), 0.0
	unreached := n
	for {
		// Pop the smaller key; a hitting-set entry (distance 0) wins ties.
		var e entry
		if next < len(src) && (fifo.empty() || src[next].a <= fifo.frontValue()) {
			s := src[next]
			next++
			if settled[s.v>>6]&(1<<(s.v&63)) != 0 {
				continue // a smaller value reached it first: infeasible (feasibility.go)
			}
			e = entry{v: s.v, b: s.v, a: s.a}
			if reached[s.v>>6]&(1<<(s.v&63)) == 0 {
				reached[s.v>>6] |= 1 << (s.v & 63)
				unreached--
			}
		} else if !fifo.empty() {
			if b := fifo.blocks[0]; fifo.head+prefetchFar < len(b) {
				ahead(g, f, settled, bitsAhead, b[fifo.head:], unreached > 0)
			}
			e = fifo.pop()
			if settled[e.v>>6]&(1<<(e.v&63)) != 0 {
				continue // settled earlier by its own hitting-set entry
			}
		} else {
			break
		}
		x := e.v
		settled[x>>6] |= 1 << (x & 63)
		f.Value[x], f.Dist[x], f.Bind[x] = e.a, e.d, e.b
		if steps++; steps&0xffff == 0 {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			progress.From(ctx).Add(0x10000)
		}
		// Once every vertex is reached no scan can push: the pops that remain only
		// settle (on a random graph, whose last distances hold most vertices, about
		// a third of the arcs of a pass are never read). The offer is needed only once a
		// neighbour is new: a vertex whose neighbours were all reached (the last of
		// a front, the far side of a path's gap) costs no step. A value whose offer
		// is at the top pushes nothing: its scan is skipped as before, once its
		// offer is known.
		if unreached == 0 || lastA == e.a && lastOffer >= top { // NaN never equals: no skip before the first step
			continue
		}
		stepped := e.a == lastA
		next := entry{d: e.d + 1, b: e.b, a: lastOffer}
		for ys := g.Adj[g.Off[x]:g.Off[x+1]]; len(ys) > 0; {
			// Two phases per chunk of up to 64 neighbours. First the reached bit of
			// each, without a branch: the loads are independent, so their cache misses
			// (random over n/8 bytes, no longer cached at 10^8 vertices) overlap
			// instead of waiting on a branch that goes either way at random. Then the
			// new ones, pushed in list order as before. A bit read in the first phase
			// is still current in the second: only y's own update changes y's bit, and
			// a list holds y at most once and never x (graph, invariant 1).
			chunk := ys[:min(len(ys), 64)]
			ys = ys[len(chunk):]
			f.Scans += int64(len(chunk))
			var fresh uint64
			for i, y := range chunk {
				fresh |= (^reached[y>>6] >> (y & 63) & 1) << i
			}
			if fresh != 0 && !stepped {
				lastA, lastOffer, stepped = e.a, c.Step(e.a), true
				if next.a = lastOffer; next.a >= top {
					break
				}
			}
			for ; fresh != 0; fresh &= fresh - 1 {
				y := chunk[bits.TrailingZeros64(fresh)]
				reached[y>>6] |= 1 << (y & 63)
				unreached--
				next.v = y
				fifo.push(next)
			}
		}
	}
	return f, nil
}

// How far ahead in the FIFO Propagate prefetches (package prefetch) a vertex's
// offsets; then, once they are cached, its list, its settled word and its field
// slots; then, once its list is cached, its neighbours' reached words. A pop
// does a few hundred instructions, so each stage's misses complete in the time
// of a few pops, and the misses of prefetchFar pops are in flight at once.
const (
	prefetchFar  = 16
	prefetchNear = 8
	prefetchBits = 4
)

// smallBitmap is the largest reached bitmap, in words (256 KiB, 2^21 vertices),
// whose words Propagate does not prefetch.
const smallBitmap = 1 << 15

// ahead prefetches for the queued entries q[prefetchBits], q[prefetchNear] and
// q[prefetchFar] (len(q) > prefetchFar) what their pops will read at random;
// the reached words only when reached is not nil, offsets, lists and reached
// words only when lists (some vertex is still unreached: else pops do not scan).
func ahead(g *graph.Graph, f *Field, settled, reached []uint64, q []queued, lists bool) {
	y := q[prefetchNear].v
	if lists {
		prefetch.At(g.Off, int(q[prefetchFar].v))
		if lo := g.Off[y]; lo < int64(len(g.Adj)) {
			prefetch.At(g.Adj, int(lo))
		}
	}
	prefetch.At(settled, int(y>>6))
	prefetch.At(f.Value, int(y))
	prefetch.At(f.Dist, int(y))
	prefetch.At(f.Bind, int(y))
	if reached != nil && lists {
		z := q[prefetchBits].v
		prefetch.Bits(reached, g.Adj[g.Off[z]:g.Off[z+1]])
	}
}

// entry is a queued vertex with its key: value, distance and binding vertex.
type entry struct {
	v, d, b int32
	a       float64
}

// fifoQueue is a FIFO of entries in blocks, recycled once consumed, so its memory
// follows the queue's length rather than the number of pushes. An entry is stored
// in 8 bytes rather than 24, its vertex and binding vertex: the entries pushed come
// in runs (one offer and one distance per run of equal popped keys), and a run's
// value and distance are stored once, with the position of its first entry in push
// order; a pop finds its run by its own position, since runs and pops both go in
// that order. On a uniform random graph the queue holds most vertices at once, so
// this is 8 bytes a vertex per colour, plus 16 bytes a run (docs/PERFORMANCE.md,
// "Engine (propagate)").
type fifoQueue struct {
	blocks [][]queued // blocks[0][head:] is the front
	head   int
	free   [][]queued
	// Run r holds the entries pushed at positions starts[r] up to starts[r+1]
	// (the last: up to pushed), all with value vals[r] and distance dists[r].
	// Positions count from the last time the queue was empty (each vertex is
	// pushed at most once: they fit in int32), and the runs are emptied then.
	vals   []float64
	dists  []int32
	starts []int32
	run    int   // the run of the last popped entry
	pushed int32 // entries pushed, and popped, since the queue was last empty
	popped int32
}

// queued is an entry in the queue, without its run's value and distance.
type queued struct{ v, b int32 }

const fifoBlock = 1 << 14

func (q *fifoQueue) empty() bool { return len(q.blocks) == 0 || q.head == len(q.blocks[0]) }

// frontRun is the run of the entry pop returns next (the queue is not empty).
func (q *fifoQueue) frontRun() int {
	if r := q.run + 1; r < len(q.starts) && q.starts[r] <= q.popped {
		return r // runs are not empty: the front is at most one run further
	}
	return q.run
}

// frontValue is the value of the entry pop returns next.
func (q *fifoQueue) frontValue() float64 { return q.vals[q.frontRun()] }

func (q *fifoQueue) push(e entry) {
	// Bits, not ==: −0 and +0 are different values to keep.
	if n := len(q.vals); n == 0 || math.Float64bits(q.vals[n-1]) != math.Float64bits(e.a) || q.dists[n-1] != e.d {
		if n == cap(q.vals) && q.run >= n/2 && q.run > 0 {
			// The runs before the last popped one are spent: move the rest down
			// rather than grow, so that a queue that never empties (a path with a
			// value per vertex: a run per entry) keeps at most twice its live runs.
			k := copy(q.vals, q.vals[q.run:])
			copy(q.dists, q.dists[q.run:])
			copy(q.starts, q.starts[q.run:])
			q.vals, q.dists, q.starts, q.run = q.vals[:k], q.dists[:k], q.starts[:k], 0
		}
		q.vals = append(q.vals, e.a)
		q.dists = append(q.dists, e.d)
		q.starts = append(q.starts, q.pushed)
	}
	q.pushed++
	x := queued{e.v, e.b}
	if k := len(q.blocks); k > 0 && len(q.blocks[k-1]) < fifoBlock {
		q.blocks[k-1] = append(q.blocks[k-1], x)
		return
	}
	var b []queued
	if k := len(q.free); k > 0 {
		b, q.free = q.free[k-1][:0], q.free[:k-1]
	} else {
		b = make([]queued, 0, fifoBlock)
	}
	q.blocks = append(q.blocks, append(b, x))
}

func (q *fifoQueue) pop() entry {
	b := q.blocks[0]
	x := b[q.head]
	q.run = q.frontRun()
	e := entry{v: x.v, d: q.dists[q.run], b: x.b, a: q.vals[q.run]}
	q.head++
	q.popped++
	if q.head == len(b) && (len(q.blocks) > 1 || len(b) == fifoBlock) {
		q.free = append(q.free, b)
		q.blocks = q.blocks[1:]
		q.head = 0
	} else if q.head == len(b) {
		q.blocks[0], q.head = b[:0], 0
	}
	if q.empty() {
		q.vals, q.dists, q.starts = q.vals[:0], q.dists[:0], q.starts[:0]
		q.run, q.pushed, q.popped = 0, 0, 0
	}
	return e
}
