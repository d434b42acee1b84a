package sink

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// CheckPath names every place a write could not use, before the write. Expected
// results: the file system the test builds, and NAME_MAX = 255 (ext4, tmpfs).
func TestCheckPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.csv")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want string // "" = no problem
	}{
		{filepath.Join(dir, "ok.csv"), ""},
		{file, ""}, // replacing a file is fine
		{filepath.Join(dir, strings.Repeat("a", 230)+".csv"), ""},
		{filepath.Join(dir, strings.Repeat("a", 245)+".csv"), "too long"}, // the name fits, its temporary name does not
		{filepath.Join(dir, strings.Repeat("a", 300)+".csv"), "too long"},
		{filepath.Join(dir, "no", "x.csv"), "does not exist"},
		{filepath.Join(file, "x.csv"), "is not a folder"},
		{dir, "is a folder"},
		{dir + "/", "names a folder"},
	} {
		err := CheckPath(c.path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want no problem", c.path, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
	}
}

// roMountHelperEnv makes the test binary check a path on a read-only tmpfs in a
// mount namespace of its own.
const roMountHelperEnv = "GRAPHDP_SINK_RO_MOUNT_HELPER"

// A folder on a read-only mount is not writable, even for root: CheckPath says so
// (EROFS). Linux as root only (a tmpfs mounted read-only in a private mount
// namespace); skipped elsewhere.
func TestCheckPathReadOnlyMount(t *testing.T) {
	if mnt := os.Getenv(roMountHelperEnv); mnt != "" {
		defer os.Exit(0)
		if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
			os.Stdout.WriteString("skip make / private: " + err.Error())
			return
		}
		if err := syscall.Mount("graphdp-test", mnt, "tmpfs", syscall.MS_RDONLY, "size=16k"); err != nil {
			os.Stdout.WriteString("skip mount tmpfs: " + err.Error())
			return
		}
		err := CheckPath(filepath.Join(mnt, "m.csv"))
		if err == nil {
			os.Stdout.WriteString("no problem")
			return
		}
		os.Stdout.WriteString(err.Error())
		return
	}
	mnt := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckPathReadOnlyMount$")
	cmd.Env = append(os.Environ(), roMountHelperEnv+"="+mnt)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS}
	out, err := cmd.Output()
	if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) {
		t.Skipf("no mount namespace: %v", err)
	}
	if err != nil {
		t.Fatalf("helper: %v: %s", err, out)
	}
	if rest, ok := bytes.CutPrefix(out, []byte("skip ")); ok {
		t.Skip(string(rest))
	}
	if !bytes.Contains(out, []byte("is not writable")) || !bytes.Contains(out, []byte("read-only file system")) {
		t.Errorf("CheckPath on a read-only mount: %q", out)
	}
}
