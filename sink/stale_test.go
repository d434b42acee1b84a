package sink

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A temporary file of the same target left by a killed writer (named as this
// package names them, last modified before this process started) is removed by the
// next write; a fresh one, another target's and other names are left alone.
func TestStaleTempRemoved(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	files := map[string]time.Time{
		".out.csv.tmp-123456":  old,         // stale: removed
		".out.csv.tmp-999":     time.Time{}, // being written (modified now): kept
		".other.csv.tmp-12345": old,         // another target's: kept
		".out.csv.tmp-notours": old,         // not a name sink makes: kept
	}
	for name, mt := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if !mt.IsZero() {
			if err := os.Chtimes(p, mt, mt); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := WriteFileAtomic(filepath.Join(dir, "out.csv"), func(w io.Writer) error {
		_, err := io.WriteString(w, "new\n")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	got := dirNames(t, dir)
	want := []string{".other.csv.tmp-12345", ".out.csv.tmp-999", ".out.csv.tmp-notours", "out.csv"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("directory holds %q, want %q", got, want)
	}
}

// killHelperEnv makes the test binary a writer that is killed mid-write.
const killHelperEnv = "GRAPHDP_SINK_KILL_HELPER"

// A writer killed with SIGKILL in the middle of a write leaves the previous file
// intact and, on Linux (O_TMPFILE), no temporary file at all; where a named one is
// left, the next write of the target removes it once it is stale.
func TestKillMidWriteLeavesNothing(t *testing.T) {
	if dir := os.Getenv(killHelperEnv); dir != "" {
		WriteFileAtomic(filepath.Join(dir, "out.csv"), func(w io.Writer) error {
			if _, err := w.Write(make([]byte, 3*bufferSize)); err != nil { // past the buffer: in the file
				return err
			}
			os.Stdout.WriteString("ready\n")
			time.Sleep(time.Minute)
			return nil
		})
		os.Exit(0)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(out, []byte("previous\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	killWhenReady(t, "TestKillMidWriteLeavesNothing", killHelperEnv+"="+dir)
	if data, _ := os.ReadFile(out); string(data) != "previous\n" {
		t.Errorf("the previous file was changed: %q", data)
	}
	names := dirNames(t, dir)
	if len(names) != 1+namedTemps(t) {
		t.Errorf("after kill -9 the directory holds %q", names)
	}
	// Whatever was left, once stale, goes with the next write.
	for _, n := range names {
		if n != "out.csv" {
			old := time.Now().Add(-time.Hour)
			os.Chtimes(filepath.Join(dir, n), old, old)
		}
	}
	if err := WriteFileAtomic(out, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("after the next write the directory holds %q", names)
	}
}

// killWhenReady runs test in a child test binary with env set, waits for the
// child to print "ready" and kills it with SIGKILL (a crash at that point).
func killWhenReady(t *testing.T, test, env string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper: %q, %v", line, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}
