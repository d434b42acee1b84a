package graph

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the platforms Linux runs
// graphdp on (x86-64, arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// adviseHuge asks the kernel to back s's whole huge pages with transparent huge
// pages (madvise MADV_HUGEPAGE; THP is often in "madvise" mode). It is only
// advice: the contents and the result of every build are the same either way. See
// the call sites for why it pays.
func adviseHuge[T any](s []T) {
	if len(s) == 0 {
		return
	}
	var zero T
	b := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), uintptr(len(s))*unsafe.Sizeof(zero))
	p := uintptr(unsafe.Pointer(&b[0]))
	end := p + uintptr(len(b))
	lo, hi := (p+hugePage-1)&^(hugePage-1), end&^(hugePage-1)
	if hi <= lo {
		return
	}
	// An error (an old kernel, THP disabled) leaves the pages as they were.
	_ = syscall.Madvise(b[lo-p:hi-p], madvHugePage)
}

// madvHugePage is MADV_HUGEPAGE, which package syscall does not name.
const madvHugePage = 14
