package graph

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
)

// Graph is an undirected graph in compressed sparse row form (doc.go, invariant 1).
type Graph struct {
	Off []int64 // n+1 offsets into Adj
	Adj []int32 // concatenated sorted neighbour lists
}

// Edge is an undirected edge by vertex positions.
type Edge struct{ U, V int32 }

// BuildStats counts what Build kept and dropped from the input rows.
type BuildStats struct {
	Rows       int64 // input edge rows
	SelfLoops  int64 // rows with src == dst, ignored
	Duplicates int64 // rows repeating an earlier edge (either direction), ignored
	Kept       int64 // distinct undirected edges in the graph
}

// N is the number of vertices.
func (g *Graph) N() int { return len(g.Off) - 1 }

// M is the number of undirected edges.
func (g *Graph) M() int64 { return int64(len(g.Adj)) / 2 }

// Neighbours returns v's sorted neighbour list (shared storage: do not modify).
func (g *Graph) Neighbours(v int32) []int32 { return g.Adj[g.Off[v]:g.Off[v+1]] }

// Build makes the CSR graph on n vertices from edge rows (src[i], dst[i]), which must
// be positions in [0, n). It ignores self-loops, merges duplicates and both
// directions, and runs in O(n + rows): see buildOwned.
func Build(n int, src, dst []int32) (*Graph, BuildStats) {
	return buildOwned(n, &src, &dst, 0)
}

// buildOwned is Build that takes ownership of the edge rows: it sets *src and *dst
// to nil as soon as it no longer reads them (after the pass below), so that their
// memory can be reclaimed while the lists are built.
//
// The build is a two-level counting sort whose random writes stay in cache. A
// scatter of every arc straight to its place in Adj costs a cache and TLB miss per
// arc (0.9 GB of Adj and offsets at 10^8 rows). Instead one pass in row order
// appends every arc to the chunks of its block (2^shift consecutive tails, about
// blockArcs arcs): the head (int32, which becomes Adj) and the tail's offset in its
// block (uint16), staged a cache line at a time (Builder). The chunks are then put
// in block order, each block is built on its own in cache (blockWork.build:
// sorted, deduplicated lists, written back over the block's heads), and the blocks
// are moved down over the gaps. Memory: 12 bytes a row (6 an arc) of scratch
// besides the rows, about 1.5% more for the chunks' slack, and no other array of arcs. The work
// runs on GOMAXPROCS workers; the result does not depend on their schedule.
// Linear in n + rows. It runs on at most workers goroutines (0: GOMAXPROCS), so a
// caller bounds its parallelism without setting process-wide state.
func buildOwned(n int, srcp, dstp *[]int32, workers int) (*Graph, BuildStats) {
	src, dst := *srcp, *dstp
	rows := len(src)
	w := workersFor(rows)
	if workers > 0 {
		w = min(w, workers)
	}
	b := NewBuilder(n, int64(rows), w)
	Parallel(w, rows, func(_, lo, hi int) {
		if err := b.Add(src[lo:hi], dst[lo:hi]); err != nil {
			panic(err) // exactly the rows the Builder was sized for: cannot happen
		}
	})
	*srcp, *dstp = nil, nil
	src, dst = nil, nil
	g, st, err := b.Finish(context.Background(), workers)
	if err != nil {
		panic(err)
	}
	return g, st
}

