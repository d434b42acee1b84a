package clouds

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"cloud.google.com/go/storage"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/iterator"
	"google.golang.org/api/option"

	"github.com/graphdp/graphdp/internal/objstore"
)

// gcsStore reads gs:// objects by ranged GETs (storage's NewRangeReader) and
// writes them by resumable uploads.
type gcsStore struct{ c *storage.Client }

// newGCSStore makes a client with application default credentials, else
// unauthenticated (public buckets), as Beam's GCS filesystem does; the client
// honours STORAGE_EMULATOR_HOST.
func newGCSStore(ctx context.Context, _ objstore.Config) (objstore.Store, error) {
	c, err := storage.NewClient(ctx, option.WithScopes(storage.ScopeReadWrite))
	if err != nil {
		if c, err = storage.NewClient(ctx, option.WithoutAuthentication()); err != nil {
			return nil, fmt.Errorf("gs: cannot make a client: %w", err)
		}
	}
	return gcsStore{c}, nil
}

func (s gcsStore) Stat(ctx context.Context, bucket, key string) (int64, string, error) {
	a, err := s.c.Bucket(bucket).Object(key).Attrs(ctx)
	if err != nil {
		return 0, "", gcsError(err)
	}
	if a.ContentEncoding == "gzip" {
		// GCS serves such objects decompressed and whole, whatever the range.
		return 0, "", objstore.ErrWholeObject
	}
	return a.Size, strconv.FormatInt(a.Generation, 10), nil
}

func (s gcsStore) Read(ctx context.Context, bucket, key, version string, off int64, p []byte) (int, error) {
	gen, err := strconv.ParseInt(version, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad generation %q", version)
	}
	r, err := s.c.Bucket(bucket).Object(key).Generation(gen).NewRangeReader(ctx, off, int64(len(p)))
	if errors.Is(err, storage.ErrObjectNotExist) {
		return 0, fmt.Errorf("generation %d is gone (the object was replaced or deleted after it was opened): %w", gen, objstore.ErrNotFound)
	}
	var ge *googleapi.Error
	if errors.As(err, &ge) && ge.Code == http.StatusRequestedRangeNotSatisfiable {
		return 0, nil // the object ends before off
	}
	if err != nil {
		return 0, gcsError(err)
	}
	defer r.Close()
	n, err := io.ReadFull(r, p)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil // a short object: the caller says so
	}
	return n, err
}

func (s gcsStore) List(ctx context.Context, bucket, prefix string) ([]objstore.Object, error) {
	var out []objstore.Object
	it := s.c.Bucket(bucket).Objects(ctx, &storage.Query{Prefix: prefix})
	for {
		a, err := it.Next()
		if errors.Is(err, iterator.Done) {
			return out, nil
		}
		if err != nil {
			return nil, gcsError(err)
		}
		out = append(out, objstore.Object{Key: a.Name, Size: a.Size})
	}
}

// gcsChunk is a resumable upload's chunk: what one request sends.
const gcsChunk = 16 << 20

// gcsUpload is a resumable upload: the object exists once Close finalizes it;
// cancelling its context abandons it.
type gcsUpload struct {
	w      *storage.Writer
	cancel context.CancelFunc
	done   bool
}

func (s gcsStore) Create(ctx context.Context, bucket, key string) (objstore.Writer, error) {
	ctx, cancel := context.WithCancel(ctx)
	w := s.c.Bucket(bucket).Object(key).NewWriter(ctx)
	w.ChunkSize = gcsChunk
	return &gcsUpload{w: w, cancel: cancel}, nil
}

func (u *gcsUpload) Write(p []byte) (int, error) {
	n, err := u.w.Write(p)
	return n, gcsError(err)
}

func (u *gcsUpload) Commit(context.Context) error {
	err := gcsError(u.w.Close())
	u.done = err == nil
	if !u.done {
		u.Abort()
	}
	return err
}

func (u *gcsUpload) Abort() {
	if !u.done {
		u.done = true
		u.cancel() // the upload stops; nothing was finalized
	}
}

// gcsError names a missing object or bucket and a refusal plainly, and marks what
// may pass if asked again.
func gcsError(err error) error {
	var ge *googleapi.Error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, storage.ErrObjectNotExist) || errors.Is(err, storage.ErrBucketNotExist):
		return fmt.Errorf("%w (%v)", objstore.ErrNotFound, err)
	case errors.As(err, &ge) && ge.Code == http.StatusNotFound:
		return fmt.Errorf("%w (%v)", objstore.ErrNotFound, err)
	case errors.As(err, &ge) && ge.Code == http.StatusForbidden:
		return fmt.Errorf("%w (%v)", objstore.ErrDenied, err)
	case errors.As(err, &ge) && (ge.Code >= 500 || ge.Code == http.StatusTooManyRequests):
		return objstore.Transient(err)
	}
	return err
}
