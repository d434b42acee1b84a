package clouds

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/graphdp/graphdp/internal/objstore"
)

// s3Store reads s3:// objects by ranged GETs (GetObject with Range) and writes
// them by multipart uploads.
type s3Store struct{ c *s3.Client }

// newS3Store makes a client from AWS's default configuration sources (environment,
// shared files, instance role). The job's endpoint (objstore.Config.S3Endpoint,
// resolved: else AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL) points it at an
// S3-compatible service, addressed path-style (http://host/bucket/key), which they
// all serve.
func newS3Store(ctx context.Context, c objstore.Config) (objstore.Store, error) {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("s3: cannot load the AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1" // S3-compatible stores mostly ignore it; AWS redirects
	}
	ep := c.S3Endpoint
	return s3Store{s3.NewFromConfig(cfg, func(o *s3.Options) {
		if ep != "" {
			o.BaseEndpoint = aws.String(ep)
			o.UsePathStyle = true
		}
	})}, nil
}

func (s s3Store) Stat(ctx context.Context, bucket, key string) (int64, string, error) {
	h, err := s.c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
	if err != nil {
		return 0, "", s3Error(err)
	}
	if h.ContentLength == nil || *h.ContentLength < 0 {
		return 0, "", errors.New("HEAD gave no object size")
	}
	return *h.ContentLength, aws.ToString(h.ETag), nil
}

func (s s3Store) Read(ctx context.Context, bucket, key, version string, off int64, p []byte) (int, error) {
	in := &s3.GetObjectInput{
		Bucket: &bucket,
		Key:    &key,
		Range:  aws.String(fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1)),
	}
	if version != "" {
		in.IfMatch = &version
	}
	out, err := s.c.GetObject(ctx, in)
	if httpStatus(err) == http.StatusPreconditionFailed {
		return 0, fmt.Errorf("the object changed after it was opened (ETag %s no longer matches): %w", version, err)
	}
	if httpStatus(err) == http.StatusRequestedRangeNotSatisfiable {
		return 0, nil // the object ends before off
	}
	if err != nil {
		return 0, s3Error(err)
	}
	defer out.Body.Close()
	n, err := io.ReadFull(out.Body, p)
	if (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) && aws.ToInt64(out.ContentLength) == int64(n) {
		err = nil // the object is shorter than the range: the caller says so
	} else if err != nil {
		err = fmt.Errorf("the response ended after %d of its %d bytes: %w", n, aws.ToInt64(out.ContentLength), errors.Join(err, io.ErrUnexpectedEOF))
	}
	return n, err
}

func (s s3Store) List(ctx context.Context, bucket, prefix string) ([]objstore.Object, error) {
	var out []objstore.Object
	p := s3.NewListObjectsV2Paginator(s.c, &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: &prefix})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, s3Error(err)
		}
		for _, o := range page.Contents {
			out = append(out, objstore.Object{Key: aws.ToString(o.Key), Size: aws.ToInt64(o.Size)})
		}
	}
	return out, nil
}

// s3Part is the size of a multipart upload's parts (S3's least is 5 MiB but for
// the last; 10,000 parts of 16 MiB hold 156 GiB).
const s3Part = 16 << 20

// s3Upload is a multipart upload: parts sent as they fill, the object made by
// CompleteMultipartUpload alone.
type s3Upload struct {
	s           s3Store
	ctx         context.Context
	bucket, key string
	id          *string
	buf         bytes.Buffer
	parts       []types.CompletedPart
	done        bool
}

// Create aborts the uploads of key a killed run left open (no other writer of the
// same output can be running: its outputs would be lost to one another anyway),
// then starts one.
func (s s3Store) Create(ctx context.Context, bucket, key string) (objstore.Writer, error) {
	s.abortStale(ctx, bucket, key)
	var out *s3.CreateMultipartUploadOutput
	err := objstore.Retry(ctx, func() (err error) {
		out, err = s.c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &bucket, Key: &key})
		return s3Error(err)
	})
	if err != nil {
		return nil, err
	}
	return &s3Upload{s: s, ctx: ctx, bucket: bucket, key: key, id: out.UploadId}, nil
}

