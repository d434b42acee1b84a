//go:build !linux

package hugepage

// Advise does nothing where transparent huge pages are not asked for (huge_linux.go).
func Advise[T any](s []T) {}

// Make is make([]T, n) where transparent huge pages are not asked for (huge_linux.go).
func Make[T any](n int) []T { return make([]T, n) }

// Alloc is make([]T, n) where transparent huge pages are not asked for (huge_linux.go).
func Alloc[T any](n int) []T { return make([]T, n) }

// DropMin is Alloc's threshold on Linux (huge_linux.go); unused here.
const DropMin = 256 << 20
