package ingest

import (
	"os"

	"golang.org/x/sys/unix"
)

// dropCache tells the kernel that the bytes [off, off+n) of f will not be read
// again (posix_fadvise POSIX_FADV_DONTNEED): their clean page-cache pages are
// freed now rather than when memory runs short. Advice only: an error changes
// nothing a read returns.
func dropCache(f *os.File, off, n int64) {
	c, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = c.Control(func(fd uintptr) { _ = unix.Fadvise(int(fd), off, n, unix.FADV_DONTNEED) })
}
