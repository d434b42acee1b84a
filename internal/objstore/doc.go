// Package objstore reads and writes objects of the object stores graphdp's users
// keep their tables in: s3:// (Amazon S3 and S3-compatible stores) and gs://
// (Google Cloud Storage). It is the one implementation both the single-machine
// binary (ingest's readers, sink's outputs) and the Beam runner use.
//
// The clients themselves are drivers (Store) that internal/objstore/clouds
// registers (minio-go for S3, GCS's JSON API over net/http): this package imports
// neither, and a binary that does not import clouds answers an s3:// or gs:// URL
// with ErrNotLinked. graphdp and graphdp-beam both import it.
//
// Invariants:
//
//  1. Reads are ranged and pinned: Open stats the object once and every later read
//     asks for that version (an S3 ETag, a GCS generation); an object replaced or
//     shortened meanwhile is an error, never a mix of two versions.
//  2. A read or a listing that fails transiently (a 5xx, a reset or refused
//     connection, a body cut short) is asked again, with backoff (retry.go); a
//     missing object or bucket (ErrNotFound), a refusal (ErrDenied) or a changed
//     object is not.
//  3. An upload is invisible until Commit: an S3 multipart upload completed, a GCS
//     resumable upload finalized, by Commit alone. Abort (on any error, or a signal
//     that cancels the context) removes what was sent; an upload left open by a
//     killed process is aborted by the next Create of the same key (S3), or expires
//     (GCS resumable sessions last a week; an S3 lifecycle rule
//     AbortIncompleteMultipartUpload covers keys never written again).
//  4. Credentials come from each cloud's usual sources: for S3 the environment, the
//     shared credentials and config files (AWS_PROFILE: keys, credential_process,
//     SSO), a web identity token, the
//     container's and the instance's role, in the AWS SDK's order (none found: one
//     ErrNoCredentials line naming them); for GCS application-default credentials,
//     else anonymous access.
//  5. Where the stores are is the job's, never the process's: a Config (its
//     S3Endpoint, the job's s3_endpoint) travels in the context of each Open, List
//     and Create (WithConfig; job.Job.Context makes it, and the Beam backend
//     hands it to its workers with the pipeline), and a client is made and kept per
//     scheme and Config, so two jobs in one process reach their own stores. A Config
//     that gives no S3 endpoint takes the environment's (AWS_ENDPOINT_URL_S3, else
//     AWS_ENDPOINT_URL; Config.Resolved), else AWS itself.
//
// It knows nothing of graphdp's tables: it moves bytes.
package objstore
