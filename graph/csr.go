package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/graphdp/graphdp/internal/hugepage"
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
	parallel(w, rows, func(_, lo, hi int) {
		if err := b.Add(src[lo:hi], dst[lo:hi]); err != nil {
			panic(err) // exactly the rows the Builder was sized for: cannot happen
		}
	})
	*srcp, *dstp = nil, nil
	src, dst = nil, nil
	g, st, err := b.Finish(workers)
	if err != nil {
		panic(err)
	}
	return g, st
}

// Builder is buildOwned's algorithm for rows that are not held in memory: the
// caller delivers the rows once, in batches of its choosing (a file's row groups)
// from up to the workers goroutines it declared, and never holds them all.
//
// Every arc goes to its block's chunks: the scratch (heads and tails' block
// offsets, 12 bytes a row) is cut into chunks (chunkArcs), taken one at a
// time by the block that needs one, so no pass is needed to count each block's
// arcs first. An arc is a write into one of nb blocks (about 3000 at 10^8
// vertices), so writing each directly costs a TLB miss and, as the blocks' open
// lines leave the cache, a cache miss per arc. Instead the arcs are staged wc at a
// time per block in a small, cache-resident buffer and copied out a cache line at a
// time (software write combining, docs/PERFORMANCE.md, "Issue 12, third round").
// Each concurrent Add has its own staging and its own open chunk per block, so at
// the end up to workers·nb chunks are partly full: the scratch has that slack
// (chunkArcs keeps it near 1.5%). Finish moves the chunks into block order, in place.
//
// Memory: the scratch, which Adj keeps (slack included); nb·(1+6·wc+16) bytes a
// worker of staging (about 0.5 MB at 10^8 vertices); about 21 bytes a chunk of
// bookkeeping during Finish.
type Builder struct {
	n, shift, nb int
	c            int64   // arcs a chunk
	heads        []int32 // chunk k is heads[k·c : (k+1)·c], its tails' offsets low[…]
	low          []uint16
	owner        []int32 // the block of each chunk taken
	taken        atomic.Int64
	stages       chan *stage // idle stagings; nil: not made yet
	mu           sync.Mutex
	all          []*stage
	rows, loops  atomic.Int64
}

// ErrMoreRows is Add's or Finish's error when the rows delivered hold more arcs
// than the Builder has room for: more than NewBuilder's rows, beyond what the
// chunks' slack absorbs (fewer extra rows are built as any others). A file reader
// that delivers exactly the rows it counted never sees it.
var ErrMoreRows = errors.New("graph: more edge rows than the build was sized for")

// NewBuilder prepares a build of n vertices from at most rows rows delivered by
// at most workers concurrent Add calls (more wait for one to end); it allocates
// the scratch.
func NewBuilder(n int, rows int64, workers int) *Builder {
	workers = max(workers, 1)
	shift := blockShift(n, int(min(rows, math.MaxInt)))
	nb := (n + 1<<shift - 1) >> shift
	c := chunkArcs(rows, nb, workers)
	chunks := (2*rows+c-1)/c + int64(workers)*int64(nb)
	b := &Builder{n: n, shift: shift, nb: nb, c: c, owner: make([]int32, chunks), stages: make(chan *stage, workers)}
	for range workers {
		b.stages <- nil
	}
	b.heads = make([]int32, chunks*c)
	b.low = make([]uint16, chunks*c)
	// The scratch is 12 bytes a row of fresh memory, first touched by Add's
	// writes: with 4 KiB pages that is a page fault per 4 KiB and a TLB miss per
	// chunk switch. Transparent huge pages make both 512× rarer (docs/PERFORMANCE.md,
	// "csr"); Adj is the heads array, so the engine's scans get them too.
	hugepage.Advise(b.heads)
	hugepage.Advise(b.low)
	return b
}

