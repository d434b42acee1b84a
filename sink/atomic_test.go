package sink

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var errInjected = errors.New("injected failure")

// namedTemps is how many named temporary files a write in progress shows: none
// where O_TMPFILE works (Linux), else one.
func namedTemps(t *testing.T) int {
	f, ok := openAnonymous(t.TempDir())
	if !ok {
		return 1
	}
	f.Close()
	return 0
}

// dirNames lists dir's entries.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// assertOnly fails unless dir holds exactly want (file name → content).
func assertOnly(t *testing.T, dir string, want map[string][]byte) {
	t.Helper()
	names := dirNames(t, dir)
	if len(names) != len(want) {
		t.Errorf("directory holds %q, want only %d file(s)", names, len(want))
	}
	for name, content := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(got, content) {
			t.Errorf("%s changed: %d bytes, want %d", name, len(got), len(content))
		}
	}
}

// TestWriteFailsMidway stops each format's encoder after its first slice of
// rows, by cancelling the context and by an error, while the temporary file
// exists, and checks the previous file survives byte for byte.
func TestWriteFailsMidway(t *testing.T) {
	for _, ext := range []string{".parquet", ".arrow", ".csv"} {
		for _, how := range []string{"cancel", "error"} {
			t.Run(ext+"/"+how, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				rec := newVertexTable(t, mem, 100)
				defer rec.Release()
				dir := t.TempDir()
				path := filepath.Join(dir, "out"+ext)
				old := []byte("previous content\n")
				if err := os.WriteFile(path, old, 0o600); err != nil {
					t.Fatal(err)
				}

				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				cfg := defaultConfig()
				cfg.mem = mem
				cfg.sliceRows = 10
				slices := 0
				cfg.afterSlice = func(done int64) error {
					slices++
					var tmps []string
					for _, name := range dirNames(t, dir) {
						if strings.HasPrefix(name, ".out"+ext+".tmp-") {
							tmps = append(tmps, name)
						}
					}
					if len(tmps) != namedTemps(t) {
						t.Errorf("during the write the directory holds %q, want %d .out%s.tmp-* file", dirNames(t, dir), namedTemps(t), ext)
					}
					if done < 30 {
						return nil
					}
					if how == "cancel" {
						cancel()
						return nil
					}
					return errInjected
				}
				err := writeRecord(ctx, path, rec, map[string]string{"k": "v"}, cfg)
				want := errInjected
				if how == "cancel" {
					want = context.Canceled
				}
				if !errors.Is(err, want) {
					t.Fatalf("err = %v, want %v", err, want)
				}
				if !strings.Contains(err.Error(), path) {
					t.Errorf("error %q does not name %s", err, path)
				}
				if slices != 3 {
					t.Errorf("stopped after %d slices, want 3 of 10", slices)
				}
				assertOnly(t, dir, map[string][]byte{"out" + ext: old})
			})
		}
	}
}

// TestWriteFileAtomicFailsAfterFlush fails after more than the write buffer has
// reached the temporary file, so the cleanup must remove real bytes.
func TestWriteFileAtomicFailsAfterFlush(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "summary.json")
	old := []byte(`{"old":true}`)
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	err := WriteFileAtomic(path, func(w io.Writer) error {
		if _, err := w.Write(make([]byte, 3*bufferSize)); err != nil {
			return err
		}
		if names := dirNames(t, dir); len(names) != 1+namedTemps(t) {
			t.Errorf("during the write the directory holds %q, want the old file and %d named temporary", names, namedTemps(t))
		}
		return errInjected
	})
	if !errors.Is(err, errInjected) {
		t.Fatalf("err = %v, want %v", err, errInjected)
	}
	assertOnly(t, dir, map[string][]byte{"summary.json": old})
}

func TestWriteFileAtomicPanicRemovesTemp(t *testing.T) {
	dir := t.TempDir()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("panic did not propagate")
			}
		}()
		WriteFileAtomic(filepath.Join(dir, "r.html"), func(w io.Writer) error {
			w.Write([]byte("partial"))
			panic("broken invariant")
		})
	}()
	assertOnly(t, dir, nil)
}

func TestOverwriteReplaces(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := newVertexTable(t, mem, 10)
	defer rec.Release()
	dir := t.TempDir()
	path := filepath.Join(dir, "v.csv")
	if err := os.WriteFile(path, []byte("stale, and longer than nothing at all"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeTest(t, mem, path, rec, nil, 0)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), "id,answer,p_true,") || strings.Count(string(got), "\n") != 11 {
		t.Errorf("overwritten file is %q", got)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the replaced file's %v", fi.Mode().Perm(), fs.FileMode(0o600))
	}
	assertOnly(t, dir, map[string][]byte{"v.csv": got})

	// WriteFileAtomic replaces too.
	if err := WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, dir, map[string][]byte{"v.csv": []byte("new")})
}

func TestWriteBadPaths(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := newVertexTable(t, mem, 3)
	defer rec.Release()
	dir := t.TempDir()

	missing := filepath.Join(dir, "no", "such")
	err := Write(context.Background(), filepath.Join(missing, "out.parquet"), rec, nil)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing directory: err = %v, want ErrNotExist naming %s", err, missing)
	}

	isDir := filepath.Join(dir, "taken.parquet")
	if err := os.Mkdir(isDir, 0o755); err != nil {
		t.Fatal(err)
	}
	err = Write(context.Background(), isDir, rec, nil)
	if err == nil || !strings.Contains(err.Error(), "directory") || !strings.Contains(err.Error(), isDir) {
		t.Errorf("existing directory: err = %v, want an error naming it", err)
	}
	err = Write(context.Background(), dir+"/", rec, nil)
	if err == nil {
		t.Errorf("path with trailing slash: no error")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Write(ctx, filepath.Join(dir, "c.arrow"), rec, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v", err)
	}

	err = Write(context.Background(), filepath.Join(dir, "m.parquet"), rec, map[string]string{"ARROW:schema": "x"})
	if err == nil || !strings.Contains(err.Error(), "ARROW:schema") {
		t.Errorf("reserved metadata key: err = %v", err)
	}

	err = Write(context.Background(), filepath.Join(dir, "out.tsv"), rec, nil)
	var ufe *UnknownFormatError
	if !errors.As(err, &ufe) {
		t.Errorf("unknown extension: err = %v, want *UnknownFormatError", err)
	}

	// The directory holds only what the test made: no output, no temporaries.
	names := dirNames(t, dir)
	if len(names) != 1 {
		t.Errorf("directory holds %q, want only taken.parquet/", names)
	}
	if sub := dirNames(t, isDir); len(sub) != 0 {
		t.Errorf("existing directory now holds %q", sub)
	}
}

func TestCSVUnsupportedType(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	defer b.Release()
	b.Append([]byte{0xff})
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "blob", Type: arrow.BinaryTypes.Binary}}, nil), []arrow.Array{col}, 1)
	defer rec.Release()
	dir := t.TempDir()
	err := Write(context.Background(), filepath.Join(dir, "b.csv"), rec, nil)
	var ute *UnsupportedTypeError
	if !errors.As(err, &ute) || ute.Column != "blob" || ute.Index != 0 {
		t.Fatalf("err = %v, want *UnsupportedTypeError for column 0 \"blob\"", err)
	}
	assertOnly(t, dir, nil)
}