// abortStale aborts every open multipart upload of exactly key (best effort).
func (s s3Store) abortStale(ctx context.Context, bucket, key string) {
	out, err := s.c.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: &bucket, Prefix: &key})
	if err != nil {
		return
	}
	for _, u := range out.Uploads {
		if aws.ToString(u.Key) == key {
			s.c.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &bucket, Key: &key, UploadId: u.UploadId})
		}
	}
}

func (u *s3Upload) Write(p []byte) (int, error) {
	n, _ := u.buf.Write(p)
	for u.buf.Len() >= s3Part {
		if err := u.sendPart(u.buf.Next(s3Part)); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func (u *s3Upload) sendPart(b []byte) error {
	num := int32(len(u.parts) + 1)
	var out *s3.UploadPartOutput
	err := objstore.Retry(u.ctx, func() (err error) {
		out, err = u.s.c.UploadPart(u.ctx, &s3.UploadPartInput{Bucket: &u.bucket, Key: &u.key, UploadId: u.id,
			PartNumber: &num, Body: bytes.NewReader(b), ContentLength: aws.Int64(int64(len(b)))})
		return s3Error(err)
	})
	if err != nil {
		return err
	}
	u.parts = append(u.parts, types.CompletedPart{ETag: out.ETag, PartNumber: &num})
	return nil
}

func (u *s3Upload) Commit(ctx context.Context) error {
	if u.buf.Len() == 0 && len(u.parts) == 0 {
		// An empty object: no part to send (a part has a body). One PUT is as atomic.
		u.Abort()
		return objstore.Retry(ctx, func() error {
			_, err := u.s.c.PutObject(ctx, &s3.PutObjectInput{Bucket: &u.bucket, Key: &u.key, Body: bytes.NewReader(nil), ContentLength: aws.Int64(0)})
			return s3Error(err)
		})
	}
	if u.buf.Len() > 0 {
		if err := u.sendPart(u.buf.Bytes()); err != nil {
			return err
		}
	}
	err := objstore.Retry(ctx, func() error {
		_, err := u.s.c.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: &u.bucket, Key: &u.key, UploadId: u.id,
			MultipartUpload: &types.CompletedMultipartUpload{Parts: u.parts}})
		return s3Error(err)
	})
	if err == nil {
		u.done = true
	}
	return err
}

func (u *s3Upload) Abort() {
	if u.done {
		return
	}
	u.done = true
	// On a cancelled context too: the abort is what cleans up after a signal.
	u.s.c.AbortMultipartUpload(context.WithoutCancel(u.ctx), &s3.AbortMultipartUploadInput{Bucket: &u.bucket, Key: &u.key, UploadId: u.id})
}

// s3Error names a missing object or bucket and a refusal plainly, and marks what
// may pass if asked again.
func s3Error(err error) error {
	if err == nil {
		return nil
	}
	switch st := httpStatus(err); {
	case st == 0 && strings.Contains(err.Error(), "failed to refresh cached credentials"):
		// No request was sent: the SDK's credential chain found nothing (its
		// credential cache's message; the SDK has no type for it). One line, saying
		// where it looked, instead of the chain of every provider's failure.
		return fmt.Errorf("%w (AWS: looked at AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE in AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE, then the instance role)", objstore.ErrNoCredentials)
	case st == http.StatusNotFound:
		return fmt.Errorf("%w (%v)", objstore.ErrNotFound, err)
	case st == http.StatusForbidden:
		return fmt.Errorf("%w (%v)", objstore.ErrDenied, err)
	case st >= 500 || st == http.StatusTooManyRequests:
		return objstore.Transient(err)
	}
	return err
}

// httpStatus is the HTTP status of a failed S3 call, 0 if there was no response.
func httpStatus(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}
