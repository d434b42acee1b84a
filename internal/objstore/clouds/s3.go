package clouds

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/graphdp/graphdp/internal/objstore"
)

// s3Store reads s3:// objects by ranged GETs and writes them by multipart uploads,
// through minio-go's Core (one S3 request a call).
type s3Store struct{ c minio.Core }

// s3Where is where newS3Store looks for credentials, in order: what a credential
// failure says.
const s3Where = "AWS: looked at AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE in AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE, " +
	"then AWS_WEB_IDENTITY_TOKEN_FILE, the container's and the instance's role"

// newS3Store makes a client from AWS's usual sources, in the AWS SDK's order: the
// environment, the shared credentials and config files (AWS_PROFILE), then a web
// identity token, the container's role and the instance's (not asked when
// AWS_EC2_METADATA_DISABLED=true and no token or container variable says to). The
// job's endpoint (objstore.Config.S3Endpoint, resolved: else AWS_ENDPOINT_URL_S3,
// AWS_ENDPOINT_URL) points it at an S3-compatible service, addressed path-style
// (http://host/bucket/key), which they all serve; else it reaches AWS.
func newS3Store(ctx context.Context, c objstore.Config) (objstore.Store, error) {
	providers := []credentials.Provider{&credentials.EnvAWS{}, &credentials.FileAWSCredentials{}}
	if os.Getenv("AWS_EC2_METADATA_DISABLED") != "true" || os.Getenv("AWS_WEB_IDENTITY_TOKEN_FILE") != "" ||
		os.Getenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") != "" || os.Getenv("AWS_CONTAINER_CREDENTIALS_FULL_URI") != "" {
		providers = append(providers, &credentials.IAM{})
	}
	creds := credentials.NewChainCredentials(providers)
	if v, _ := creds.GetWithContext(nil); v.AccessKeyID == "" {
		// Unsigned requests would reach AWS as anonymous and come back 403 for every
		// object: say where we looked instead.
		return nil, fmt.Errorf("%w (%s)", objstore.ErrNoCredentials, s3Where)
	}
	region := os.Getenv("AWS_REGION")
	if region == "" {
		region = os.Getenv("AWS_DEFAULT_REGION")
	}
	// One try a call: objstore.Retry is the one place that asks again (doc.go).
	opts := &minio.Options{Creds: creds, Secure: true, Region: region, BucketLookup: minio.BucketLookupAuto, MaxRetries: 1}
	host := "s3.amazonaws.com"
	if c.S3Endpoint != "" {
		u, err := url.Parse(c.S3Endpoint)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("s3: endpoint %q is not an http:// or https:// URL", c.S3Endpoint)
		}
		host, opts.Secure, opts.BucketLookup = u.Host, u.Scheme == "https", minio.BucketLookupPath
		if opts.Region == "" {
			opts.Region = "us-east-1" // S3-compatible stores mostly ignore it
		}
	}
	cl, err := minio.NewCore(host, opts)
	if err != nil {
		return nil, fmt.Errorf("s3: cannot make a client: %w", err)
	}
	return s3Store{*cl}, nil
}

func (s s3Store) Stat(ctx context.Context, bucket, key string) (int64, string, error) {
	info, err := s.c.StatObject(ctx, bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return 0, "", s3Error(err)
	}
	if info.Size < 0 {
		return 0, "", errors.New("HEAD gave no object size")
	}
	return info.Size, info.ETag, nil
}

func (s s3Store) Read(ctx context.Context, bucket, key, version string, off int64, p []byte) (int, error) {
	var opts minio.GetObjectOptions
	if err := opts.SetRange(off, off+int64(len(p))-1); err != nil {
		return 0, err
	}
	if version != "" {
		opts.SetMatchETag(version)
	}
	body, info, _, err := s.c.GetObject(ctx, bucket, key, opts)
	switch s3Status(err) {
	case http.StatusPreconditionFailed:
		return 0, fmt.Errorf("the object changed after it was opened (ETag %s no longer matches): %w", version, err)
	case http.StatusRequestedRangeNotSatisfiable:
		return 0, nil // the object ends before off
	}
	if err != nil {
		return 0, s3Error(err)
	}
	defer body.Close()
	n, err := io.ReadFull(body, p)
	if (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) && info.Size == int64(n) {
		err = nil // the object is shorter than the range: the caller says so
	} else if err != nil {
		err = fmt.Errorf("the response ended after %d of its %d bytes: %w", n, info.Size, errors.Join(err, io.ErrUnexpectedEOF))
	}
	return n, err
}

