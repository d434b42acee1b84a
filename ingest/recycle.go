package ingest

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// recycler is the allocator a Table's Parquet decoder uses: it keeps the page
// buffers the decoder frees and hands them out again, in power-of-two size
// classes, so that reading a file allocates its page buffers once instead of once
// per column chunk. arrow-go allocates a column chunk's page buffers afresh for each
// chunk and grows them page after page, a copy each time; from the Go allocator
// that was 12% of the read and csr phases' CPU (fresh pages faulted in, then
// copied; docs/PERFORMANCE.md, "Read") and garbage that raised the build's peak
// RSS. Buffers of a class are a power of two long, so one grown to the largest
// page holds the others without a copy.
//
// Buffers below minRecycled or above maxRecycled bytes go to base as asked. The
// kept buffers go back to base when the Table closes (release), so a checked
// allocator still ends at zero (doc.go, invariant 6).
type recycler struct {
	base memory.Allocator
	mu   sync.Mutex
	free [maxClass - minClass + 1][][]byte
}

const (
	minClass    = 16 // 64 KiB
	maxClass    = 26 // 64 MiB
	minRecycled = 1 << minClass
	maxRecycled = 1 << maxClass
)

// class is the size class (log2 of the buffer length) of a request for size bytes.
func class(size int) int { return max(minClass, bits.Len(uint(size-1))) }

// recycled reports whether a buffer of capacity c is one of the classes'.
func recycled(c int) bool { return c >= minRecycled && c <= maxRecycled && c&(c-1) == 0 }

func (r *recycler) Allocate(size int) []byte {
	if size < minRecycled || size > maxRecycled {
		return r.base.Allocate(size)
	}
	b, kept := r.take(size)
	if kept {
		clear(b) // the Go allocator's buffers come zeroed; keep that promise
	}
	return b
}

// take returns a buffer of size bytes (a recycled size) of its class: a kept one,
// its bytes as they were (kept true), else a fresh one from base, zeroed.
func (r *recycler) take(size int) (b []byte, kept bool) {
	c := class(size)
	r.mu.Lock()
	l := r.free[c-minClass]
	if k := len(l); k > 0 {
		b = l[k-1]
		r.free[c-minClass] = l[:k-1]
		r.mu.Unlock()
		return b[:size], true
	}
	r.mu.Unlock()
	return r.base.Allocate(1 << c)[:size], false
}

func (r *recycler) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) && recycled(cap(b)) {
		return b[:size]
	}
	if !recycled(cap(b)) && (size < minRecycled || size > maxRecycled) {
		return r.base.Reallocate(size, b)
	}
	if size < minRecycled || size > maxRecycled {
		nb := r.base.Allocate(size)
		copy(nb, b)
		r.Free(b)
		return nb
	}
	// Grown within the classes: only the bytes past the old ones need zeroing (a
	// page buffer grows page after page; zeroing it whole was a tenth of a
	// 100-part read's CPU, docs/PERFORMANCE.md, "Many part files").
	nb, kept := r.take(size)
	n := copy(nb, b)
	if kept {
		clear(nb[n:])
	}
	r.Free(b)
	return nb
}

func (r *recycler) Free(b []byte) {
	c := cap(b)
	if !recycled(c) {
		r.base.Free(b)
		return
	}
	r.mu.Lock()
	k := bits.Len(uint(c)) - 1 - minClass
	r.free[k] = append(r.free[k], b[:c])
	r.mu.Unlock()
}

// release returns the kept buffers to base.
func (r *recycler) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, l := range r.free {
		for _, b := range l {
			r.base.Free(b)
		}
		r.free[k] = nil
	}
}

// batches keeps a Table's batch buffers of one element type (scratchLen(g) long at
// most) for the next row group, so that a pass over a file allocates them once per
// core rather than once per row group and column: garbage the Go collector would
// otherwise leave in the heap until it next runs, which during the graph build is
// on top of its peak (docs/PERFORMANCE.md, "Read").
type batches[T any] struct{ p sync.Pool }

// get returns a buffer of n elements (not zeroed).
func (b *batches[T]) get(n int) []T {
	if s, ok := b.p.Get().(*[]T); ok && cap(*s) >= n {
		return (*s)[:n]
	}
	return make([]T, n)
}

func (b *batches[T]) put(s []T) { b.p.Put(&s) }
