package hugepage

import (
	"syscall"
	"unsafe"
)

// size is the size of a transparent huge page on the platforms Linux runs graphdp on
// (x86-64, arm64 with 4 KiB base pages).
const size = 2 << 20

// MADV_HUGEPAGE and MADV_DONTNEED; package syscall does not name the first.
const (
	madvHugePage = 14
	madvDontNeed = 4
)

// Advise asks the kernel to back s's whole huge pages (invariant 2) with transparent
// huge pages from their first touch on (madvise MADV_HUGEPAGE; THP is often in
// "madvise" mode, where nothing else gets them). Pages already touched stay small
// until the kernel's background daemon collapses them, if ever: call it before the
// first write, or use Make.
func Advise[T any](s []T) {
	if b := whole(s); b != nil {
		// An error (an old kernel, THP disabled) leaves the pages as they were.
		_ = syscall.Madvise(b, madvHugePage)
	}
}

// Make is make([]T, n) (all zero) with Advise's huge pages even when Go cleared the
// memory on allocation (a span reused after a collection is cleared, and the clear
// touches its pages small): after the advice, the pages are dropped
// (MADV_DONTNEED), which on private anonymous memory makes them read as zero again,
// so the next touch faults them in huge.
func Make[T any](n int) []T {
	s := make([]T, n)
	if b := whole(s); b != nil {
		if syscall.Madvise(b, madvHugePage) == nil {
			_ = syscall.Madvise(b, madvDontNeed)
		}
	}
	return s
}

// Alloc is Make for an array read at random once per vertex or per edge but not
// in the innermost loop (a field, offsets, an index): the huge-page advice always,
// and Make's drop of the pages Go's clear touched only from DropMin bytes. Below,
// a second first touch of every page costs more than the TLB misses huge pages
// save (on this VM a page first touched costs 0.8–1.1 s a GiB on one core when
// quiet and 2.5 s under load, BenchmarkFirstTouch: docs/PERFORMANCE.md,
// "Fresh memory and huge pages"), and memory Go reuses from the collected build
// scratch is often huge already.
func Alloc[T any](n int) []T {
	var zero T
	if uintptr(n)*unsafe.Sizeof(zero) >= DropMin {
		return Make[T](n)
	}
	s := make([]T, n)
	Advise(s)
	return s
}

// DropMin is the smallest slice Alloc drops after Go's clear: 256 MiB, an array
// of 10^8 vertices' class (the billion-edge run's fields and offsets), not the
// 10^7 vertices' class.
const DropMin = 256 << 20

// whole is the bytes of the whole 2 MiB-aligned pages inside s, nil if none.
func whole[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), uintptr(len(s))*unsafe.Sizeof(zero))
	p := uintptr(unsafe.Pointer(&b[0]))
	end := p + uintptr(len(b))
	lo, hi := (p+size-1)&^(size-1), end&^(size-1)
	if hi <= lo {
		return nil
	}
	return b[lo-p : hi-p]
}
