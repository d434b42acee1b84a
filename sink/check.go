package sink

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/graphdp/graphdp/internal/objstore"
)

// CheckPath reports why writing path would fail for want of a place to put it,
// so that a command can refuse before any work (doc.go, invariant 5): its folder
// is missing, not a folder or not writable by this process, path is an existing
// folder, or its name, or the temporary name a write gives it beside the target
// (".<name>.tmp-<digits>"), is too long for the file system. nil does not promise
// the write will succeed (a full disk, a folder changed meanwhile).
func CheckPath(path string) error {
	dir, base := filepath.Split(path)
	dir = filepath.Clean(dir) // "." when empty
	if base == "" || base == "." || base == ".." {
		return errors.New("names a folder, not a file")
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the folder %s does not exist", dir)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s is not a folder", dir)
	case err != nil:
		return fmt.Errorf("the folder %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	}
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return errors.New("is a folder")
	}
	longest := filepath.Join(dir, tempPrefix(base)+"4294967295")
	if _, err := os.Lstat(longest); errors.Is(err, syscall.ENAMETOOLONG) {
		return fmt.Errorf("the name is too long for the file system (writing it needs the temporary name %s beside it, %d bytes)",
			filepath.Base(longest), len(filepath.Base(longest)))
	}
	if err := writable(dir); err != nil {
		return fmt.Errorf("the folder %s is not writable: %w", dir, err)
	}
	return nil
}

// CheckObject reports why writing the object url would fail for want of a place
// to put it, before any work: its bucket missing, or no credentials at all for the
// store (with ctx's endpoint, objstore.WithConfig). It lists the objects whose keys
// start with url's key (usually none or one). A refusal of the listing itself is
// not one: a role may write objects it may not list, and the upload says if not.
func CheckObject(ctx context.Context, url string) error {
	u, err := objstore.Parse(url)
	if err != nil {
		return err
	}
	_, err = objstore.List(ctx, url)
	switch {
	case errors.Is(err, objstore.ErrNotFound):
		return fmt.Errorf("its bucket %s does not exist (%w)", u.Bucket, err)
	case errors.Is(err, objstore.ErrNoCredentials):
		return fmt.Errorf("%w", err)
	}
	return nil
}
