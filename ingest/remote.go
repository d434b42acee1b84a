package ingest

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/graphdp/graphdp/internal/objstore"
)

// store is where a path that is not local lives (an object store: s3://, gs://):
// it opens the path's files and lists a folder's or a glob's.
type store interface {
	Opener
	expand(ctx context.Context, src string) ([]string, error)
}

// storeOf is the store of a path with a scheme; nil for a local path.
func storeOf(p string) store {
	if objstore.IsURL(p) {
		return objects{}
	}
	return nil
}

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

// objects are s3:// and gs:// objects, read by ranges (internal/objstore).
type objects struct{}

func (objects) Open(ctx context.Context, url string) (File, error) { return objstore.Open(ctx, url) }

// expand lists a source in an object store as parts.go says for folders and globs:
// an object is itself; a glob's matches; else the source is a folder ("prefix/"),
// every table file below it but those under a name starting with '_' or '.'. A
// glob is one in its key as objstore.Parse decodes it, matched against the keys
// listed (objstore.Match).
func (objects) expand(ctx context.Context, src string) ([]string, error) {
	u, err := objstore.Parse(src)
	if err != nil {
		return nil, fileError(src, ErrPath, err.Error())
	}
	if hasMeta(u.Key) {
		if _, err := path.Match(u.Key, ""); err != nil {
			return nil, fileError(src, ErrPath, "not a valid glob: "+err.Error())
		}
		// Every match lies below the folder before the first wildcard.
		at := strings.IndexAny(u.Key, "*?[")
		dir := u
		dir.Key = u.Key[:strings.LastIndex(u.Key[:at], "/")+1]
		all, err := objstore.List(ctx, dir.String())
		if err != nil {
			return nil, openError(src, err)
		}
		var out []string
		for _, o := range all {
			if ou, err := objstore.Parse(o); err == nil && objstore.Match(u, ou) {
				out = append(out, o)
			}
		}
		if len(out) == 0 {
			return nil, fileError(src, ErrMissing, "no object matches this glob")
		}
		return out, nil // List sorts by key
	}
	if f, err := objstore.Open(ctx, src); err == nil {
		f.Close()
		return []string{src}, nil
	} else if !errors.Is(err, objstore.ErrNotFound) && !strings.HasSuffix(src, "/") {
		return nil, openError(src, err)
	}
	if u.Key != "" && !strings.HasSuffix(u.Key, "/") {
		u.Key += "/"
	}
	dir := u.String()
	all, err := objstore.List(ctx, dir)
	if err != nil {
		return nil, openError(src, err)
	}
	var out []string
	for _, u := range all {
		rel := strings.Split(strings.TrimPrefix(u, dir), "/")
		if !slices.ContainsFunc(rel, hiddenName) && tableExt(u) {
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return nil, fileError(src, ErrMissing, "no such object, and no .parquet, .csv or .tsv object below it as a folder (names starting with _ or . are skipped)")
	}
	return out, nil
}
