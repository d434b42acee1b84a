package sink

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// openAnonymous opens an unnamed file in dir (O_TMPFILE): a process killed while
// writing it leaves nothing behind. ok is false where the file system or kernel
// does not support it; the caller then falls back to a named temporary file.
func openAnonymous(dir string) (f *os.File, ok bool) {
	fd, err := unix.Open(dir, unix.O_WRONLY|unix.O_TMPFILE|unix.O_CLOEXEC, fileMode)
	if err != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), dir+"/(O_TMPFILE)"), true
}

// linkAnonymous gives the unnamed file f the name name (which must not exist), by
// linking its /proc/self/fd entry (no privilege needed, unlike AT_EMPTY_PATH).
func linkAnonymous(f *os.File, name string) error {
	proc := fmt.Sprintf("/proc/self/fd/%d", f.Fd())
	return unix.Linkat(unix.AT_FDCWD, proc, unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
}
