package memstat

import (
	"bufio"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Machine is the memory this process may use: its cgroup's limit (v2 memory.max,
// v1 memory.limit_in_bytes) when there is one, else the machine's MemTotal; 0 where
// neither can be read. source names where the figure came from.
func Machine() (bytes int64, source string) {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err == nil && v > 0 && v < 1<<60 {
			return v, "the cgroup limit (" + f + ")"
		}
	}
	if b := procBytes("/proc/meminfo", "MemTotal:"); b > 0 {
		return b, "the machine's memory (MemTotal)"
	}
	return 0, ""
}

// Budget is what a run may hold: the Go runtime's memory limit (GOMEMLIMIT, or the
// one graphdp sets) when there is one, else Machine. source says which.
func Budget() (bytes int64, source string) {
	if l := debug.SetMemoryLimit(-1); l < math.MaxInt64 {
		return l, "the Go memory limit (GOMEMLIMIT)"
	}
	return Machine()
}

// PeakRSS is the process's peak resident set (VmHWM) since it started or since the
// last ResetPeak, or 0 where unknown.
func PeakRSS() int64 { return procBytes("/proc/self/status", "VmHWM:") }

// ResetPeak restarts the kernel's count of the peak resident set (VmHWM), so that
// PeakRSS measures what comes next alone (Linux; elsewhere a no-op).
func ResetPeak() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// procBytes is the "<key> <n> kB" line of a /proc file in bytes, or 0 where the
// file or the line cannot be read.
func procBytes(path, key string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
