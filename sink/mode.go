package sink

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// privateMode is every file's mode in private Outputs (NewPrivateOutputs): the
// owner's only.
const privateMode = 0o600

// publishedMode is the permission bits an output at path gets (doc.go, invariant
// 1): those of the regular file it replaces, else 0666 without the process's
// umask, as a file the process created with open(2) would have. Only the
// permission bits: never setuid, setgid or sticky.
func publishedMode(path string) os.FileMode {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		return fi.Mode().Perm()
	}
	return 0o666 &^ umask()
}

// umask is the process's file mode creation mask, read when a file is staged (a
// program may change it; graphdp does not). Linux reports it in /proc/self/status
// without changing anything; elsewhere it can only be read by setting it
// (umaskBySetting).
func umask() os.FileMode {
	if m, ok := procUmask(); ok {
		return m
	}
	return umaskBySetting()
}

// procUmask reads the "Umask:" line of /proc/self/status (Linux 4.7 and later).
func procUmask() (os.FileMode, bool) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Umask:"); ok {
			m, err := strconv.ParseUint(strings.TrimSpace(rest), 8, 32)
			return os.FileMode(m) & os.ModePerm, err == nil
		}
	}
	return 0, false
}
