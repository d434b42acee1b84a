package ingest

import (
	"context"
)

// store is where a path that is not local lives (an object store: s3://, gs://):
// it opens the path's files and lists a folder's or a glob's.
type store interface {
	Opener
	expand(ctx context.Context, src string) ([]string, error)
}

// storeOf is the store of a path with a scheme; nil for a local path.
func storeOf(path string) store { return nil }

// openerFor is what opens path: its store, or the local filesystem.
func openerFor(path string) Opener {
	if st := storeOf(path); st != nil {
		return st
	}
	return OSFiles{}
}

// fileSize is the size of the file at path.
func fileSize(ctx context.Context, path string) (int64, error) {
	f, err := openerFor(path).Open(ctx, path)
	if err != nil {
		return 0, openError(path, err)
	}
	defer f.Close()
	return f.Size(), nil
}
