package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// readOnlyDir makes dir unwritable for this process: mode 0555, and where that is
// not enough (root), the immutable attribute (chattr +i). It skips the test when
// neither works, and undoes both at cleanup.
func readOnlyDir(t *testing.T, dir string) {
	t.Helper()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if unix.Access(dir, unix.W_OK) != nil {
		return
	}
	if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot make %s read-only for this process (root, and chattr +i: %v %s)", dir, err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
	if unix.Access(dir, unix.W_OK) == nil {
		t.Skipf("%s is still writable", dir)
	}
}

// Every output path is checked before any work. A summary in
// a read-only folder, or named too long for the file system (with the temporary
// name a write needs beside it), is a usage error (exit 2) naming it, and the
// previous mechanism is left as it was.
func TestRunOutputPlaceCheckedFirst(t *testing.T) {
	for _, c := range []struct {
		name    string
		summary func(t *testing.T, dir string) string
		want    string
	}{
		{"read-only folder", func(t *testing.T, dir string) string {
			ro := filepath.Join(dir, "ro")
			if err := os.Mkdir(ro, 0o755); err != nil {
				t.Fatal(err)
			}
			readOnlyDir(t, ro)
			return filepath.Join(ro, "s.json")
		}, "is not writable"},
		// 250 bytes fit a name (255) but not ".<name>.tmp-<digits>".
		{"name too long with its temporary name", func(t *testing.T, dir string) string {
			return filepath.Join(dir, strings.Repeat("s", 245)+".json")
		}, "too long"},
		{"name too long", func(t *testing.T, dir string) string { return filepath.Join(dir, strings.Repeat("s", 300)+".json") }, "too long"},
		{"folder is a file", func(t *testing.T, dir string) string { return filepath.Join(dir, "m.csv", "s.json") }, "is not a folder"},
		{"an existing folder", func(t *testing.T, dir string) string { return dir }, "is a folder"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := exampleCopy(t)
			mech := filepath.Join(dir, "m.csv")
			if err := os.WriteFile(mech, []byte("previous mechanism\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			summary := c.summary(t, dir)
			before := snapshot(t, dir)
			code, _, stderr := graphdp(t, "run", "-quiet", "-config", filepath.Join(dir, "configs/example.yaml"), "-out", mech, "-summary", summary)
			if code != 2 || !strings.Contains(stderr, "--summary: "+summary) || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, want 2 with --summary: %s … %s: %s", code, summary, c.want, stderr)
			}
			assertSame(t, dir, before)
		})
	}
}

// The same check for the other commands' outputs: each refuses a place it could
// not write before any work.
func TestToolOutputPlaceCheckedFirst(t *testing.T) {
	dir := exampleCopy(t)
	cfg := filepath.Join(dir, "configs/example.yaml")
	mech := filepath.Join(dir, "m.parquet")
	if code, _, stderr := graphdp(t, "run", "-quiet", "-config", cfg, "-out", mech); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	long := filepath.Join(dir, strings.Repeat("x", 250)) // + extension: too long with the temporary name
	missing := filepath.Join(dir, "missing")
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"hitting-set", "-config", cfg, "-out", long + ".csv"}, "--out: "},
		{[]string{"query", "-config", cfg, "-id", "a", "-out", missing + "/q.csv"}, "--out: "},
		{[]string{"report", "-config", cfg, "-mechanism", mech, "-html", long + ".html"}, "--html: "},
		{[]string{"release", "-config", cfg, "-mechanism", mech, "-id", "a", "-out", missing + "/r.csv"}, "--out: "},
		{[]string{"optimize", "-config", cfg, "-out", filepath.Join(dir, "h.csv"), "-mechanism-out", long + ".csv"}, "--mechanism-out: "},
		{[]string{"optimize", "-config", cfg, "-out", filepath.Join(dir, "h.csv"), "-summary", missing + "/o.json"}, "--summary: "},
		// Each would otherwise do its work, then fail with exit 1.
		{[]string{"report", "-config", cfg, "-mechanism", mech, "-html", missing + "/r.html"}, "--html: "},
		{[]string{"optimize", "-config", cfg, "-out", filepath.Join(dir, "h.csv"), "-html", missing + "/o.html"}, "--html: "},
		{[]string{"optimize", "-config", cfg, "-out", missing + "/h.csv"}, "--out: "},
		{[]string{"run", "-config", cfg, "-out", missing + "/m.csv"}, "--out: "},
		{[]string{"release", "-config", cfg, "-mechanism", mech, "-id", "a", "-out", filepath.Join(dir, "r.csv"), "-ledger", missing + "/l.jsonl"}, "--ledger: "},
	} {
		t.Run(c.args[0]+" "+c.flag, func(t *testing.T) {
			before := snapshot(t, dir)
			code, _, stderr := graphdp(t, c.args...)
			if code != 2 || !strings.Contains(stderr, c.flag) {
				t.Errorf("exit %d, want 2 naming %s: %s", code, c.flag, stderr)
			}
			assertSame(t, dir, before)
		})
	}
}

