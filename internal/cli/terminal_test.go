//go:build linux

package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal: the side a program writes to as its terminal, and
// the side that reads what the terminal shows. The test skips where the system has
// none.
func openPTY(t *testing.T) (term, screen *os.File) {
	t.Helper()
	screen, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	var unlock int32
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, screen.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("no pseudo-terminal: unlock: %v", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, screen.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("no pseudo-terminal: number: %v", e)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { term.Close(); screen.Close() })
	return term, screen
}

// On a terminal (stderr a pseudo-terminal, where run draws its progress line), each
// WARN log line clears the line first ("\r\033[K"), so that it never runs on from
// the progress line; off a terminal nothing is drawn and nothing cleared.
func TestWarnLineOnATerminal(t *testing.T) {
	dir := t.TempDir()
	v, _, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	e := filepath.Join(dir, "header-only.csv")
	write(t, e, "src,dst\n")
	args := []string{"run", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-allow-non-private"}

	term, screen := openPTY(t)
	shown := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, screen) // until the terminal side closes (EIO)
		shown <- b.String()
	}()
	var stdout bytes.Buffer
	code := Main(context.Background(), append(args, "-out", filepath.Join(dir, "m.csv")), &stdout, term)
	term.Close()
	got := <-shown
	warns := strings.Count(got, "level=WARN")
	if code != 0 || warns == 0 {
		t.Fatalf("exit %d, %d WARN lines, so the test proves nothing:\n%q", code, warns, got)
	}
	if cleared := strings.Count(got, "\r\033[Ktime="); cleared != warns {
		t.Errorf("%d of %d WARN lines clear the terminal's line first:\n%q", cleared, warns, got)
	}

	_, stderr := mustRun(t, 0, append(args, "-out", filepath.Join(dir, "m2.csv"))...)
	if !strings.Contains(stderr, "level=WARN") || strings.Contains(stderr, "\033") || strings.Contains(stderr, "\r") {
		t.Errorf("off a terminal:\n%q", stderr)
	}
}
