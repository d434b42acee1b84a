package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/graphdp/graphdp/ledger"
)

// graphdpProcess is graphdp as a process of its own (this test binary, by
// execHelperEnv), run with args; cred, if set, runs it as that user.
func graphdpProcess(bin string, cred *syscall.Credential, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), execHelperEnv+"=1")
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	return cmd
}

// processExit is a finished command's exit status.
func processExit(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// Twenty graphdp processes release dataset 2 at once against a budget with room
// for five: the ledger's lock serialises them, exactly five succeed, the others
// are refused (exit 3, nothing written), and the ledger verifies with five
// releases.
func TestLedgerConcurrentProcesses(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "2.5")
	auditAlone(t, led, relMech, "--epsilon", "0.5", "--delta", "0")
	cmds := make([]*exec.Cmd, 20)
	outs := make([]bytes.Buffer, 20)
	for i := range cmds {
		cmds[i] = graphdpProcess(os.Args[0], nil, "release", "-quiet", "--mechanism", relMech, "--epsilon", "0.5", "--delta", "0",
			"--id", "2", "--out", filepath.Join(dir, "r"+strings.Repeat("x", i)+".csv"), "--ledger", led)
		cmds[i].Stderr = &outs[i]
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	ok := 0
	for i, c := range cmds {
		switch code := processExit(c.Wait()); code {
		case 0:
			ok++
		case 3:
			if !strings.Contains(outs[i].String(), "past the budget") {
				t.Errorf("process %d: %s", i, outs[i].String())
			}
			if _, err := os.Stat(filepath.Join(dir, "r"+strings.Repeat("x", i)+".csv")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("process %d was refused but wrote its file", i)
			}
		default:
			t.Errorf("process %d: exit %d: %s", i, code, outs[i].String())
		}
	}
	l, err := ledger.Read(led)
	if err != nil {
		t.Fatal(err)
	}
	if ok != 5 || len(l.Releases) != 5 {
		t.Errorf("%d releases succeeded, %d recorded; want 5", ok, len(l.Releases))
	}
	mustRun(t, 0, "ledger", "verify", led)
}

// When the folder's fsync fails after the release file was renamed into place, the file
// is published: the ledger keeps the release charged, and the exit status is 1 saying
// so. The failure is real: the output folder is writable but not readable (mode 0300),
// so it can be renamed into but not opened for its fsync; as root, graphdp runs as
// nobody for the permission to bite.
func TestReleaseDirSyncFailureStaysCharged(t *testing.T) {
	base, err := os.MkdirTemp("", "graphdp-dirsync-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	var cred *syscall.Credential
	if os.Getuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	chown := func(path string) {
		if cred != nil {
			if err := os.Chown(path, int(cred.Uid), int(cred.Gid)); err != nil {
				t.Skipf("cannot hand %s to uid %d: %v", path, cred.Uid, err)
			}
		}
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	// The binary and the mechanism where the other user can read them.
	bin := filepath.Join(base, "graphdp.test")
	copyFile(t, os.Args[0], bin, 0o755)
	mech := filepath.Join(base, "mechanism.csv")
	copyFile(t, relMech, mech, 0o644)
	ledDir := filepath.Join(base, "ledger")
	os.Mkdir(ledDir, 0o700)
	chown(ledDir)
	led := filepath.Join(ledDir, "led.jsonl")
	outDir := filepath.Join(base, "out")
	os.Mkdir(outDir, 0o700)
	chown(outDir)
	run := func(args ...string) (int, string) {
		var stderr bytes.Buffer
		cmd := graphdpProcess(bin, cred, args...)
		cmd.Dir = base
		cmd.Stderr = &stderr
		err := cmd.Run()
		if cmd.ProcessState == nil {
			t.Fatalf("%v: %v", args, err)
		}
		return processExit(err), stderr.String()
	}
	if code, stderr := run("ledger", "init", led, "--budget-epsilon", "1"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	auditAlone(t, led, mech, "--epsilon", "0.5", "--delta", "0")
	if err := os.Chmod(outDir, 0o300); err != nil {
		t.Fatal(err)
	}
	if f, err := os.Open(outDir); err == nil && cred == nil {
		f.Close()
		t.Skip("a folder without read permission can still be opened here")
	}
	out := filepath.Join(outDir, "r.csv")
	code, stderr := run("release", "--mechanism", mech, "--epsilon", "0.5", "--delta", "0", "--id", "1", "--out", out, "--ledger", led)
	if code == 0 {
		t.Skipf("the folder's fsync did not fail here: %s", stderr)
	}
	if code != 1 || !strings.Contains(stderr, "fsync of directory") || !strings.Contains(stderr, "keeps it charged") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	os.Chmod(outDir, 0o700)
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the release file is not in place: %v", err)
	}
	l, err := ledger.Read(led)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Releases) != 1 || l.Releases[0].Datasets[0] != "1" || !strings.Contains(stderr, l.Releases[0].ReleaseID) {
		t.Errorf("the published release is not charged: %+v", l.Releases)
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
