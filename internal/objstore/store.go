package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Store is one object service's client, as a driver registers it (Register): it
// reads objects by byte ranges, lists them and uploads them atomically.
type Store interface {
	// Stat returns the object's size and a version that pins later reads to the
	// bytes measured (a GCS generation, an S3 ETag).
	Stat(ctx context.Context, bucket, key string) (size int64, version string, err error)
	// Read fills p from byte off of the version Stat returned. A short count with a
	// nil error means the object ended early (a range past its end gives 0).
	Read(ctx context.Context, bucket, key, version string, off int64, p []byte) (int, error)
	// List lists the objects whose keys start with prefix, with their sizes.
	List(ctx context.Context, bucket, prefix string) ([]Object, error)
	// Create starts an upload of key that no reader sees until it is committed.
	Create(ctx context.Context, bucket, key string) (Writer, error)
}

// Writer is a store's upload in progress (doc.go, invariant 3).
type Writer interface {
	io.Writer
	// Commit makes the object visible, whole.
	Commit(ctx context.Context) error
	// Abort discards what was sent; it is a no-op after Commit.
	Abort()
}

// A Driver makes a Store's client from c (Config.Resolved: the job's endpoint, else
// the environment's) and the environment's credentials.
type Driver func(ctx context.Context, c Config) (Store, error)

// Register makes scheme:// URLs ("s3", "gs") use driver. The package of the
// drivers (internal/objstore/clouds) calls it from its init, so a binary has the
// stores it links and no others (doc.go).
func Register(scheme string, driver Driver) {
	stores.mu.Lock()
	defer stores.mu.Unlock()
	if stores.newStore == nil {
		stores.newStore = map[string]Driver{}
	}
	stores.newStore[scheme] = driver
}

// Linked reports whether url's store has a driver in this binary (IsURL paths
// only; false for any other).
func Linked(url string) bool {
	scheme, _, ok := strings.Cut(url, "://")
	stores.mu.Lock()
	defer stores.mu.Unlock()
	_, known := stores.newStore[scheme]
	return ok && known
}

// ErrNotLinked is the answer for an s3:// or gs:// URL in a binary that does not
// import internal/objstore/clouds (graphdp and graphdp-beam both do).
var ErrNotLinked = errors.New("this binary was built without object storage (s3://, gs://): " +
	"it does not import internal/objstore/clouds")

// File is an open object: random access to Size bytes.
type File interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// IsURL reports whether path names an object (s3://…, gs://…).
func IsURL(path string) bool {
	return strings.HasPrefix(path, "s3://") || strings.HasPrefix(path, "gs://")
}

// Open opens the object at url for ranged reads.
func Open(ctx context.Context, url string) (File, error) {
	st, err := stores.get(ctx, url)
	if err != nil {
		return nil, err
	}
	return openRanged(ctx, st, url)
}

// List lists the objects whose keys start with url's key (every object below a
// "folder" url ending in '/'), sorted by key, as scheme://bucket/key URLs spelled
// so that Parse gives each key back (URL.String).
func List(ctx context.Context, url string) ([]string, error) {
	st, err := stores.get(ctx, url)
	if err != nil {
		return nil, err
	}
	bucket, prefix, err := Split(url)
	if err != nil {
		return nil, err
	}
	var objs []Object
	err = Retry(ctx, func() (err error) {
		objs, err = st.List(ctx, bucket, prefix)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: list: %w", url, err)
	}
	scheme, _, _ := strings.Cut(url, "://")
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = URL{Scheme: scheme, Bucket: bucket, Key: o.Key}.String()
	}
	return out, nil
}

// Upload is an object being written: nothing is visible under its name until
// Commit returns nil (doc.go, invariant 3).
type Upload struct {
	url string
	up  Writer
}

// Create starts an upload to url (an S3 multipart upload, a GCS resumable upload).
func Create(ctx context.Context, url string) (*Upload, error) {
	st, err := stores.get(ctx, url)
	if err != nil {
		return nil, err
	}
	bucket, key, err := Split(url)
	if err == nil && (key == "" || strings.HasSuffix(key, "/")) {
		err = fmt.Errorf("names a folder, not an object")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	up, err := st.Create(ctx, bucket, key)
	if err != nil {
		return nil, fmt.Errorf("%s: start upload: %w", url, err)
	}
	return &Upload{url: url, up: up}, nil
}

// Write sends p (buffered into parts).
func (u *Upload) Write(p []byte) (int, error) {
	n, err := u.up.Write(p)
	if err != nil {
		err = fmt.Errorf("%s: upload: %w", u.url, err)
	}
	return n, err
}

// Commit makes the object visible, whole.
func (u *Upload) Commit(ctx context.Context) error {
	if err := u.up.Commit(ctx); err != nil {
		return fmt.Errorf("%s: complete upload: %w", u.url, err)
	}
	return nil
}

// Abort discards the upload; the object under the name, if any, is untouched.
func (u *Upload) Abort() { u.up.Abort() }

// stores holds the drivers by URL scheme (Register), each client made on first use
// for a scheme and a Config and kept for the process (a client holds its
// credentials and connections).
var stores = &storeCache{}

type storeCache struct {
	mu       sync.Mutex
	newStore map[string]Driver
	made     map[madeKey]Store
}

type madeKey struct {
	scheme string
	conf   Config
}

// get returns the store for url's scheme and ctx's Config (WithConfig).
func (c *storeCache) get(ctx context.Context, url string) (Store, error) {
	if !IsURL(url) {
		return nil, fmt.Errorf("%s: not an s3:// or gs:// URL", url)
	}
	scheme, _, _ := strings.Cut(url, "://")
	c.mu.Lock()
	defer c.mu.Unlock()
	mk, known := c.newStore[scheme]
	if !known {
		return nil, fmt.Errorf("%s: %w", url, ErrNotLinked)
	}
	key := madeKey{scheme, ConfigFrom(ctx).Resolved()}
	if s, ok := c.made[key]; ok {
		return s, nil
	}
	// The client outlives this call: its credentials must not end with ctx.
	s, err := mk(context.WithoutCancel(ctx), key.conf)
	if err != nil {
		return nil, err
	}
	if c.made == nil {
		c.made = map[madeKey]Store{}
	}
	c.made[key] = s
	return s, nil
}

// ResetClients drops the clients made so far: the next access makes new ones from
// the environment as it is then (tests that change its credentials).
func ResetClients() {
	stores.mu.Lock()
	stores.made = nil
	stores.mu.Unlock()
}
