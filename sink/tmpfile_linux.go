package sink

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// openAnonymous opens an unnamed file in dir (O_TMPFILE), mode 0600 until
// writeTemp sets the published one: a process killed while writing it leaves
// nothing behind. ok is false where the file system or kernel
// does not support it; the caller then falls back to a named temporary file.
func openAnonymous(dir string) (f *os.File, ok bool) {
	fd, err := unix.Open(dir, unix.O_WRONLY|unix.O_TMPFILE|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), filepath.Join(dir, "(unnamed temporary file)")), true
}

// linkAnonymous gives the unnamed file f the name name (which must not exist), by
// linking its /proc/self/fd entry (no privilege needed, unlike AT_EMPTY_PATH).
func linkAnonymous(f *os.File, name string) error {
	proc := fmt.Sprintf("/proc/self/fd/%d", f.Fd())
	return unix.Linkat(unix.AT_FDCWD, proc, unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
}
