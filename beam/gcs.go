package beam

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"cloud.google.com/go/storage"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
)

// gcsStore reads gs:// objects by ranged GETs (storage's NewRangeReader).
type gcsStore struct{ c *storage.Client }

// newGCSStore makes a read-only client with application default credentials,
// else unauthenticated (public buckets), as Beam's GCS filesystem does; the
// client honours STORAGE_EMULATOR_HOST.
func newGCSStore(ctx context.Context) (objectStore, error) {
	c, err := storage.NewClient(ctx, option.WithScopes(storage.ScopeReadOnly))
	if err != nil {
		if c, err = storage.NewClient(ctx, option.WithoutAuthentication()); err != nil {
			return nil, fmt.Errorf("gs: cannot make a client: %w", err)
		}
	}
	return gcsStore{c}, nil
}

func (s gcsStore) stat(ctx context.Context, bucket, key string) (int64, string, error) {
	a, err := s.c.Bucket(bucket).Object(key).Attrs(ctx)
	if err != nil {
		return 0, "", gcsError(err)
	}
	if a.ContentEncoding == "gzip" {
		// GCS serves such objects decompressed and whole, whatever the range.
		return 0, "", errWholeObject
	}
	return a.Size, strconv.FormatInt(a.Generation, 10), nil
}

func (s gcsStore) read(ctx context.Context, bucket, key, version string, off int64, p []byte) (int, error) {
	gen, err := strconv.ParseInt(version, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad generation %q", version)
	}
	r, err := s.c.Bucket(bucket).Object(key).Generation(gen).NewRangeReader(ctx, off, int64(len(p)))
	if errors.Is(err, storage.ErrObjectNotExist) {
		return 0, fmt.Errorf("generation %d is gone (the object was replaced or deleted after it was opened): %w", gen, errNoObject)
	}
	var ge *googleapi.Error
	if errors.As(err, &ge) && ge.Code == http.StatusRequestedRangeNotSatisfiable {
		return 0, nil // the object ends before off
	}
	if err != nil {
		return 0, err
	}
	defer r.Close()
	n, err := io.ReadFull(r, p)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil // a short object: the caller says so
	}
	return n, err
}

// gcsError names a missing object or bucket plainly.
func gcsError(err error) error {
	if errors.Is(err, storage.ErrObjectNotExist) || errors.Is(err, storage.ErrBucketNotExist) {
		return fmt.Errorf("%w (%v)", errNoObject, err)
	}
	return err
}
