package graph

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/graphdp/graphdp/internal/hugepage"
)

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
// time (software write combining, docs/PERFORMANCE.md, "Graph build (csr)").
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
	// "Fresh memory and huge pages"); Adj is the heads array, so the engine's scans get them too.
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
// the Builder is spent (a second Finish panics). ctx is read between the build's
// steps and blocks: cancelled, Finish returns its error.
func (b *Builder) Finish(ctx context.Context, workers int) (*Graph, BuildStats, error) {
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
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	start, end := b.order(heads, low, b.owner[:used], fill)
	w := workersFor(int(min(used*b.c, math.MaxInt)))
	if workers > 0 {
		w = min(w, workers)
	}
	off, adj, err := buildLists(ctx, b.n, b.shift, heads, low, start, end, bits.Len(uint(max(b.n-1, 0))), w)
	if err != nil {
		return nil, st, err
	}
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
func buildLists(ctx context.Context, n, shift int, heads []int32, low []uint16, start, end []int64, hbits, w int) ([]int64, []int32, error) {
	nb := len(start)
	// Build each block's lists in place; off[v+1] holds v's deduplicated degree
	// until the prefix sum below, kept[b] the block's total.
	// Off is read at random once per settled vertex by the engines (huge pages:
	// package hugepage).
	off := hugepage.Alloc[int64](n + 1)
	kept := make([]int64, nb)
	var next atomic.Int64
	Parallel(w, w, func(_, _, _ int) {
		var bw blockWork
		for {
			b := int(next.Add(1) - 1)
			if b >= nb || ctx.Err() != nil {
				break
			}
			v0, v1 := b<<shift, min(n, (b+1)<<shift)
			kept[b] = bw.build(heads[start[b]:end[b]], low[start[b]:end[b]], off[v0+1:v1+1], hbits)
		}
	})
	low = nil
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
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
	return off, heads[:total:total], nil
}
