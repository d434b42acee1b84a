package sink

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ErrNotPublished tells the two kinds of failure apart: every failure before the
// rename wraps it (the destination keeps its old bytes), and the one failure after
// it — the folder's fsync — does not (the new bytes are in place). The privacy
// ledger rolls a release back only in the first case (issue 24, defect 3c).
func TestErrNotPublished(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	before := []struct {
		name string
		err  func() error
	}{
		{"the writer fails", func() error {
			return WriteFileAtomic(path, func(io.Writer) error { return errInjected })
		}},
		{"cancelled", func() error {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return writeFileAtomic(ctx, path, write("new\n"))
		}},
		{"no such folder", func() error {
			return WriteFileAtomic(filepath.Join(dir, "nope", "out.csv"), write("new\n"))
		}},
		{"unknown format", func() error {
			return writeTable(context.Background(), filepath.Join(dir, "out.txt"), table{}, nil, defaultConfig())
		}},
		{"reserved metadata key", func() error {
			return writeTable(context.Background(), path, table{}, map[string]string{"ARROW:x": "y"}, defaultConfig())
		}},
	}
	for _, c := range before {
		err := c.err()
		if err == nil || !errors.Is(err, ErrNotPublished) {
			t.Errorf("%s: %v does not wrap ErrNotPublished", c.name, err)
		}
		if strings.Contains(err.Error(), "not published") {
			t.Errorf("%s: the marker changed the message: %v", c.name, err)
		}
		if got, _ := os.ReadFile(path); string(got) != "old\n" {
			t.Fatalf("%s: the destination changed: %q", c.name, got)
		}
	}
	if errors.Is(WriteFileAtomic(path, func(io.Writer) error { return errInjected }), errInjected) == false {
		t.Errorf("the original error is no longer wrapped")
	}

	// The folder's fsync fails after the rename: the new file is published and the
	// error says so, without the marker.
	fault = func(step, _ string) error {
		if step == "syncdir" {
			return errInjected
		}
		return nil
	}
	defer func() { fault = nil }()
	err := WriteFileAtomic(path, write("new\n"))
	if err == nil || errors.Is(err, ErrNotPublished) || !errors.Is(err, errInjected) {
		t.Fatalf("fsync of the folder failed: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new\n" {
		t.Errorf("the destination after the rename: %q", got)
	}
}
