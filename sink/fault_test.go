package sink

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The fault-injection suite of the write path (FORMATS.md, "Writing outputs"): every
// step of staging and publishing three outputs fails in turn, with an error, with
// ENOSPC and by a cancelled context (what a signal does), and each time the invariant
// of doc.go (invariant 5) is checked on the folders: every output new, or every output
// as it was (the same inode, bytes and mode, or still absent), and nothing else
// changed.

// fileState is one folder entry: its bytes, permission bits and inode.
type fileState struct {
	data []byte
	mode fs.FileMode
	ino  uint64
}

// folderState is every entry under root, by relative path (folders by name only).
func folderState(t *testing.T, root string) map[string]fileState {
	t.Helper()
	st := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		s := fileState{mode: fi.Mode().Perm(), ino: fi.Sys().(*syscall.Stat_t).Ino}
		if d.Type().IsRegular() {
			if s.data, err = os.ReadFile(p); err != nil {
				return err
			}
		}
		st[rel] = s
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// faultCase is the three outputs: a table replacing a 0640 file, a JSON file
// larger than the write buffer replacing a 0600 file in another folder, and a new
// page.
type faultCase struct {
	root   string
	rec    func() // the table's release
	stage  func(ctx context.Context, o *Outputs) error
	newCSV []byte
	big    []byte
}

const (
	outTable = "m.csv"
	outJSON  = "sub/s.json"
	outPage  = "h.html"
)

func newFaultCase(t *testing.T) *faultCase {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]struct {
		data string
		mode fs.FileMode
	}{outTable: {"old table\n", 0o640}, outJSON: {`{"old":true}`, 0o600}} {
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, []byte(f.data), f.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, f.mode); err != nil { // whatever the umask
			t.Fatal(err)
		}
	}
	mem := memory.NewGoAllocator()
	rec := newVertexTable(t, mem, 10)
	c := &faultCase{root: root, rec: rec.Release, big: bytes.Repeat([]byte("x"), bufferSize+bufferSize/2)}
	c.stage = func(ctx context.Context, o *Outputs) error {
		if err := o.Write(ctx, filepath.Join(root, outTable), rec, nil); err != nil {
			return err
		}
		if err := o.WriteFile(ctx, filepath.Join(root, outJSON), func(w io.Writer) error {
			for b := c.big; len(b) > 0; b = b[min(len(b), 4096):] { // through the buffer: two writes to the file
				if _, err := w.Write(b[:min(len(b), 4096)]); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
		return o.WriteFile(ctx, filepath.Join(root, outPage), func(w io.Writer) error { _, err := io.WriteString(w, "<p>new</p>"); return err })
	}
	// The table's bytes, written alone elsewhere (Write is deterministic).
	other := filepath.Join(t.TempDir(), outTable)
	if err := Write(context.Background(), other, rec, nil); err != nil {
		t.Fatal(err)
	}
	var err error
	if c.newCSV, err = os.ReadFile(other); err != nil {
		t.Fatal(err)
	}
	return c
}

// run stages and commits the outputs with fault as the hook.
func (c *faultCase) run(ctx context.Context, hook func(step, path string) error) error {
	fault = hook
	defer func() { fault = nil }()
	o := NewOutputs()
	defer o.Abort()
	if err := c.stage(ctx, o); err != nil {
		return err
	}
	return o.Commit(ctx)
}

// assertAllNew checks every output holds its new content and mode, and that the
// folders hold nothing but the outputs (besides the names in left).
func (c *faultCase) assertAllNew(t *testing.T, left ...string) {
	t.Helper()
	st := folderState(t, c.root)
	want := map[string][]byte{outTable: c.newCSV, outJSON: c.big, outPage: []byte("<p>new</p>")}
	modes := map[string]fs.FileMode{outTable: 0o640, outJSON: 0o600, outPage: 0o666 &^ umask()}
	for name, data := range want {
		if !bytes.Equal(st[name].data, data) {
			t.Errorf("%s: %d bytes, want the new %d", name, len(st[name].data), len(data))
		}
		if st[name].mode != modes[name] {
			t.Errorf("%s: mode %v, want %v", name, st[name].mode, modes[name])
		}
	}
	for name := range st {
		rel, _ := filepath.Rel(c.root, filepath.Join(c.root, name))
		if _, ok := want[name]; !ok && name != "sub" && !slices.Contains(left, filepath.Join(c.root, rel)) {
			t.Errorf("the folder holds %s besides the outputs", name)
		}
	}
}

// events records the (step, path) events of a commit that does not fail.
func (c *faultCase) events(t *testing.T) []string {
	t.Helper()
	var evs []string
	if err := c.run(context.Background(), func(step, path string) error {
		evs = append(evs, step+" "+path)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c.assertAllNew(t)
	return evs
}

// Every step of every output fails once, three ways; the folders show all new
// outputs or all previous ones, and nothing else.
func TestFaultInjectionEveryStep(t *testing.T) {
	probe := newFaultCase(t)
	defer probe.rec()
	evs := probe.events(t)
	// Every step runs for every output where it applies: a write (twice for the
	// large one), a backup for all but the last, one fsync per folder.
	steps := map[string]int{}
	for _, e := range evs {
		step, _, _ := strings.Cut(e, " ")
		steps[step]++
	}
	for step, n := range map[string]int{"create": 3, "chmod": 3, "fsync": 3, "close": 3, "backup": 2, "rename": 3, "syncdir": 2, "unbackup": 2, "resync": 2} {
		if steps[step] != n {
			t.Errorf("step %s ran %d times, want %d (events %q)", step, steps[step], n, evs)
		}
	}
	if steps["write"] < 4 {
		t.Errorf("%d writes, want at least one per output and two for the large one", steps["write"])
	}
	errENOSPC := syscall.ENOSPC
	firstRename := slices.IndexFunc(evs, func(e string) bool { return strings.HasPrefix(e, "rename ") })
	for i, ev := range evs {
		step, path, _ := strings.Cut(ev, " ")
		for _, kind := range []string{"error", "ENOSPC", "cancel"} {
			t.Run(fmt.Sprintf("%02d_%s_%s_%s", i, step, filepath.Base(path), kind), func(t *testing.T) {
				c := newFaultCase(t)
				defer c.rec()
				rel, _ := filepath.Rel(probe.root, path)
				path := filepath.Join(c.root, rel)
				if step == "unbackup" { // a backup's name is random: its folder
					path = filepath.Dir(path)
				}
				before := folderState(t, c.root)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				n := 0
				err := c.run(ctx, func(string, string) error {
					defer func() { n++ }()
					if n != i {
						return nil
					}
					switch kind {
					case "error":
						return errInjected
					case "ENOSPC":
						return errENOSPC
					}
					cancel() // a signal between two steps
					return nil
				})
				// A signal before the first rename stops the commit; from the first
				// rename on, Commit no longer reads the context and finishes.
				if kind == "cancel" && (i < firstRename) != errors.Is(err, ErrNotPublished) {
					t.Errorf("cancelled at event %d (first rename %d): err = %v", i, firstRename, err)
				}
				var pe *PublishError
				switch {
				case err == nil:
					c.assertAllNew(t)
					if kind != "cancel" && step != "resync" {
						t.Errorf("the failure of %s was not reported", ev)
					}
				case errors.Is(err, ErrNotPublished):
					if after := folderState(t, c.root); !statesEqual(before, after) {
						t.Errorf("nothing published, yet the folders changed:\nbefore %v\nafter  %v", names(before), names(after))
					}
					if errors.As(err, &pe) {
						t.Errorf("both ErrNotPublished and a *PublishError: %v", err)
					}
				case errors.As(err, &pe):
					// Only after every rename: the outputs are all in place.
					if step != "syncdir" && step != "unbackup" {
						t.Errorf("%s failing left a partial publication: %v", ev, err)
					}
					if len(pe.Published) != 3 || len(pe.Previous) != 0 {
						t.Errorf("published %q, as before %q: want all three published", pe.Published, pe.Previous)
					}
					c.assertAllNew(t, pe.Left...)
					for _, l := range pe.Left {
						if _, err := os.Stat(l); err != nil {
							t.Errorf("reported left behind %s: %v", l, err)
						}
					}
				default:
					t.Errorf("error %v is neither ErrNotPublished nor a *PublishError", err)
				}
				if err != nil {
					want := errInjected
					switch kind {
					case "ENOSPC":
						want = errENOSPC
					case "cancel":
						want = context.Canceled
					}
					if !errors.Is(err, want) {
						t.Errorf("err = %v, want it to wrap %v", err, want)
					}
					if kind != "cancel" && !strings.Contains(err.Error(), path) {
						t.Errorf("error %q does not name %s", err, path)
					}
				}
			})
		}
	}
}

func statesEqual(a, b map[string]fileState) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || !bytes.Equal(x.data, y.data) || x.mode != y.mode || x.ino != y.ino {
			return false
		}
	}
	return true
}

func names(st map[string]fileState) []string {
	var ns []string
	for k := range st {
		ns = append(ns, k)
	}
	slices.Sort(ns)
	return ns
}

// When the last rename fails and putting back the first output fails too, the
// *PublishError says exactly what is where: the first output new (its previous
// content in the backup it names), the others as before, no temporary file left.
func TestFaultRestoreFails(t *testing.T) {
	c := newFaultCase(t)
	defer c.rec()
	table, page := filepath.Join(c.root, outTable), filepath.Join(c.root, outPage)
	err := c.run(context.Background(), func(step, path string) error {
		if step == "rename" && path == page || step == "restore" && path == table {
			return errInjected
		}
		return nil
	})
	var pe *PublishError
	if !errors.As(err, &pe) || errors.Is(err, ErrNotPublished) {
		t.Fatalf("err = %v, want a *PublishError", err)
	}
	if !slices.Equal(pe.Published, []string{table}) {
		t.Errorf("published %q, want only %s", pe.Published, table)
	}
	if len(pe.Left) != 1 || !strings.HasPrefix(filepath.Base(pe.Left[0]), ".m.csv.bak-") {
		t.Fatalf("left %q, want the table's backup", pe.Left)
	}
	st := folderState(t, c.root)
	if !bytes.Equal(st[outTable].data, c.newCSV) {
		t.Errorf("%s does not hold its new content", outTable)
	}
	if got := st[filepath.Base(pe.Left[0])].data; string(got) != "old table\n" {
		t.Errorf("the backup holds %q, want the previous table", got)
	}
	if string(st[outJSON].data) != `{"old":true}` {
		t.Errorf("%s was not put back: %q", outJSON, st[outJSON].data)
	}
	if _, ok := st[outPage]; ok {
		t.Errorf("%s exists: its rename failed", outPage)
	}
	if len(st) != 4 { // m.csv, its backup, sub, sub/s.json
		t.Errorf("the folders hold %v", names(st))
	}
	for _, p := range []string{outJSON, outPage} {
		if !slices.Contains(pe.Previous, filepath.Join(c.root, p)) {
			t.Errorf("%s not reported as before: %q", p, pe.Previous)
		}
	}
}

// crashHelperEnv makes the test binary a writer killed between two renames.
const crashHelperEnv = "GRAPHDP_SINK_CRASH_HELPER"

// A writer killed (SIGKILL) between the first and the second rename: the first
// output is new and its previous content is in its backup; the others are as they
// were, their temporary files named; the next write of each removes those, once
// stale, and never the backup (doc.go, invariant 5).
func TestCrashBetweenRenames(t *testing.T) {
	if root := os.Getenv(crashHelperEnv); root != "" {
		c := &faultCase{}
		mem := memory.NewGoAllocator()
		rec := newVertexTable(t, mem, 10)
		c.big = bytes.Repeat([]byte("x"), bufferSize+bufferSize/2)
		o := NewOutputs()
		stage := []struct {
			path string
			data []byte
		}{{outJSON, c.big}, {outPage, []byte("<p>new</p>")}}
		if err := o.Write(context.Background(), filepath.Join(root, outTable), rec, nil); err != nil {
			t.Fatal(err)
		}
		for _, s := range stage {
			if err := o.WriteFile(context.Background(), filepath.Join(root, s.path), func(w io.Writer) error { _, err := w.Write(s.data); return err }); err != nil {
				t.Fatal(err)
			}
		}
		renames := 0
		fault = func(step, path string) error {
			if step == "rename" {
				if renames++; renames == 2 {
					os.Stdout.WriteString("ready\n")
					time.Sleep(time.Minute)
				}
			}
			return nil
		}
		o.Commit(context.Background())
		os.Exit(0)
	}
	c := newFaultCase(t)
	defer c.rec()
	killWhenReady(t, "TestCrashBetweenRenames", crashHelperEnv+"="+c.root)

	st := folderState(t, c.root)
	if !bytes.Equal(st[outTable].data, c.newCSV) {
		t.Errorf("%s: not the new table", outTable)
	}
	if string(st[outJSON].data) != `{"old":true}` {
		t.Errorf("%s: not as before", outJSON)
	}
	if _, ok := st[outPage]; ok {
		t.Errorf("%s was created", outPage)
	}
	var backup, jsonBackup string
	temps := 0
	for name, s := range st {
		base := filepath.Base(name)
		switch {
		case strings.HasPrefix(base, ".m.csv.bak-"):
			backup = name
			if string(s.data) != "old table\n" {
				t.Errorf("the backup %s holds %q, want the previous table", name, s.data)
			}
		case strings.HasPrefix(base, ".s.json.bak-"):
			// Every existing target but the last has a backup before the first
			// rename: this one is a second name of the file still in place.
			jsonBackup = name
			if s.ino != st[outJSON].ino {
				t.Errorf("the backup %s is not the file %s", name, outJSON)
			}
		case strings.HasPrefix(base, ".s.json.tmp-"), strings.HasPrefix(base, ".h.html.tmp-"):
			temps++
		case name == outTable || name == outJSON || name == "sub":
		default:
			t.Errorf("unexpected %s after the crash", name)
		}
	}
	if backup == "" || jsonBackup == "" || temps != 2 {
		t.Fatalf("after the crash: backup %q, %d temporary files; the folders hold %v", backup, temps, names(st))
	}
	// The next writes remove the stale temporary files, not the backup.
	old := time.Now().Add(-time.Hour)
	for name := range st {
		if strings.Contains(name, ".tmp-") {
			os.Chtimes(filepath.Join(c.root, name), old, old)
		}
	}
	for _, p := range []string{outJSON, outPage} {
		if err := WriteFileAtomic(filepath.Join(c.root, p), func(w io.Writer) error { _, err := io.WriteString(w, "again"); return err }); err != nil {
			t.Fatal(err)
		}
	}
	after := names(folderState(t, c.root))
	want := []string{backup, outPage, outTable, "sub", jsonBackup, outJSON}
	slices.Sort(want)
	if !slices.Equal(after, want) {
		t.Errorf("after the next writes the folders hold %q, want %q", after, want)
	}
}
