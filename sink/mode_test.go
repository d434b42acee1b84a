package sink

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// withUmask runs the test under umask m (process-wide: these tests are not parallel).
func withUmask(t *testing.T, m int) {
	old := syscall.Umask(m)
	t.Cleanup(func() { syscall.Umask(old) })
}

// Issue 24, defect 4: a new output's mode is 0666 without the umask, a replaced
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