// chunkArcs is the chunk size for rows rows in nb blocks from workers workers,
// 64 to 4096 arcs: the partly full chunks at the end (at most one per worker and
// block) are at most about 1/slackDiv of the arcs unless the 64-arc minimum binds
// (many blocks and workers for few rows a vertex: a few percent).
func chunkArcs(rows int64, nb, workers int) int64 {
	return min(max(2*rows/(slackDiv*int64(max(nb, 1))*int64(workers)), 64), 4096)
}

// slackDiv bounds the chunks' slack: about 1/slackDiv of the scratch (chunkArcs).
const slackDiv = 64

// ScratchBytes is about what a Builder's scratch takes for rows rows: heads
// (int32) and tails' block offsets (uint16) of two arcs a row, 12 bytes, and the
// chunks' slack (chunkArcs). The memory model of a run counts it.
func ScratchBytes(rows int64) int64 { return 12*rows + 12*rows/slackDiv }

// wc is the arcs Add stages per block before copying them out: 64 bytes of
// heads, one cache line.
const wc = 16

// stage is one worker's staging: block bl's fill[bl] arcs are at heads[bl·wc:]
// and low[bl·wc:]; its open chunk's free arcs are at scratch positions
// [at[bl], end[bl]) (none when equal).
type stage struct {
	fill    []uint8
	heads   []int32
	low     []uint16
	at, end []int64
}

// Add appends the arcs of the rows src, dst (positions in [0, n)) to their
// blocks; self-loops are counted and dropped. Safe for concurrent use.
func (b *Builder) Add(src, dst []int32) error {
	st := <-b.stages
	if st == nil {
		nb := b.nb
		st = &stage{fill: make([]uint8, nb), heads: make([]int32, nb*wc), low: make([]uint16, nb*wc),
			at: make([]int64, nb), end: make([]int64, nb)}
		b.mu.Lock()
		b.all = append(b.all, st)
		b.mu.Unlock()
	}
	defer func() { b.stages <- st }()
	fill, sh, sl := st.fill, st.heads, st.low
	shift := b.shift
	lowMask := int32(1)<<shift - 1
	ok := true
	var loops int64
	for i, u := range src {
		v := dst[i]
		if u == v {
			loops++
			continue
		}
		bu, bv := u>>shift, v>>shift
		n := int(fill[bu])
		sh[int(bu)*wc+n], sl[int(bu)*wc+n] = v, uint16(u&lowMask)
		if n++; n == wc {
			ok = b.flush(st, bu, wc) && ok
			n = 0
		}
		fill[bu] = uint8(n)
		n = int(fill[bv])
		sh[int(bv)*wc+n], sl[int(bv)*wc+n] = u, uint16(v&lowMask)
		if n++; n == wc {
			ok = b.flush(st, bv, wc) && ok
			n = 0
		}
		fill[bv] = uint8(n)
	}
	b.rows.Add(int64(len(src)))
	b.loops.Add(loops)
	if !ok {
		return ErrMoreRows
	}
	return nil
}

// flush copies block bl's n staged arcs (n ≤ wc ≤ a chunk) to its open chunk,
// taking a new one when it fills; false when the scratch has no chunk left.
func (b *Builder) flush(st *stage, bl int32, n int) bool {
	at := int(bl) * wc
	for n > 0 {
		p, end := st.at[bl], st.end[bl]
		if p == end {
			k := b.taken.Add(1) - 1
			if k >= int64(len(b.owner)) {
				return false
			}
			b.owner[k] = bl
			p, end = k*b.c, (k+1)*b.c
			st.end[bl] = end
		}
		m := int(min(int64(n), end-p))
		copy(b.heads[p:p+int64(m)], st.heads[at:at+m])
		copy(b.low[p:p+int64(m)], st.low[at:at+m])
		st.at[bl] = p + int64(m)
		at, n = at+m, n-m
	}
	return true
}

