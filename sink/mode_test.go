package sink

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// withUmask runs the test under umask m (process-wide: these tests are not parallel).
func withUmask(t *testing.T, m int) {
	old := syscall.Umask(m)
	t.Cleanup(func() { syscall.Umask(old) })
}

// A new output's mode is 0666 without the umask, a replaced
// file keeps its permission bits (never setuid, setgid or sticky), and a symlink
// replaced is not a file whose mode counts. Expected modes: open(2)'s rule
// (mode &^ umask) and the files the test makes.
func TestOutputModes(t *testing.T) {
	cases := []struct {
		name     string
		umask    int
		previous fs.FileMode // 0: no previous file
		special  fs.FileMode // setuid/setgid/sticky bits on the previous file
		link     bool        // the destination is a symlink to a file of mode previous
		want     fs.FileMode
	}{
		{"new, umask 077", 0o077, 0, 0, false, 0o600},
		{"new, umask 022", 0o022, 0, 0, false, 0o644},
		{"new, umask 027", 0o027, 0, 0, false, 0o640},
		{"replacing 0640, umask 022", 0o022, 0o640, 0, false, 0o640},
		{"replacing 0604, umask 077", 0o077, 0o604, 0, false, 0o604},
		{"replacing 0755 setuid", 0o022, 0o755, fs.ModeSetuid | fs.ModeSticky, false, 0o755},
		{"replacing a symlink to a 0600 file, umask 022", 0o022, 0o600, 0, true, 0o644},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withUmask(t, c.umask)
			dir := t.TempDir()
			path := filepath.Join(dir, "out.csv")
			if c.previous != 0 {
				p := path
				if c.link {
					p = filepath.Join(dir, "target.csv")
					if err := os.Symlink(p, path); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, c.previous|c.special); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			if !fi.Mode().IsRegular() || fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != c.want {
				t.Errorf("mode %v, want %v", fi.Mode(), c.want)
			}
			if c.link { // replaced, not followed
				if data, _ := os.ReadFile(filepath.Join(dir, "target.csv")); string(data) != "old" {
					t.Errorf("the symlink's target was written: %q", data)
				}
			}
		})
	}
}

// The umask is read as it is when a file is staged (not once per process), and
// reading it leaves it as it was: umaskBySetting (used where /proc does not
// tell) agrees with /proc/self/status.
func TestUmaskRead(t *testing.T) {
	for _, m := range []int{0o077, 0o022, 0o002} {
		withUmask(t, m)
		if got := umask(); got != fs.FileMode(m) {
			t.Errorf("umask() = %o, want %o", got, m)
		}
		if got := umaskBySetting(); got != fs.FileMode(m) {
			t.Errorf("umaskBySetting() = %o, want %o", got, m)
		}
		if p, ok := procUmask(); ok && p != fs.FileMode(m) {
			t.Errorf("after umaskBySetting, /proc/self/status says %o, want %o", p, m)
		}
	}
}

// While it is written, a temporary file is 0600 whatever the umask and whatever
// the mode it will have: nobody else can open it and read a mechanism half
// written. Seen from inside the write, through the process's open files (the
// file is unnamed on Linux, named elsewhere).
func TestTemporaryFileIs0600(t *testing.T) {
	withUmask(t, 0)
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(path, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	seen := 0
	err := WriteFileAtomic(path, func(w io.Writer) error {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd")
		}
		for _, fd := range fds {
			p := filepath.Join("/proc/self/fd", fd.Name())
			target, err := os.Readlink(p)
			if err != nil || !strings.HasPrefix(target, dir+"/") || strings.HasSuffix(target, "/out.csv") {
				continue
			}
			fi, err := os.Stat(p)
			if err != nil {
				continue
			}
			seen++
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("the temporary file %s has mode %v while written, want 0600", target, fi.Mode().Perm())
			}
		}
		_, err = io.WriteString(w, "new")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != 1 {
		t.Errorf("saw %d temporary files open during the write, want 1", seen)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o666 {
		t.Errorf("published with mode %v, want the replaced file's 0666", fi.Mode().Perm())
	}
}

// A private output (NewPrivateOutputs, WritePrivate: a mechanism, a hitting set, a
// summary with per-answer figures) is 0600 whatever the umask, also when it
// replaces a file others could read (docs/FORMATS.md, "Private and shareable
// outputs"); a shareable one keeps open(2)'s rule beside it. Expected modes: 0600
// by definition; 0666 &^ umask for the shareable file.
func TestPrivateOutputModes(t *testing.T) {
	for _, c := range []struct {
		name     string
		umask    int
		previous fs.FileMode // 0: no previous file
	}{
		{"new, umask 0", 0, 0},
		{"new, umask 022", 0o022, 0},
		{"replacing 0644, umask 0", 0, 0o644},
		{"replacing 0666, umask 022", 0o022, 0o666},
	} {
		t.Run(c.name, func(t *testing.T) {
			withUmask(t, c.umask)
			dir := t.TempDir()
			file := filepath.Join(dir, "summary.json")
			table := filepath.Join(dir, "mechanism.csv")
			shared := filepath.Join(dir, "released.csv")
			for _, p := range []string{file, table} {
				if c.previous == 0 {
					continue
				}
				if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, c.previous); err != nil {
					t.Fatal(err)
				}
			}
			o := NewPrivateOutputs()
			defer o.Abort()
			if err := o.WriteFile(context.Background(), file, func(w io.Writer) error { _, err := io.WriteString(w, "{}"); return err }); err != nil {
				t.Fatal(err)
			}
			if err := o.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			defer mem.AssertSize(t, 0)
			rec := newAllKinds(t, mem)
			defer rec.Release()
			if err := WritePrivate(context.Background(), table, rec, nil); err != nil {
				t.Fatal(err)
			}
			if err := Write(context.Background(), shared, rec, nil); err != nil {
				t.Fatal(err)
			}
			for p, want := range map[string]fs.FileMode{file: 0o600, table: 0o600, shared: 0o666 &^ fs.FileMode(c.umask)} {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != want {
					t.Errorf("%s: mode %v, want %v", filepath.Base(p), fi.Mode().Perm(), want)
				}
			}
		})
	}
}
