//go:build amd64 || arm64

package prefetch

import "unsafe"

// line prefetches the cache line at p.
//
//go:noescape
func line(p unsafe.Pointer)

// indexed prefetches the byte at base + (ys[i] >> shr) << shl for i in [0, n),
// n > 0.
//
//go:noescape
func indexed(base unsafe.Pointer, ys *int32, n int, shr, shl uint)
