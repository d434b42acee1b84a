// Package clouds is internal/objstore's drivers for the two clouds' object stores:
// s3:// through aws-sdk-go-v2 and gs:// through cloud.google.com/go/storage. Its
// init registers them (objstore.Register); a binary has object storage when it
// imports this package.
//
// It is a package of its own because of what the SDKs cost to build: linking them
// more than doubles a cold build of cmd/graphdp (docs/PERFORMANCE.md, "Build time"),
// past the README's budget for its first command. So cmd/graphdp imports it only
// when built with -tags cloud (cmd/graphdp/cloud.go); cmd/graphdp-beam always does,
// and so do the tests that run against the object-store servers.
//
// Invariants (each store's part of internal/objstore's):
//
//  1. Every error is classified: a 404 or a missing bucket wraps objstore.ErrNotFound,
//     a 403 objstore.ErrDenied, a 5xx or 429 is marked objstore.Transient; nothing
//     else is retried by objstore.Retry but what it knows as transient (resets).
//  2. Reads are pinned to the version Stat returned: an S3 read sends If-Match with
//     the ETag, a GCS read asks for the generation.
//  3. Nothing is visible under a key before Commit: S3 parts go to a multipart
//     upload that only Commit completes; a GCS resumable upload is finalized by
//     Commit (the writer's Close) only, and cancelled by Abort.
package clouds

import "github.com/graphdp/graphdp/internal/objstore"

func init() {
	objstore.Register("s3", newS3Store)
	objstore.Register("gs", newGCSStore)
}