func (s s3Store) List(ctx context.Context, bucket, prefix string) ([]objstore.Object, error) {
	var out []objstore.Object
	token := ""
	for {
		page, err := s.c.ListObjectsV2(bucket, prefix, "", token, "", 1000)
		if err != nil {
			return nil, s3Error(err)
		}
		for _, o := range page.Contents {
			out = append(out, objstore.Object{Key: o.Key, Size: o.Size})
		}
		if !page.IsTruncated || page.NextContinuationToken == "" {
			return out, nil
		}
		token = page.NextContinuationToken
	}
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
	id          string
	buf         bytes.Buffer
	parts       []minio.CompletePart
	done        bool
}

// Create aborts the uploads of key a killed run left open (no other writer of the
// same output can be running: its outputs would be lost to one another anyway),
// then starts one.
func (s s3Store) Create(ctx context.Context, bucket, key string) (objstore.Writer, error) {
	s.abortStale(ctx, bucket, key)
	var id string
	err := objstore.Retry(ctx, func() (err error) {
		id, err = s.c.NewMultipartUpload(ctx, bucket, key, minio.PutObjectOptions{})
		return s3Error(err)
	})
	if err != nil {
		return nil, err
	}
	return &s3Upload{s: s, ctx: ctx, bucket: bucket, key: key, id: id}, nil
}

// abortStale aborts every open multipart upload of exactly key (best effort).
func (s s3Store) abortStale(ctx context.Context, bucket, key string) {
	out, err := s.c.ListMultipartUploads(ctx, bucket, key, "", "", "", 1000)
	if err != nil {
		return
	}
	for _, u := range out.Uploads {
		if u.Key == key {
			s.c.AbortMultipartUpload(ctx, bucket, key, u.UploadID)
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
	num := len(u.parts) + 1
	// The part's SHA-256 is signed (the store checks the bytes it got), not
	// streamed in aws-chunked framing, which not every S3-compatible store reads.
	h := sha256.Sum256(b)
	sum := hex.EncodeToString(h[:])
	var part minio.ObjectPart
	err := objstore.Retry(u.ctx, func() (err error) {
		part, err = u.s.c.PutObjectPart(u.ctx, u.bucket, u.key, u.id, num, bytes.NewReader(b), int64(len(b)),
			minio.PutObjectPartOptions{Sha256Hex: sum, DisableContentSha256: true})
		return s3Error(err)
	})
	if err != nil {
		return err
	}
	u.parts = append(u.parts, minio.CompletePart{PartNumber: num, ETag: part.ETag})
	return nil
}

func (u *s3Upload) Commit(ctx context.Context) error {
	if u.buf.Len() == 0 && len(u.parts) == 0 {
		// An empty object: no part to send (a part has a body). One PUT is as atomic.
		u.Abort()
		return objstore.Retry(ctx, func() error {
			h := sha256.Sum256(nil)
			_, err := u.s.c.PutObject(ctx, u.bucket, u.key, bytes.NewReader(nil), 0, "", hex.EncodeToString(h[:]), minio.PutObjectOptions{DisableContentSha256: true})
			return s3Error(err)
		})
	}
	if u.buf.Len() > 0 {
		if err := u.sendPart(u.buf.Bytes()); err != nil {
			return err
		}
	}
	err := objstore.Retry(ctx, func() error {
		_, err := u.s.c.CompleteMultipartUpload(ctx, u.bucket, u.key, u.id, u.parts, minio.PutObjectOptions{})
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
	u.s.c.AbortMultipartUpload(context.WithoutCancel(u.ctx), u.bucket, u.key, u.id)
}

// s3Error names a missing object or bucket and a refusal plainly, and marks what
// may pass if asked again.
func s3Error(err error) error {
	if err == nil {
		return nil
	}
	switch st := s3Status(err); {
	case st == http.StatusNotFound:
		return fmt.Errorf("%w (%v)", objstore.ErrNotFound, err)
	case st == http.StatusForbidden:
		return fmt.Errorf("%w (%v)", objstore.ErrDenied, err)
	case st >= 500 || st == http.StatusTooManyRequests:
		return objstore.Transient(err)
	}
	return err
}

// s3Status is the HTTP status of a failed S3 call, 0 if there was no response.
func s3Status(err error) int {
	return minio.ToErrorResponse(err).StatusCode
}
