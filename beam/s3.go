package beam

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// s3Store reads s3:// objects by ranged GETs (GetObject with Range).
type s3Store struct{ c *s3.Client }

// newS3Store makes a client from AWS's default configuration sources (environment,
// shared files, instance role), as Beam's S3 filesystem does; AWS_ENDPOINT_URL_S3
// points it at an S3-compatible service.
func newS3Store(ctx context.Context) (objectStore, error) {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("s3: cannot load the AWS configuration: %w", err)
	}
	return s3Store{s3.NewFromConfig(cfg)}, nil
}

func (s s3Store) stat(ctx context.Context, bucket, key string) (int64, string, error) {
	h, err := s.c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
	if err != nil {
		return 0, "", s3Error(err)
	}
	if h.ContentLength == nil || *h.ContentLength < 0 {
		return 0, "", errors.New("HEAD gave no object size")
	}
	return *h.ContentLength, aws.ToString(h.ETag), nil
}

func (s s3Store) read(ctx context.Context, bucket, key, version string, off int64, p []byte) (int, error) {
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
		err = fmt.Errorf("the response ended after %d of its %d bytes: %w", n, aws.ToInt64(out.ContentLength), err)
	}
	return n, err
}

// s3Error names a missing object or bucket plainly.
func s3Error(err error) error {
	if httpStatus(err) == http.StatusNotFound {
		return fmt.Errorf("%w (%v)", errNoObject, err)
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
