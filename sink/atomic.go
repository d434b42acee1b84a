package sink

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// fileMode is the mode of every file sink creates; see doc.go (nothing of a
// previous file is preserved).
const fileMode = 0o644

// bufferSize is the write buffer in front of the temporary file.
const bufferSize = 1 << 20

// WriteFileAtomic writes path with the bytes write produces, atomically: see
// doc.go. write must not retain w.
func WriteFileAtomic(path string, write func(w io.Writer) error) error {
	return writeFileAtomic(context.Background(), path, write)
}

// writeFileAtomic is WriteFileAtomic that also gives up, leaving path
// untouched, if ctx is done before the rename.
func writeFileAtomic(ctx context.Context, path string, write func(w io.Writer) error) (err error) {
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

	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("sink: %s: create temporary file: %w", path, err)
	}
	tmpName := tmp.Name()
	renamed := false
	defer func() {
		// Runs on error and on panic in write: the temporary file never survives.
		if !renamed {
			tmp.Close() // may already be closed; its error is not the interesting one
			os.Remove(tmpName)
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
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("sink: %s: close temporary file: %w", path, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sink: %s: %w", path, err)
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

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}