// BuildShard makes the CSR block of vertices lo..lo+n−1 (a Shard: doc.go invariant
// 3) from arcs tail[i] → head[i], each tail in the block and each head any
// position: sorted, deduplicated lists without self-loops, the same lists
// ShardOf(Build(…)) holds when the arcs are both directions of the graph's edges
// whose tail lies in the block. It is Build's two-level counting sort (buildOwned)
// on arcs rather than edge rows: a shard of a graph too large for one machine
// is built by the same code as the whole graph on one.
func BuildShard(lo int32, n int, tail, head []int32) (*Shard, error) {
	if len(tail) != len(head) {
		return nil, fmt.Errorf("graph: %d tails but %d heads", len(tail), len(head))
	}
	shift := blockShift(n, len(tail)/2)
	nb := (n + 1<<shift - 1) >> shift
	start := make([]int64, nb+1)
	maxHead := int32(0)
	for i, t := range tail {
		maxHead = max(maxHead, head[i])
		if t < lo || int(t-lo) >= n || head[i] < 0 {
			return nil, fmt.Errorf("graph: arc %d → %d outside the block of %d vertices at %d", t, head[i], n, lo)
		}
		if t != head[i] {
			start[(t-lo)>>shift+1]++
		}
	}
	for b := range nb {
		start[b+1] += start[b]
	}
	heads := make([]int32, start[nb])
	low := make([]uint16, start[nb])
	cur := slices.Clone(start[:nb])
	mask := int32(1)<<shift - 1
	for i, t := range tail {
		if h := head[i]; t != h {
			b := (t - lo) >> shift
			heads[cur[b]], low[cur[b]] = h, uint16((t-lo)&mask)
			cur[b]++
		}
	}
	off, adj, err := buildLists(context.Background(), n, shift, heads, low, start[:nb], start[1:], bits.Len(uint(maxHead)), workersFor(len(heads)))
	if err != nil {
		return nil, err
	}
	return &Shard{Lo: lo, Off: off, Adj: adj}, nil
}

// blockWork is one worker's buffers for building blocks, reused across blocks.
type blockWork struct {
	cnt  []int    // per tail: its start, then (after the scatter) its end in buf
	last []int32  // per tail: the last head seen, to detect lists already in order
	high []int32  // per value of a head's high digit: count, then cursor
	buf  []int32  // heads grouped by tail
	tmpH []int32  // the block's heads ordered by high digit
	tmpT []uint16 // their tails
	long []int32  // radix sort scratch for long lists
}

// highBits is the width of the head digit build orders the pairs by before
// grouping them by tail: 2^highBits counters of 4 bytes stay in the L1 cache.
const highBits = 12

// build turns a block's arcs — heads hs and tails v0+ts[i] — into the tails'
// sorted, deduplicated neighbour lists, written over hs's front in tail order;
// deg[t−v0] receives each list's length and build returns their sum. hbits is the
// number of significant bits of a head.
//
// One counting pass counts arcs per tail and per high digit of the head (the top
// highBits bits) and notices whether every tail's heads already come in order (rows
// sorted by source, as many writers emit them). If not, the arcs are first put in
// high-digit order (a counting sort); the stable scatter by tail then leaves each
// list sorted by high digit, so that an insertion sort has almost nothing left to do
// (a list of 20 heads rarely holds two with one high digit of 4096). All of it runs in
// cache, a few sequential passes an arc, where sorting each list by comparison costs
// mispredicted branches per element and level. Lists longer than sortDirect are
// radix sorted instead (a hub's list holds many heads per high digit).
func (bw *blockWork) build(hs []int32, ts []uint16, deg []int64, hbits int) int64 {
	m, nv := len(hs), len(deg)
	hd := uint(max(0, hbits-highBits))
	bw.cnt = slices.Grow(bw.cnt[:0], nv+1)[:nv+1]
	bw.last = slices.Grow(bw.last[:0], nv)[:nv]
	bw.high = slices.Grow(bw.high[:0], 1<<highBits)[:1<<highBits]
	cnt, last, high := bw.cnt, bw.last, bw.high
	clear(cnt)
	clear(high)
	for i := range last {
		last[i] = -1
	}
	sorted := true
	ts = ts[:m]
	for i, h := range hs {
		t := ts[i]
		cnt[int(t)+1]++
		high[h>>hd]++
		sorted = sorted && h > last[t]
		last[t] = h
	}
	for i := 1; i < len(cnt); i++ {
		cnt[i] += cnt[i-1]
	}
	ph, pt := hs, ts
	if !sorted && m < math.MaxInt32 {
		s := int32(0)
		for d, k := range high {
			high[d] = s
			s += k
		}
		bw.tmpH = slices.Grow(bw.tmpH[:0], m)[:m]
		bw.tmpT = slices.Grow(bw.tmpT[:0], m)[:m]
		ph, pt = bw.tmpH, bw.tmpT
		for i, h := range hs {
			j := high[h>>hd]
			high[h>>hd]++
			ph[j], pt[j] = h, ts[i]
		}
	}
	bw.buf = slices.Grow(bw.buf[:0], m)[:m]
	buf := bw.buf
	pt = pt[:len(ph)]
	for i, h := range ph {
		t := pt[i]
		buf[cnt[t]] = h
		cnt[t]++
	}
	// cnt[t−v0] is now t's end and t's start is the previous tail's end. Sort what
	// is left to sort and deduplicate each list while writing it over hs, which is
	// consumed.
	w := 0
	for i, lo := 0, 0; i < nv; i++ {
		hi := cnt[i]
		list := buf[lo:hi]
		lo = hi
		if !sorted {
			if len(list) <= sortDirect {
				insertionSort(list)
			} else {
				bw.long = slices.Grow(bw.long[:0], len(list))[:len(list)]
				radixSort(list, bw.long)
			}
		}
		start := w
		for j, x := range list {
			if j == 0 || x != hs[w-1] {
				hs[w] = x
				w++
			}
		}
		deg[i] = int64(w - start)
	}
	return int64(w)
}

