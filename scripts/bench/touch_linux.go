package main

import (
	"runtime"
	"sync"
	"syscall"
	"time"
)

// firstTouch is the time to write one byte in every 4 KiB page of n bytes of
// fresh anonymous memory (huge pages advised, as graphdp's large arrays are) on
// every core: the cost any process pays to bring that much memory into use.
// On a VM whose host reclaims the guest's free memory (page reporting), a page
// first touched costs a fault in the host as well as in the guest, and this
// measures both (docs/PERFORMANCE.md, "Fresh memory and huge pages").
func firstTouch(n int64) (float64, error) { return firstTouchOn(n, runtime.GOMAXPROCS(0), true) }

// firstTouchOn is firstTouch on w goroutines, with huge pages advised or not.
func firstTouchOn(n int64, w int, huge bool) (float64, error) {
	n = (n + 1<<21 - 1) &^ (1<<21 - 1)
	b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return 0, err
	}
	defer syscall.Munmap(b)
	advice := 15 // MADV_NOHUGEPAGE
	if huge {
		advice = 14 // MADV_HUGEPAGE
	}
	_ = syscall.Madvise(b, advice)
	start := time.Now()
	var wg sync.WaitGroup
	per := (len(b)/w + 4095) &^ 4095
	for k := range w {
		part := b[min(k*per, len(b)):min((k+1)*per, len(b))]
		wg.Go(func() {
			for i := 0; i < len(part); i += 4096 {
				part[i] = 1
			}
		})
	}
	wg.Wait()
	return time.Since(start).Seconds(), nil
}
