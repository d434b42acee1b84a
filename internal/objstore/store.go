package objstore

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

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
// "folder" url ending in '/'), sorted by key, as scheme://bucket/key URLs.
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
	err = retry(ctx, func() (err error) {
		objs, err = st.list(ctx, bucket, prefix)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: list: %w", url, err)
	}
	scheme, _, _ := strings.Cut(url, "://")
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = scheme + "://" + bucket + "/" + o.Key
	}
	return out, nil
}

// Upload is an object being written: nothing is visible under its name until
// Commit returns nil (doc.go, invariant 3).
type Upload struct {
	url string
	up  upload
}

// upload is a store's upload in progress.
type upload interface {
	io.Writer
	commit(ctx context.Context) error
	abort()
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
	up, err := st.create(ctx, bucket, key)
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
	if err := u.up.commit(ctx); err != nil {
		return fmt.Errorf("%s: complete upload: %w", u.url, err)
	}
	return nil
}

// Abort discards the upload; the object under the name, if any, is untouched.
func (u *Upload) Abort() { u.up.abort() }

// s3Endpoint is the S3 service endpoint SetS3Endpoint gave ("" for AWS's own).
var s3Endpoint struct {
	sync.Mutex
	url string
}

// SetS3Endpoint points s3:// at an S3-compatible service (a URL such as
// http://localhost:9000), overriding AWS_ENDPOINT_URL; call it before the first
// s3:// access.
func SetS3Endpoint(url string) {
	s3Endpoint.Lock()
	s3Endpoint.url = url
	s3Endpoint.Unlock()
}

// endpointS3 is the endpoint s3:// uses: SetS3Endpoint's, else the environment's.
func endpointS3() string {
	s3Endpoint.Lock()
	defer s3Endpoint.Unlock()
	if s3Endpoint.url != "" {
		return s3Endpoint.url
	}
	if e := os.Getenv("AWS_ENDPOINT_URL_S3"); e != "" {
		return e
	}
	return os.Getenv("AWS_ENDPOINT_URL")
}

// stores holds the stores by URL scheme, each client made on first use and kept
// for the process (a client holds its credentials and connections).
var stores = &storeCache{newStore: map[string]func(context.Context) (objectStore, error){
	"gs": newGCSStore,
	"s3": newS3Store,
}}

type storeCache struct {
	mu       sync.Mutex
	newStore map[string]func(context.Context) (objectStore, error)
	made     map[string]objectStore
}

// get returns the store for url's scheme.
func (c *storeCache) get(ctx context.Context, url string) (objectStore, error) {
	scheme, _, ok := strings.Cut(url, "://")
	mk, known := c.newStore[scheme]
	if !ok || !known {
		return nil, fmt.Errorf("%s: not an s3:// or gs:// URL", url)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.made[scheme]; ok {
		return s, nil
	}
	// The client outlives this call: its credentials must not end with ctx.
	s, err := mk(context.WithoutCancel(ctx))
	if err != nil {
		return nil, err
	}
	if c.made == nil {
		c.made = map[string]objectStore{}
	}
	c.made[scheme] = s
	return s, nil
}

// ResetClients drops the clients made so far: the next access makes new ones from
// the environment as it is then (tests that point it at a server).
func ResetClients() {
	stores.mu.Lock()
	stores.made = nil
	stores.mu.Unlock()
}