// sortDirect is the longest list build sorts by insertion; longer ones are radix sorted.
const sortDirect = 256

func insertionSort(a []int32) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for j > 0 && a[j-1] > x {
			a[j] = a[j-1]
			j--
		}
		a[j] = x
	}
}

// radixSort sorts non-negative a with an LSD radix sort on 11-bit digits, using
// tmp (len(a)) as scratch; passes above the largest value's digits are skipped.
func radixSort(a, tmp []int32) {
	hi := int32(0)
	for _, x := range a {
		hi = max(hi, x)
	}
	from, to := a, tmp
	for shift := uint(0); shift < 32 && hi>>shift > 0; shift += 11 {
		var count [1 << 11]int
		for _, x := range from {
			count[(x>>shift)&(1<<11-1)]++
		}
		s := 0
		for i, c := range count {
			count[i] = s
			s += c
		}
		for _, x := range from {
			d := (x >> shift) & (1<<11 - 1)
			to[count[d]] = x
			count[d]++
		}
		from, to = to, from
	}
	if &from[0] != &a[0] {
		copy(a, from)
	}
}

// blockArcs is about how many arcs one block of buildOwned holds: its working set
// (heads, tails, both reordered, heads by tail: 16 bytes an arc) stays within a core's
// share of the L3 cache (measured: 2^16..2^18 alike; 2^20 is 2× slower per block,
// fewer than 2^16 makes the partition pass slower, more streams).
var blockArcs = 1 << 17

// maxBlocks bounds the number of scratch streams buildOwned's partition pass writes.
const maxBlocks = 1 << 12

// blockShift is log2 of the vertices per block: about blockArcs arcs each on
// average, at most maxBlocks blocks, and at most 2^16 vertices a block (tails are
// stored as 16-bit offsets), which takes precedence beyond 2^28 vertices.
func blockShift(n, rows int) int {
	shift := 0
	for 1<<shift < n && shift < 16 && (int64(2*rows)<<shift < int64(blockArcs)*int64(n) || n>>shift > maxBlocks) {
		shift++
	}
	return shift
}

// minParallel is the smallest amount of work worth splitting across goroutines.
const minParallel = 1 << 16

// workersFor is how many goroutines to use for work of size units.
func workersFor(units int) int {
	if units < minParallel {
		return 1
	}
	return max(1, min(runtime.GOMAXPROCS(0), units/minParallel))
}

// Parallel calls fn(k, lo, hi) for w contiguous shares of [0, total), concurrently
// when w > 1, and returns when all are done (a pass over g's vertices takes
// w = g.Workers()).
func Parallel(w, total int, fn func(k, lo, hi int)) {
	if w <= 1 {
		fn(0, 0, total)
		return
	}
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := total*k/w, total*(k+1)/w
		wg.Go(func() { fn(k, lo, hi) })
	}
	wg.Wait()
}
