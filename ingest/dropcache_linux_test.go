package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident is how many of the file's pages in [lo, hi) are in the page cache
// (mincore on a read-only mapping).
func resident(t *testing.T, path string, lo, hi int64) (in, all int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, (len(m)+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	ps := int64(os.Getpagesize())
	for p := lo / ps; p < (hi+ps-1)/ps; p++ {
		all++
		in += int(vec[p] & 1)
	}
	return in, all
}

// A Scan with DropBehind leaves none of the row groups' pages in the page cache
// but the partial ones at each end of a row group (the kernel drops whole pages
// only); one without leaves them all there (so the check can see a difference).
func TestDropBehindEmptiesThePageCache(t *testing.T) {
	dir := t.TempDir()
	const n = 200_000
	ids, src, dst := make([]string, n), make([]string, n), make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprint(i)
		src[i], dst[i] = fmt.Sprint(i), fmt.Sprint((i*7919+1)%n)
	}
	answers := strings.Repeat("true,", n-1) + "true"
	vs, err := ReadVertices(bg, writeParquet(t, dir, "v.parquet", pqOpts{}, pqCol{"id", i64, "[" + strings.Join(ids, ",") + "]"}, pqCol{"answer", boo, "[" + answers + "]"}), cols)
	if err != nil {
		t.Fatal(err)
	}
	path := writeParquet(t, dir, "e.parquet", pqOpts{rowGroup: n / 4, noDict: true},
		pqCol{"src", i64, "[" + strings.Join(src, ",") + "]"}, pqCol{"dst", i64, "[" + strings.Join(dst, ",") + "]"})
	// Written pages are dirty, and only clean pages can be dropped.
	if f, err := os.Open(path); err == nil {
		f.Sync()
		f.Close()
	}
	for _, drop := range []bool{false, true} {
		es, err := OpenEdges(bg, path, cols, vs)
		if err != nil {
			t.Fatal(err)
		}
		if drop {
			es.DropBehind()
		}
		if err := es.Scan(bg, func(int, []int32, []int32) error { return nil }); err != nil {
			t.Fatal(err)
		}
		first, _ := es.parts[0].t.groupSpan(0)
		last, _ := es.parts[0].t.groupSpan(es.Units() - 1)
		units := es.Units()
		es.Close()
		in, all := resident(t, path, first.lo, last.hi)
		t.Logf("drop %v: %d of %d pages of %s resident", drop, in, all, filepath.Base(path))
		if drop && in > 2*units {
			t.Errorf("DropBehind left %d of %d pages of the row groups in the page cache", in, all)
		}
		if !drop && in == 0 {
			t.Skipf("nothing of the file stays cached here even without DropBehind (%d pages)", all)
		}
	}
}
