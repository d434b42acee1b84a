package sink

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/graphdp/graphdp/internal/files"
)

// bufferSize is the write buffer in front of a temporary file.
const bufferSize = 1 << 20

// ErrNotPublished is wrapped by every error of a write or a Commit after which
// nothing of it was published: each target is as it was (the previous file, or
// none) and no temporary file is left (doc.go, invariant 5). A caller that did
// something on the understanding that the outputs would appear (a ledger that
// recorded a release) may undo it when errors.Is(err, ErrNotPublished), and only
// then.
var ErrNotPublished = errors.New("sink: nothing published")

// unpublished is an error after which nothing was published: its message is the
// cause's, and it wraps both the cause and ErrNotPublished.
type unpublished struct{ err error }

func (e *unpublished) Error() string   { return e.err.Error() }
func (e *unpublished) Unwrap() []error { return []error{e.err, ErrNotPublished} }

func notPublished(format string, a ...any) error {
	return &unpublished{fmt.Errorf(format, a...)}
}

// PublishError is a Commit's failure after some output was renamed into place and
// not restored: some or all targets hold their new content. It never wraps
// ErrNotPublished.
type PublishError struct {
	Published []string // targets holding their new content
	Previous  []string // targets still as they were (their previous file, or none)
	// Left are files Commit made and could not remove: backups holding the
	// previous content of a published target (".<name>.bak-<digits>"), temporary
	// files of unpublished ones.
	Left []string
	Err  error
}

func (e *PublishError) Error() string {
	var b strings.Builder
	fmt.Fprint(&b, e.Err)
	if len(e.Published) > 0 {
		fmt.Fprintf(&b, "; published: %s", strings.Join(e.Published, ", "))
	} else {
		fmt.Fprint(&b, "; nothing published now, but a crash before the folder reaches the disk may bring new files back")
	}
	if len(e.Previous) > 0 {
		fmt.Fprintf(&b, "; as before: %s", strings.Join(e.Previous, ", "))
	}
	if len(e.Left) > 0 {
		fmt.Fprintf(&b, "; left behind: %s", strings.Join(e.Left, ", "))
	}
	return b.String()
}

func (e *PublishError) Unwrap() error { return e.Err }

// fault, if set, runs before each step of a write or a commit, with the step's
// name and the target's path; an error from it is that step's failure. A test
// seam: nil in production. Steps: "create", "write" (each write to the temporary
// file), "chmod", "fsync", "link" (naming the temporary file), "close", "backup",
// "rename", "syncdir", "restore", "unbackup", "resync" (the fsync after the
// backups are removed, whose failure is not reported).
var fault func(step, path string) error

// FailStepForTest makes every write's step (a name listed at fault) fail with
// err until the returned function is called: a seam for the tests of packages
// that act on ErrNotPublished (a release's ledger line is removed again only
// when nothing was published). Production code never calls it.
func FailStepForTest(step string, err error) (restore func()) {
	fault = func(s, _ string) error {
		if s == step {
			return err
		}
		return nil
	}
	return func() { fault = nil }
}

func inject(step, path string) error {
	if fault == nil {
		return nil
	}
	return fault(step, path)
}

// faultWriter runs the "write" step before each write: a test seam (ENOSPC).
type faultWriter struct {
	w    io.Writer
	path string
}

func (f faultWriter) Write(p []byte) (int, error) {
	if err := inject("write", f.path); err != nil {
		return 0, err
	}
	return f.w.Write(p)
}

// WriteFileAtomic writes path with the bytes write produces, atomically: see
// doc.go. write must not retain w.
func WriteFileAtomic(path string, write func(w io.Writer) error) error {
	return writeFileAtomic(context.Background(), path, write)
}

// writeFileAtomic is WriteFileAtomic that also gives up, leaving path
// untouched, if ctx is done before the rename: a commit of one output.
func writeFileAtomic(ctx context.Context, path string, write func(w io.Writer) error) error {
	o := NewOutputs()
	defer o.Abort()
	if err := o.WriteFile(ctx, path, write); err != nil {
		return err
	}
	return o.Commit(ctx)
}

// syncDir makes a rename in dir durable; step names it for fault.
func syncDir(step, dir string) error {
	if err := inject(step, dir); err != nil {
		return err
	}
	return files.SyncDir(dir)
}

// tempPrefix is the name prefix of path's temporary files: ".<base>.tmp-".
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// backupPrefix is the name prefix of the hard links keeping a target's previous
// file during a commit: ".<base>.bak-" (as long as tempPrefix: CheckPath tests one).
func backupPrefix(base string) string { return "." + base + ".bak-" }

// freshName tries names prefix+<random digits> in dir until make succeeds or
// fails otherwise than with fs.ErrExist.
func freshName(dir, prefix string, make func(name string) error) (string, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		err := make(name)
		if !errors.Is(err, fs.ErrExist) {
			return name, err
		}
	}
	return "", fmt.Errorf("no free name %s* in %s", prefix, dir)
}

// linkTemp names the complete unnamed file f in dir with a fresh temporary name.
func linkTemp(f *os.File, dir, base string) (string, error) {
	return freshName(dir, tempPrefix(base), func(name string) error { return linkAnonymous(f, name) })
}

// createTemp creates a named temporary file of base in dir, mode 0600.
func createTemp(dir, base string) (*os.File, error) {
	var f *os.File
	_, err := freshName(dir, tempPrefix(base), func(name string) (err error) {
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		return err
	})
	return f, err
}

// processStart is when this process started (near enough: when the package was
// initialized); a temporary file last modified before it cannot be being written by
// this process, and its writer has been silent since.
var processStart = time.Now()

// removeStaleTemps removes temporary files of the target base in dir that a killed
// writer left behind: regular files named tempPrefix(base) followed by digits (the
// names createTemp and linkTemp make), last modified before this process
// started. A live writer keeps modifying its file (or, on Linux, has no name until
// it is complete), so only leftovers match. Errors are ignored: cleaning is a
// courtesy. Backups (backupPrefix) are never removed: after a crash mid-commit they
// hold the previous content of a target already replaced (doc.go, invariant 5).
func removeStaleTemps(dir, base string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(base)
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || rest == "" || strings.Trim(rest, "0123456789") != "" || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(processStart) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// writeTemp writes a staged output's temporary file: the bytes, the final mode,
// fsync. It leaves the file open; the caller removes it on error.
func writeTemp(s *staged, write func(w io.Writer) error) error {
	var w io.Writer = s.f
	if fault != nil {
		w = faultWriter{s.f, s.path}
	}
	bw := bufio.NewWriterSize(w, bufferSize)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write temporary file: %w", err)
	}
	if err := inject("chmod", s.path); err != nil {
		return fmt.Errorf("chmod temporary file: %w", err)
	}
	if err := s.f.Chmod(s.mode); err != nil {
		return fmt.Errorf("chmod temporary file: %w", err)
	}
	if err := inject("fsync", s.path); err != nil {
		return fmt.Errorf("fsync temporary file: %w", err)
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("fsync temporary file: %w", err)
	}
	return nil
}
