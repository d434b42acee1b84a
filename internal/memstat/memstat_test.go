package memstat

import (
	"os"
	"testing"
)

// The machine's memory reads as something plausible here (Linux: cgroup or MemTotal).
func TestMachine(t *testing.T) {
	b, src := Machine()
	if _, err := os.Stat("/proc/meminfo"); err == nil && (b < 1<<26 || src == "") {
		t.Errorf("Machine() = %d, %q", b, src)
	}
}

// The peak resident set covers memory the test has just touched: 64 MiB written
// page by page must be resident at once.
func TestPeakRSS(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status here")
	}
	ResetPeak()
	buf := make([]byte, 64<<20)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1
	}
	if p := PeakRSS(); p < int64(len(buf)) {
		t.Errorf("PeakRSS() = %d after touching %d bytes", p, len(buf))
	}
	buf[len(buf)-1] = 2 // keep buf live until the peak is read
}
