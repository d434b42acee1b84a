//go:build !linux

package graph

// adviseHuge is a no-op where transparent huge pages are not asked for (huge_linux.go).
func adviseHuge[T any](s []T) {}
