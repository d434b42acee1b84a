package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Every private file the commands write (docs/FORMATS.md, "Private and shareable
// outputs": computed from the answers) is 0600 whatever the umask, also when it
// replaces a file others could read; a released answers file, shareable, keeps
// open(2)'s 0666 &^ umask. Not parallel: the umask is the process's.
func TestPrivateFilesAre0600(t *testing.T) {
	for _, umask := range []int{0, 0o022} {
		old := syscall.Umask(umask)
		dir := t.TempDir()
		p := func(name string) string { return filepath.Join(dir, name) }
		in := []string{"--vertices", "testdata/path/vertices.csv", "--edges", "testdata/path/edges.csv", "--epsilon", ln2}
		// A previous run's mechanism, readable by all: replaced, it does not keep its bits.
		if err := os.WriteFile(p("m.parquet"), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p("m.parquet"), 0o644)
		for _, args := range [][]string{
			{"hitting-set", "--quiet", "--out", p("h.csv")},
			{"run", "--quiet", "--hitting-set", p("h.csv"), "--out", p("m.parquet"), "--summary", p("s.json")},
			{"report", "--mechanism", p("m.parquet"), "--html", p("r.html")},
			{"query", "--quiet", "--hitting-set", p("h.csv"), "--id", "1", "--out", p("q.csv")},
			{"optimize", "--quiet", "--out", p("o.csv"), "--summary", p("o.json"), "--mechanism-out", p("om.csv")},
			{"release", "--mechanism", p("m.parquet"), "--id", "1", "--out", p("released.csv"), "--no-ledger"},
		} {
			if args[0] == "release" {
				mustRun(t, 0, args...)
				continue
			}
			mustRun(t, 0, append(args, in...)...)
		}
		syscall.Umask(old)
		want := map[string]fs.FileMode{"h.csv": 0o600, "m.parquet": 0o600, "s.json": 0o600, "r.html": 0o600, "q.csv": 0o600,
			"o.csv": 0o600, "o.json": 0o600, "om.csv": 0o600, "released.csv": 0o666 &^ fs.FileMode(umask)}
		for name, mode := range want {
			fi, err := os.Stat(p(name))
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != mode {
				t.Errorf("umask %03o: %s has mode %v, want %v", umask, name, fi.Mode().Perm(), mode)
			}
		}
	}
}
