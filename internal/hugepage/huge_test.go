package hugepage

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// Invariant 1: Make returns zeros, even over memory Go reused, and Advise keeps contents.
func TestContentsUnchanged(t *testing.T) {
	for range 3 {
		s := Make[int64](3 << 20) // 24 MiB: several whole huge pages
		for i, x := range s {
			if x != 0 {
				t.Fatalf("Make: s[%d] = %d, want 0", i, x)
			}
			s[i] = int64(i) * 7
		}
		Advise(s)
		for i, x := range s {
			if x != int64(i)*7 {
				t.Fatalf("Advise changed s[%d]: %d, want %d", i, x, int64(i)*7)
			}
		}
		runtime.GC() // the next Make may reuse (and clear) these pages
	}
	// Alloc below and above DropMin: zeros over reused memory too.
	for _, n := range []int{3 << 20, DropMin/8 + 1} {
		for range 2 {
			s := Alloc[int64](n)
			if len(s) != n {
				t.Fatalf("Alloc(%d): length %d", n, len(s))
			}
			for i, x := range s {
				if x != 0 {
					t.Fatalf("Alloc(%d): s[%d] = %d, want 0", n, i, x)
				}
				s[i] = -1
			}
			runtime.GC()
		}
	}
	debug.FreeOSMemory() // the next test counts the huge pages Make's first touch adds
	if len(Make[int32](0)) != 0 || len(Make[byte](5)) != 5 || len(Alloc[int32](0)) != 0 {
		t.Fatal("Make: wrong length")
	}
	Advise([]int32(nil)) // nothing to advise: no panic
}

// Make's memory is faulted in as huge pages where the kernel gives them on advice.
func TestMakeGetsHugePages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("transparent huge pages are Linux's")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("transparent huge pages are off here")
	}
	before := anonHuge(t)
	s := Make[uint64](8 << 20) // 64 MiB
	for i := range s {
		s[i] = uint64(i)
	}
	after := anonHuge(t)
	// At least one of the 31 or 32 whole huge pages (the kernel may fail to find
	// free 2 MiB frames for some under memory pressure).
	if after-before < 2<<20 {
		t.Fatalf("AnonHugePages grew by %d bytes after touching 64 MiB from Make, want ≥ 2 MiB", after-before)
	}
	runtime.KeepAlive(s)
}

// anonHuge is the process's anonymous memory in huge pages, in bytes.
func anonHuge(t *testing.T) int64 {
	f, err := os.Open("/proc/self/smaps_rollup")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "AnonHugePages:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no AnonHugePages in smaps_rollup")
	return 0
}
