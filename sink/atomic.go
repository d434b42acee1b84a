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
)

// fileMode is the mode of every file sink creates; see doc.go (nothing of a
// previous file is preserved).
const fileMode = 0o644

// bufferSize is the write buffer in front of the temporary file.
const bufferSize = 1 << 20

// ErrNotPublished is wrapped by every error of Write, WriteBatches and
// WriteFileAtomic that happened before the new file was renamed into place: the
// destination is then known to be untouched. An error that does not wrap it came
// after the rename (the folder's fsync failed): the new file is in place and may or
// may not survive a crash, so a caller that must account for what was published (the
// privacy ledger) treats it as published.
var ErrNotPublished = errors.New("not published")

// notPublished marks err as one that left the destination untouched, keeping its
// message.
type notPublished struct{ err error }

func (e *notPublished) Error() string   { return e.err.Error() }
func (e *notPublished) Unwrap() []error { return []error{e.err, ErrNotPublished} }
func markNotPublished(err error) error {
	if err == nil {
		return nil
	}
	return &notPublished{err}
}

// syncDir makes a rename in dir durable; a variable so that sink's own tests can
// make it fail.
var syncDir = syncDirectory

// WriteFileAtomic writes path with the bytes write produces, atomically: see
// doc.go. write must not retain w.
func WriteFileAtomic(path string, write func(w io.Writer) error) error {
	return writeFileAtomic(context.Background(), path, write)
}

// writeFileAtomic is WriteFileAtomic that also gives up, leaving path
// untouched, if ctx is done before the rename.
func writeFileAtomic(ctx context.Context, path string, write func(w io.Writer) error) (err error) {
	renamed := false
	defer func() {
		if err != nil && !renamed {
			err = markNotPublished(err)
		}
	}()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sink: %s: %w", path, err)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if base == "" {
		return fmt.Errorf("sink: %s: path names a directory, not a file", path)
	}
	if fi, err := os.Stat(dir); err != nil {
		return fmt.Errorf("sink: %s: output directory %s: %w", path, dir, err)
	} else if !fi.IsDir() {
		return fmt.Errorf("sink: %s: output directory %s is not a directory", path, dir)
	}
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("sink: %s: is an existing directory", path)
	}

	removeStaleTemps(dir, base)
	// On Linux the data goes to an unnamed file (O_TMPFILE), named only once complete
	// and synced, just before the rename: a kill -9 while writing leaves nothing.
	// Elsewhere (or where unsupported) a named temporary file is used, and one left
	// by a killed process is removed by the next write of the same target.
	tmp, anonymous := openAnonymous(dir)
	tmpName := ""
	if !anonymous {
		if tmp, err = os.CreateTemp(dir, tempPrefix(base)+"*"); err != nil {
			return fmt.Errorf("sink: %s: create temporary file: %w", path, err)
		}
		tmpName = tmp.Name()
	}
	defer func() {
		// Runs on error and on panic in write: the temporary file never survives.
		if !renamed {
			tmp.Close() // may already be closed; its error is not the interesting one
			if tmpName != "" {
				os.Remove(tmpName)
			}
		}
	}()

	if err := tmp.Chmod(fileMode); err != nil {
		return fmt.Errorf("sink: %s: chmod temporary file: %w", path, err)
	}
	bw := bufio.NewWriterSize(tmp, bufferSize)
	if err := write(bw); err != nil {
		return fmt.Errorf("sink: %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sink: %s: write temporary file: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sink: %s: fsync temporary file: %w", path, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sink: %s: %w", path, err)
	}
	if anonymous {
		name, err := linkTemp(tmp, dir, base)
		if err != nil {
			return fmt.Errorf("sink: %s: name temporary file: %w", path, err)
		}
		tmpName = name
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("sink: %s: close temporary file: %w", path, err)
	}
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("sink: %s: rename temporary file: %w", path, err)
	}
	renamed = true
	if err := syncDir(dir); err != nil {
		// The new content is in place but may not survive a crash.
		return fmt.Errorf("sink: %s: written, but fsync of directory %s failed: %w", path, dir, err)
	}
	return nil
}

// syncDirectory makes a rename in dir durable.
func syncDirectory(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// tempPrefix is the name prefix of path's temporary files: ".<base>.tmp-".
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// linkTemp names the complete unnamed file f in dir with a fresh temporary name.
func linkTemp(f *os.File, dir, base string) (string, error) {
	for range 100 {
		name := filepath.Join(dir, tempPrefix(base)+strconv.FormatUint(uint64(rand.Uint32()), 10))
		err := linkAnonymous(f, name)
		if !errors.Is(err, fs.ErrExist) {
			return name, err
		}
	}
	return "", fmt.Errorf("no free temporary name in %s", dir)
}

// processStart is when this process started (near enough: when the package was
// initialized); a temporary file last modified before it cannot be being written by
// this process, and its writer has been silent since.
var processStart = time.Now()

// removeStaleTemps removes temporary files of the target base in dir that a killed
// writer left behind: regular files named tempPrefix(base) followed by digits (the
// names os.CreateTemp and linkTemp make), last modified before this process
// started. A live writer keeps modifying its file (or, on Linux, has no name until
// it is complete), so only leftovers match. Errors are ignored: cleaning is a courtesy.
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
