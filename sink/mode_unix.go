//go:build unix

package sink

import (
	"os"
	"sync"
	"syscall"
)

// umaskMu serializes umaskBySetting: two set-and-restores interleaved would read
// 0777 and leave it set.
var umaskMu sync.Mutex

// umaskBySetting reads the umask the only portable way, by setting it and setting
// it back (where /proc/self/status does not tell). The umask is process-wide: a
// file another goroutine creates between the two calls gets the temporary mask.
// It is 0777 meanwhile, so such a file is created with no permission bits (too
// restrictive, never readable by others); sink's own temporary files are opened
// for writing when created and get their mode by fchmod, so they are unaffected.
func umaskBySetting() os.FileMode {
	umaskMu.Lock()
	defer umaskMu.Unlock()
	m := syscall.Umask(0o777)
	syscall.Umask(m)
	return os.FileMode(m) & os.ModePerm
}