// onFullDisk runs graphdp args in a child test binary whose folder full is a
// full tmpfs (a mount namespace of its own), and returns its "exit N" line and
// the rest of what it printed; it skips where no such namespace can be made.
func onFullDisk(t *testing.T, full string, args ...string) (status, rest string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOutputsOnFullDisk$")
	cmd.Env = append(os.Environ(), fullDiskHelperEnv+"="+strings.Join(append([]string{full}, args...), "\x1f"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS}
	out, err := cmd.Output()
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) {
		t.Skipf("no mount namespace: %v", err)
	}
	if err != nil {
		t.Fatalf("helper: %v: %s", err, out)
	}
	status, rest, _ = strings.Cut(string(out), "\n")
	if why, ok := strings.CutPrefix(status, "skip "); ok {
		t.Skip(why)
	}
	return status, rest
}

// fullDiskHelperEnv makes the test binary a graphdp run whose summary folder is a
// full tmpfs mounted in a mount namespace of its own.
const fullDiskHelperEnv = "GRAPHDP_CLI_FULL_DISK_HELPER"

// On a real full disk: one output's folder passes every check
// (it exists and is writable) but has no space left. The command fails (exit 1)
// with the disk's error, and the outputs it had staged are not published: the
// previous ones are intact, and nothing is left in either folder. run's mechanism
// with its summary on the full disk; optimize's hitting set and mechanism with its
// page there. Linux, as root (a tmpfs in a private mount namespace); skipped
// elsewhere.
func TestOutputsOnFullDisk(t *testing.T) {
	if h := os.Getenv(fullDiskHelperEnv); h != "" {
		fullDiskHelper(h)
		return
	}
	for _, c := range []struct {
		name, full string
		args       func(dir, cfg, full string) []string
	}{
		{"run", "s.json", func(dir, cfg, full string) []string {
			return []string{"run", "-quiet", "-config", cfg, "-out", filepath.Join(dir, "m.csv"), "-summary", filepath.Join(full, "s.json")}
		}},
		{"optimize", "page.html", func(dir, cfg, full string) []string {
			return []string{"optimize", "-quiet", "-config", cfg, "-out", filepath.Join(dir, "h.csv"), "-mechanism-out", filepath.Join(dir, "m.csv"),
				"-summary", filepath.Join(dir, "o.json"), "-html", filepath.Join(full, "page.html")}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := exampleCopy(t)
			full := filepath.Join(dir, "full")
			if err := os.Mkdir(full, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, n := range []string{"m.csv", "h.csv"} {
				if err := os.WriteFile(filepath.Join(dir, n), []byte("previous "+n+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, dir)
			status, rest := onFullDisk(t, full, c.args(dir, filepath.Join(dir, "configs/example.yaml"), full)...)
			if status != "exit 1" || !strings.Contains(rest, c.full) || !strings.Contains(rest, "no space left on device") || strings.Contains(rest, "published") {
				t.Errorf("%s, want exit 1 naming %s and the full disk, nothing published:\n%s", status, c.full, rest)
			}
			assertSame(t, dir, before) // the tmpfs is gone with the helper's namespace
		})
	}
}

// fullDiskHelper mounts a small tmpfs, fills it, runs graphdp with the arguments
// in h (separated by US, 0x1f, after the mount point) and prints "exit N", then stderr,
// or "skip why".
func fullDiskHelper(h string) {
	args := strings.Split(h, "\x1f")
	mnt := args[0]
	defer os.Exit(0)
	// Private first: the tmpfs must not propagate to the parent's namespace.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		os.Stdout.WriteString("skip make / private: " + err.Error() + "\n")
		return
	}
	if err := syscall.Mount("graphdp-test", mnt, "tmpfs", 0, "size=64k"); err != nil {
		os.Stdout.WriteString("skip mount tmpfs: " + err.Error() + "\n")
		return
	}
	f, err := os.Create(filepath.Join(mnt, "filler"))
	if err == nil {
		for err == nil {
			_, err = f.Write(make([]byte, 4096))
		}
		f.Close()
	}
	if !errors.Is(err, syscall.ENOSPC) {
		os.Stdout.WriteString("skip fill the tmpfs: " + err.Error() + "\n")
		return
	}
	var stderr bytes.Buffer
	code := Main(context.Background(), args[1:], io.Discard, &stderr)
	os.Stdout.WriteString("exit " + strconv.Itoa(code) + "\n" + stderr.String())
}

// Through run: under umask 077 the mechanism (every true
// answer) and the summary are created 0600; a mechanism replaced does not keep its
// 0640: private files are 0600 whatever they replace (docs/FORMATS.md).
func TestRunOutputModes(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := exampleCopy(t)
	cfg := filepath.Join(dir, "configs/example.yaml")
	mech, summary := filepath.Join(dir, "m.parquet"), filepath.Join(dir, "s.json")
	mode := func(p string) os.FileMode {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	if code, _, stderr := graphdp(t, "run", "-quiet", "-config", cfg, "-out", mech, "-summary", summary); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if mode(mech) != 0o600 || mode(summary) != 0o600 {
		t.Errorf("under umask 077: mechanism %v, summary %v, want 0600", mode(mech), mode(summary))
	}
	if err := os.Chmod(mech, 0o640); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := graphdp(t, "run", "-quiet", "-config", cfg, "-out", mech, "-summary", summary); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if mode(mech) != 0o600 {
		t.Errorf("the replaced mechanism has mode %v, want 0600, not its previous 0640", mode(mech))
	}
}
