package prefetch

import (
	"math/bits"
	"unsafe"
)

// At starts loading the cache line holding s[i]; i must be in [0, len(s)).
func At[T any](s []T, i int) {
	var t T
	line(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(i)*unsafe.Sizeof(t)))
}

// Each starts loading s[y] for every y in ys (each in [0, len(s))): one call for
// a whole adjacency list. T's size must be a power of two.
func Each[T any](s []T, ys []int32) {
	var t T
	if len(ys) > 0 {
		indexed(unsafe.Pointer(unsafe.SliceData(s)), unsafe.SliceData(ys), len(ys), 0, uint(bits.TrailingZeros(uint(unsafe.Sizeof(t)))))
	}
}

// Bits starts loading the word of a bitmap holding bit y, for every y in ys
// (each in [0, 64·len(words))).
func Bits(words []uint64, ys []int32) {
	if len(ys) > 0 {
		indexed(unsafe.Pointer(unsafe.SliceData(words)), unsafe.SliceData(ys), len(ys), 6, 3)
	}
}
