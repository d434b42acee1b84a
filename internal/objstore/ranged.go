package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// This file gives random access to a gs:// or s3:// object by ranged GETs, so a
// Parquet reader transfers the footer and the column chunks it reads, not the file
// (BEAM.md, "Ranged reads"). The clients themselves (a Store: internal/objstore/clouds)
// serve byte ranges; a read that fails on the way (a reset connection, a 5xx) is
// asked again (retry.go).

// ReadAhead is the least a ranged GET asks for. The Parquet reader reads a column
// chunk through a 1 MiB buffer (ingest's streamBufferSize), so its large reads go to
// the store as they are; its small ones — the magic bytes, the 8-byte footer tail
// then the footer, a short column chunk — come from one window of ReadAhead bytes
// instead of a request each.
const ReadAhead = 64 << 10

// readWindows is how many fetched windows a file keeps (most recent first): the
// footer's and those of the column chunks a split reads side by side.
const readWindows = 4

// Object is an object a listing found.
type Object struct {
	Key  string
	Size int64
}

// rangedFile is an ingest.File over a Store: random access to one version
// of an object, by ranged GETs of at least ReadAhead bytes.
type rangedFile struct {
	ctx              context.Context
	store            Store
	url              string
	bucket, key, ver string
	size             int64
	mu               sync.Mutex
	windows          []window // most recently used first, at most readWindows
}

// window is fetched bytes b of the object from offset off.
type window struct {
	off int64
	b   []byte
}

// openRanged stats the object at rawURL (scheme://bucket/key) on store.
func openRanged(ctx context.Context, store Store, rawURL string) (*rangedFile, error) {
	bucket, key, err := Split(rawURL)
	if err == nil && key == "" {
		err = fmt.Errorf("names a bucket, not an object")
	}
	if err != nil {
		return nil, err
	}
	size, ver, err := store.Stat(ctx, bucket, key)
	if err != nil {
		return nil, err
	}
	return &rangedFile{ctx: ctx, store: store, url: rawURL, bucket: bucket, key: key, ver: ver, size: size}, nil
}

func (f *rangedFile) Size() int64 { return f.size }

func (f *rangedFile) Close() error {
	f.mu.Lock()
	f.windows = nil
	f.mu.Unlock()
	return nil
}

// ReadAt reads len(p) bytes at off: from a kept window when one holds them all,
// else by one ranged GET, of the read itself when it is at least ReadAhead long,
// else of a ReadAhead window around it (ending at the object's end when it is near).
func (f *rangedFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%s: read at negative offset %d", f.url, off)
	}
	if off >= f.size {
		return 0, io.EOF
	}
	want := p[:min(int64(len(p)), f.size-off)]
	if f.cached(want, off) {
		return f.done(len(want), len(p))
	}
	if len(want) >= ReadAhead {
		if err := f.fetch(want, off); err != nil {
			return 0, err
		}
		return f.done(len(want), len(p))
	}
	n := min(int64(ReadAhead), f.size)
	start := min(off, f.size-n)
	w := window{off: start, b: make([]byte, n)}
	if err := f.fetch(w.b, start); err != nil {
		return 0, err
	}
	copy(want, w.b[off-start:])
	f.mu.Lock()
	f.windows = append([]window{w}, f.windows[:min(len(f.windows), readWindows-1)]...)
	f.mu.Unlock()
	return f.done(len(want), len(p))
}

// done is ReadAt's result for n bytes read of asked: io.EOF when the object ended first.
func (f *rangedFile) done(n, asked int) (int, error) {
	if n < asked {
		return n, io.EOF
	}
	return n, nil
}

// cached copies p from a kept window holding [off, off+len(p)), and moves it first.
func (f *rangedFile) cached(p []byte, off int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, w := range f.windows {
		if off >= w.off && off+int64(len(p)) <= w.off+int64(len(w.b)) {
			copy(p, w.b[off-w.off:])
			copy(f.windows[1:i+1], f.windows[:i])
			f.windows[0] = w
			return true
		}
	}
	return false
}

// fetch fills p from byte off with one ranged GET.
func (f *rangedFile) fetch(p []byte, off int64) error {
	var n int
	err := Retry(f.ctx, func() (err error) {
		n, err = f.store.Read(f.ctx, f.bucket, f.key, f.ver, off, p)
		return err
	})
	end := off + int64(len(p)) - 1
	if err != nil {
		return fmt.Errorf("%s: read bytes %d-%d: %w", f.url, off, end, err)
	}
	if n < len(p) {
		return fmt.Errorf("%s: read bytes %d-%d: got %d bytes: the object is shorter than the %d bytes it had when opened: %w",
			f.url, off, end, n, f.size, io.ErrUnexpectedEOF)
	}
	return nil
}

var (
	// ErrNotFound is a store's answer for a missing object or bucket.
	ErrNotFound = errors.New("no such object or bucket")
	// ErrDenied is a store's answer for a request the credentials do not allow (403).
	ErrDenied = errors.New("access denied")
	// ErrNoCredentials is a request never sent: no credentials were found (it is
	// ErrDenied too).
	ErrNoCredentials = fmt.Errorf("%w: no credentials found", ErrDenied)
	// ErrWholeObject is a store's answer for an object it cannot serve by ranges.
	ErrWholeObject = errors.New("the object cannot be read by ranges")
)
