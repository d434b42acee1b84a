//go:build unix

package sink

import "golang.org/x/sys/unix"

// writable asks the kernel whether this process may create files in dir: its
// permissions, a read-only mount (EROFS), an immutable folder (EPERM).
func writable(dir string) error { return unix.Access(dir, unix.W_OK|unix.X_OK) }
