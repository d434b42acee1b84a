package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"os"
)

// fingerprintAsync hashes the file at path (SHA-256 of its bytes, streamed)
// in the background, so hashing overlaps with parsing. wait returns the hex
// digest. Cancelling ctx stops the hashing early.
func fingerprintAsync(ctx context.Context, path string) (wait func() (string, error)) {
	type result struct {
		sum string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		sum, err := fingerprintFile(ctx, path)
		ch <- result{sum, err}
	}()
	return func() (string, error) {
		r := <-ch
		return r.sum, r.err
	}
}

func fingerprintFile(ctx context.Context, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", openError(path, err)
	}
	defer f.Close()
	sum, err := Fingerprint(ctx, f)
	if err != nil && ctx.Err() == nil {
		return "", fileError(path, ErrUnreadable, "read error: "+err.Error())
	}
	return sum, err
}

// Fingerprint is the hex SHA-256 of r's bytes, streamed (the inputs' Fingerprint;
// a cluster runner hashes its remote files with it). Cancelling ctx stops it.
func Fingerprint(ctx context.Context, r io.Reader) (string, error) {
	h := sha256.New()
	buf := make([]byte, 1<<20)
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		n, err := r.Read(buf)
		h.Write(buf[:n])
		if err == io.EOF {
			return hexSum(h), nil
		}
		if err != nil {
			return "", err
		}
	}
}

func hexSum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }
