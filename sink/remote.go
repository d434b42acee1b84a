package sink

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/graphdp/graphdp/internal/objstore"
)

// An output in an object store (s3://, gs://) is staged as a local file is: its
// bytes go to an unnamed temporary file (in os.TempDir) first, so that nothing is
// sent before they are all written. Commit sends them as an upload the store keeps
// invisible (an S3 multipart upload, a GCS resumable upload; internal/objstore),
// renames the local outputs, and only then completes the uploads. Any failure
// before that point aborts every upload and restores the local outputs: the object
// under the name, if there was one, is untouched. An upload that completes and a
// later one that fails are reported as a *PublishError naming the first.

// remoteOut is one object output, staged in a temporary file.
type remoteOut struct {
	url string
	f   *os.File
	up  *objstore.Upload
}

// writeRemote stages the object url with the bytes write produces.
func (o *Outputs) writeRemote(ctx context.Context, url string, write func(w io.Writer) error) error {
	f, err := os.CreateTemp("", ".graphdp-upload-*")
	if err != nil {
		return notPublished("sink: %s: create temporary file: %w", url, err)
	}
	os.Remove(f.Name()) // unnamed from here on: it goes when f is closed, or the process ends
	r := &remoteOut{url: url, f: f}
	bw := bufio.NewWriterSize(f, bufferSize)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		f.Close()
		return notPublished("sink: %s: %w", url, err)
	}
	o.remote = append(o.remote, r)
	return nil
}

// send starts every object output's upload and sends its bytes; nothing is
// visible yet.
func (o *Outputs) send(ctx context.Context) error {
	for _, r := range o.remote {
		if _, err := r.f.Seek(0, io.SeekStart); err != nil {
			return notPublished("sink: %s: %w", r.url, err)
		}
		up, err := objstore.Create(ctx, r.url)
		if err != nil {
			return notPublished("sink: %w", err)
		}
		r.up = up
		if _, err := io.Copy(up, r.f); err != nil {
			return notPublished("sink: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return notPublished("sink: %s: %w", r.url, err)
		}
	}
	return nil
}

// complete completes the uploads, in order. It reports the objects completed
// before a failure.
func (o *Outputs) complete() (done []string, err error) {
	for _, r := range o.remote {
		// Once outputs start to appear, Commit finishes (publish.go): no cancel.
		if err := r.up.Commit(context.Background()); err != nil {
			return done, fmt.Errorf("sink: %w", err)
		}
		r.up = nil
		done = append(done, r.url)
		r.f.Close()
	}
	return done, nil
}

// abortRemote aborts every upload not completed and drops the temporary files.
func (o *Outputs) abortRemote() {
	for _, r := range o.remote {
		if r.up != nil {
			r.up.Abort()
			r.up = nil
		}
		r.f.Close()
	}
}
