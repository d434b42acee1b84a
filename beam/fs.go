package beam

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/objstore"
	// Beam's filesystems: local paths, gs:// and s3://.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
)

// randomAccess is what arrow-go's Parquet reader needs (parquet.ReaderAtSeeker).
type randomAccess interface {
	io.ReaderAt
	io.Seeker
}

// beamFiles is ingest's Opener over Beam's filesystems, with gs:// and s3:// read
// by ranged GETs (ranged.go) rather than through Beam's whole-object stream.
type beamFiles struct{}

type beamFile struct {
	io.ReaderAt
	size  int64
	close func() error
}

func (f beamFile) Size() int64  { return f.size }
func (f beamFile) Close() error { return f.close() }

// Open opens a gs:// or s3:// object by ranges (internal/objstore), anything else
// (and an object that cannot be read by ranges) with openFile.
func (beamFiles) Open(ctx context.Context, path string) (ingest.File, error) {
	if objstore.IsURL(path) {
		f, err := objstore.Open(ctx, path)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, objstore.ErrWholeObject) {
			return nil, err
		}
	}
	ra, size, closeFile, err := openFile(ctx, path)
	if err != nil {
		return nil, err
	}
	return beamFile{ra, size, closeFile}, nil
}

// openFile opens path on Beam's filesystems for random access. The local filesystem
// hands out an *os.File, which is used as is; any other gives only a stream, read
// into memory once per open (gs:// and s3:// objects come here only when stored
// gzip-encoded, which GCS serves decompressed and whole).
func openFile(ctx context.Context, path string) (randomAccess, int64, func() error, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, 0, nil, err
	}
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		fs.Close()
		return nil, 0, nil, err
	}
	closeAll := func() error { return errors.Join(rc.Close(), fs.Close()) }
	if ra, ok := rc.(randomAccess); ok {
		size, err := ra.Seek(0, io.SeekEnd)
		if err != nil {
			closeAll()
			return nil, 0, nil, err
		}
		return ra, size, closeAll, nil
	}
	b, err := io.ReadAll(rc)
	if err != nil {
		closeAll()
		return nil, 0, nil, err
	}
	return bytes.NewReader(b), int64(len(b)), closeAll, nil
}

// writeBlob writes one staging file.
func writeBlob(ctx context.Context, path string, b []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	if err := filesystem.Write(ctx, fs, path, b); err != nil {
		return fmt.Errorf("beam: write %s: %w", path, err)
	}
	return nil
}

// readBlob reads one staging file.
func readBlob(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	b, err := filesystem.Read(ctx, fs, path)
	if err != nil {
		return nil, fmt.Errorf("beam: read %s: %w", path, err)
	}
	return b, nil
}

// listBlobs lists staging files matching glob, sorted.
func listBlobs(ctx context.Context, glob string) ([]string, error) {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	names, err := fs.List(ctx, glob)
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	return names, nil
}

// eachBlob reads every staging file matching glob, in name order, and hands each
// to f with its path; the first error ends it.
func eachBlob(ctx context.Context, glob string, f func(path string, b []byte) error) error {
	names, err := listBlobs(ctx, glob)
	if err != nil {
		return err
	}
	for _, n := range names {
		b, err := readBlob(ctx, n)
		if err != nil {
			return err
		}
		if err := f(n, b); err != nil {
			return err
		}
	}
	return nil
}

// join is path.Join that keeps a URL scheme's "//".
func join(dir string, parts ...string) string {
	p := strings.TrimRight(dir, "/")
	for _, x := range parts {
		p += "/" + x
	}
	return p
}