// Finish builds the lists from the arcs added on at most workers goroutines
// (0: GOMAXPROCS) and returns the graph; no Add may run during or after it, and
// the Builder is spent (a second Finish panics).
func (b *Builder) Finish(workers int) (*Graph, BuildStats, error) {
	st := BuildStats{Rows: b.rows.Load(), SelfLoops: b.loops.Load()}
	// The staged arcs go out; then every chunk taken is full but those still
	// open in a staging.
	for _, s := range b.all {
		for bl, n := range s.fill {
			if n > 0 && !b.flush(s, int32(bl), int(n)) {
				return nil, st, ErrMoreRows
			}
		}
	}
	used := b.taken.Load()
	if used > int64(len(b.owner)) {
		return nil, st, ErrMoreRows
	}
	fill := make([]int32, used)
	for k := range fill {
		fill[k] = int32(b.c)
	}
	for _, s := range b.all {
		for bl, end := range s.end {
			if end > 0 {
				fill[end/b.c-1] = int32(s.at[bl] - (end - b.c))
			}
		}
	}
	heads, low := b.heads, b.low
	b.heads, b.low, b.all = nil, nil, nil
	start, end := b.order(heads, low, b.owner[:used], fill)
	w := workersFor(int(min(used*b.c, math.MaxInt)))
	if workers > 0 {
		w = min(w, workers)
	}
	off, adj := buildLists(b.n, b.shift, heads, low, start, end, bits.Len(uint(max(b.n-1, 0))), w)
	st.Kept = int64(len(adj)) / 2
	st.Duplicates = st.Rows - st.SelfLoops - st.Kept
	return &Graph{Off: off, Adj: adj}, st, nil
}

// order moves the chunks into block order in place — each block's full chunks,
// then its partly full ones, their arcs packed behind the full ones' — and
// returns each block's range [start[b], end[b]) of heads and low. owner and fill
// are each chunk's block and arcs. One copy of the scratch, a chunk at a time,
// following the cycles of the move.
func (b *Builder) order(heads []int32, low []uint16, owner, fill []int32) (start, end []int64) {
	nb, c := b.nb, b.c
	used := len(owner)
	first := make([]int, nb+1) // block bl's chunks go to slots first[bl] … first[bl+1]−1
	for _, bl := range owner {
		first[bl+1]++
	}
	for bl := range nb {
		first[bl+1] += first[bl]
	}
	from := make([]int, used) // slot s receives chunk from[s]
	slotFill := make([]int32, used)
	next := slices.Clone(first[:nb])
	for _, full := range []bool{true, false} {
		for k, bl := range owner {
			if (fill[k] == int32(c)) == full {
				from[next[bl]], slotFill[next[bl]] = k, fill[k]
				next[bl]++
			}
		}
	}
	hs := func(k int) []int32 { return heads[int64(k)*c : int64(k+1)*c] }
	ls := func(k int) []uint16 { return low[int64(k)*c : int64(k+1)*c] }
	tmpH, tmpL := make([]int32, c), make([]uint16, c)
	done := make([]bool, used)
	for i := range used {
		if done[i] {
			continue
		}
		done[i] = true
		if from[i] == i {
			continue
		}
		copy(tmpH, hs(i))
		copy(tmpL, ls(i))
		j := i
		for k := from[j]; k != i; j, k = k, from[k] {
			copy(hs(j), hs(k))
			copy(ls(j), ls(k))
			done[k] = true
		}
		copy(hs(j), tmpH)
		copy(ls(j), tmpL)
	}
	start, end = make([]int64, nb), make([]int64, nb)
	for bl := range nb {
		p := int64(first[bl]) * c
		start[bl] = p
		for s := first[bl]; s < first[bl+1]; s++ {
			f := int64(slotFill[s])
			if q := int64(s) * c; q != p {
				copy(heads[p:p+f], heads[q:q+f])
				copy(low[p:p+f], low[q:q+f])
			}
			p += f
		}
		end[bl] = p
	}
	return start, end
}

// buildLists is the second half of a build (Builder, BuildShard): from the arcs
// partitioned by tail block — block b's heads are heads[start[b]:end[b]], their
// tails minus the block's first row at the same places of low, blocks in order
// and not overlapping — it builds each block's sorted, deduplicated lists in place
// on w workers and moves the blocks down over the gaps between them and those
// duplicates left. hbits is the number of significant bits of the largest head. It
// returns the n+1 offsets and the lists (heads, shortened).
func buildLists(n, shift int, heads []int32, low []uint16, start, end []int64, hbits, w int) ([]int64, []int32) {
	nb := len(start)
	// Build each block's lists in place; off[v+1] holds v's deduplicated degree
	// until the prefix sum below, kept[b] the block's total.
	// Off is read at random once per settled vertex by the engines (huge pages:
	// package hugepage).
	off := hugepage.Alloc[int64](n + 1)
	kept := make([]int64, nb)
	var next atomic.Int64
	parallel(w, w, func(_, _, _ int) {
		var bw blockWork
		for {
			b := int(next.Add(1) - 1)
			if b >= nb {
				break
			}
			v0, v1 := b<<shift, min(n, (b+1)<<shift)
			kept[b] = bw.build(heads[start[b]:end[b]], low[start[b]:end[b]], off[v0+1:v1+1], hbits)
		}
	})
	low = nil
	total := int64(0)
	for v := 1; v <= n; v++ {
		total += off[v]
		off[v] = total
	}
	// Close the gaps, left to right (a block moves down, never onto a later
	// block's lists).
	for b := range nb {
		if p := off[b<<shift]; p != start[b] {
			copy(heads[p:p+kept[b]], heads[start[b]:])
		}
	}
	return off, heads[:total:total]
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
	off, adj := buildLists(n, shift, heads, low, start[:nb], start[1:], bits.Len(uint(maxHead)), workersFor(len(heads)))
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

// parallel calls fn(k, lo, hi) for w contiguous shares of [0, total), concurrently
// when w > 1, and returns when all are done.
func parallel(w, total int, fn func(k, lo, hi int)) {
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

// CountComponents is the number of connected components, without labels: GAP's
// Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018) run on one core. Union-find (link
// by smaller index, path halving) first joins every vertex to its first two
// neighbours in one sequential sweep of the CSR; the component the most sampled
// vertices then belong to — the giant one, if any — is skipped in the sweep over
// the remaining neighbours, which is sound because every edge is stored in both
// directions, so an edge leaving that component is still seen from its other end.
// A BFS would touch every vertex's list in queue order, a cache miss per vertex;
// this reads the CSR front to back. Cost: O(n + arcs outside the giant component)
// union-find steps, O(log) amortised each in the worst case. The error is ctx's:
// the sweeps look at it every countCheckEvery vertices.
func (g *Graph) CountComponents(ctx context.Context) (int, error) {
	n := g.N()
	comp := NewForest(n)
	const rounds = 2
	for r := int64(0); r < rounds; r++ {
		for u := range int32(n) {
			if u%countCheckEvery == 0 && ctx.Err() != nil {
				return 0, ctx.Err()
			}
			if i := g.Off[u] + r; i < g.Off[u+1] {
				comp.Union(u, g.Adj[i])
			}
		}
	}
	for u := range int32(n) {
		comp[u] = comp.Find(u)
	}
	// The most frequent root among evenly spaced samples.
	c := int32(-1)
	if n > 0 {
		counts := map[int32]int{}
		stride := max(1, n/1024)
		best := 0
		for i := 0; i < n; i += stride {
			r := comp[i]
			counts[r]++
			if counts[r] > best || (counts[r] == best && r < c) {
				best, c = counts[r], r
			}
		}
	}
	for u := range int32(n) {
		if u%countCheckEvery == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		if comp[u] == c {
			continue
		}
		for _, v := range g.Adj[g.Off[u]+min(rounds, g.Off[u+1]-g.Off[u]) : g.Off[u+1]] {
			comp.Union(u, v)
		}
	}
	k := 0
	for u, r := range comp {
		if int(r) == u {
			k++
		}
	}
	return k, nil
}

// countCheckEvery is how many vertices CountComponents sweeps between looks at its
// context: a fraction of a millisecond.
const countCheckEvery = 1 << 16
