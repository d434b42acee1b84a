// Package clouds is internal/objstore's drivers for the two clouds' object stores:
// s3:// through minio-go (github.com/minio/minio-go/v7, Apache-2.0: the S3 API,
// SigV4, AWS's credential sources) and gs:// through GCS's JSON API over net/http,
// with golang.org/x/oauth2/google for application-default credentials. Its init
// registers them (objstore.Register); a binary has object storage when it imports
// this package, as cmd/graphdp and cmd/graphdp-beam do.
//
// Not the clouds' own SDKs (aws-sdk-go-v2, cloud.google.com/go/storage) because of
// what they cost to build: they add half again to a cold build's CPU (500 packages
// more: gRPC, protobuf, OpenTelemetry), past README's budget for its first command,
// where these add 50 packages and 7% (docs/PERFORMANCE.md, "Build time").
//
// Invariants (each store's part of internal/objstore's):
//
//  1. Every error is classified: a 404 or a missing bucket wraps objstore.ErrNotFound,
//     a 403 (a 401 for GCS) objstore.ErrDenied, a 5xx or 429 is marked
//     objstore.Transient; no credentials at all for S3 is objstore.ErrNoCredentials,
//     naming where they were looked for. Each request is tried once by its client:
//     objstore.Retry alone asks again.
//  2. Reads are pinned to the version Stat returned: an S3 read sends If-Match with
//     the ETag, a GCS read asks for the generation.
//  3. Nothing is visible under a key before Commit: S3 parts go to a multipart
//     upload that only Commit completes; a GCS resumable upload's last chunk, the
//     one that gives the size and so finalizes the object, is sent by Commit only,
//     and Abort cancels the session.
//  4. No byte is stored twice: a GCS chunk whose request failed is resumed from
//     what the session says it kept (its status query, PUT Content-Range bytes
//     */total, answered by a 308's Range), inside the same objstore.Retry.
package clouds

import "github.com/graphdp/graphdp/internal/objstore"

func init() {
	objstore.Register("s3", newS3Store)
	objstore.Register("gs", newGCSStore)
}
