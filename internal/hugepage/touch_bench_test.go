//go:build linux

package hugepage

import (
	"syscall"
	"testing"
)

// BenchmarkFirstTouch measures what a page first touched costs on this machine, the
// fact behind the floor ratios (docs/PERFORMANCE.md, "Fresh memory and huge pages"): a
// fresh anonymous mapping of 1 GiB, written once a 4 KiB page, then unmapped, so
// every iteration faults in new memory from the kernel (and, under a hypervisor that
// takes freed memory back, from the host). "huge" advises the mapping as Advise does
// the build's scratch; "small" leaves it in 4 KiB pages. The metric is seconds per
// GiB of one core, page clearing included:
//
//	go test ./internal/hugepage -run '^$' -bench FirstTouch -benchtime 3x
func BenchmarkFirstTouch(b *testing.B) {
	const gib = 1 << 30
	for _, c := range []struct {
		name string
		huge bool
	}{{"huge", true}, {"small", false}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				m, err := syscall.Mmap(-1, 0, gib, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
				if err != nil {
					b.Fatal(err)
				}
				if c.huge {
					Advise(m)
				}
				for i := 0; i < len(m); i += 4096 {
					m[i] = 1
				}
				if err := syscall.Munmap(m); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/GiB")
		})
	}
}
