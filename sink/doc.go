// Package sink writes graphdp's per-vertex result tables to files (tables out).
//
// Invariants:
//
//  1. Atomic: Write and WriteFileAtomic write a temporary file in the destination
//     directory, fsync it, close it, rename it over the destination and fsync the
//     directory (a commit of one output: invariant 5). On Linux the temporary file
//     is unnamed while it is written (O_TMPFILE) and linked as
//     ".<base>.tmp-<digits>" only once complete, just before the rename, so a
//     kill -9 mid-write leaves nothing; elsewhere it has that name from the start.
//     Before writing, temporary files of the same target modified before this
//     process started (left by a killed writer) are removed. On any error,
//     including a cancelled context, the temporary file is removed and whatever
//     was at the destination is untouched.
//     Mode: a private output (NewPrivateOutputs, WritePrivate: what is computed
//     from the answers, docs/FORMATS.md "Private and shareable outputs") is 0600,
//     whatever the umask and whatever the file it replaces. Otherwise a file that
//     replaces a regular file keeps that file's permission bits; a new file gets
//     0666 without the process's umask (mode.go), as open(2) would give it. The temporary file is 0600 until it is complete, so that nobody can
//     open it while it is written under looser bits. Nothing else of a previous
//     file (owner, xattrs, ACLs) is kept, and a symlink at the destination is
//     replaced, not followed.
//  2. Deterministic: the bytes written are a pure function of (record, metadata,
//     format) for a given arrow-go version: no timestamps, no library version
//     string, metadata keys sorted, fixed row-group length, fixed codec and
//     encodings, and nothing that depends on GOMAXPROCS or map iteration order.
//  3. Formats, chosen from the extension by FormatOf:
//     - .parquet: Snappy-compressed Parquet (format 2.6, data page v1), row groups
//     of at most RowGroupRows rows, dictionary encoding off (every column
//     PLAIN), the Arrow schema stored under "ARROW:schema", the
//     caller's metadata in the footer's key_value_metadata, and a CRC-32 in
//     every page header (internal/pqcrc: arrow-go writes none), which graphdp's
//     readers check; no page index or bloom filter.
//     - .arrow, .feather: Arrow IPC file format, uncompressed, record batches of
//     at most RowGroupRows rows, the caller's metadata in the schema metadata.
//     - .csv: RFC 4180 with a header line, "\n" line ends, shortest round-trip
//     floats, true/false, nulls as empty fields; it carries no metadata.
//  4. Bounded memory: records are written in slices of at most RowGroupRows rows,
//     and the context is checked between slices. WriteBatches takes a table as a
//     sequence of batches and re-cuts them into the same slices, holding one slice
//     and one batch at a time; its bytes are those of Write of the concatenation
//     (what an encoder writes depends on the rows, not on how they were cut:
//     emptyValueBytes, writeIPC).
//  5. Published together (Outputs): the files of one command are staged (each
//     written to its temporary file and fsynced, the targets untouched), then
//     Commit publishes them. Commit first names and closes every temporary file
//     and keeps each existing target but the last as a hard link
//     ".<base>.bak-<digits>" beside it; any failure so far (or a cancelled
//     context: ctx is checked up to here and no later) removes all it made and
//     wraps ErrNotPublished. Then it renames each temporary file over its target,
//     in order. If rename k fails, targets 0..k−1 are put back in reverse order
//     (the backup renamed over the target: the previous file itself, inode and
//     all; a target that did not exist is removed), the other temporary files are
//     removed, and the error wraps ErrNotPublished. Once all are renamed, each
//     folder is fsynced and the backups removed. What can be observed:
//     - returned nil: every target holds its new content; nothing else in the
//     folders changed (but for stale temporary files of the targets, removed as
//     invariant 1 says).
//     - an error wrapping ErrNotPublished: every target is as it was (the same
//     file, or still absent) and nothing else in the folders changed (idem).
//     - a *PublishError (a folder's fsync failed, a backup could not be removed,
//     or putting back a previous file failed): it lists which targets are new,
//     which as before, and which files it left.
//     - a crash (kill -9, power loss) between two renames: the targets renamed so
//     far are new, the others as before. Each target that existed, but the last,
//     has its ".<base>.bak-<digits>": for a renamed target it holds the previous
//     content (rename it back to undo), for the others it is a second name of the
//     file still in place. The temporary files of the targets not yet renamed
//     are named ".<base>.tmp-<digits>"; the next write of the target removes
//     them, as stale. Backups are never removed automatically: they are left for
//     the operator. A crash before the first rename leaves nothing but such
//     named temporary files (none on Linux until Commit names them), and every
//     target as it was. A crash after the renames but before the folders' fsync
//     may, on some file systems, lose renames.
//     Only a crash can interrupt the renames: a signal cancels the context, which
//     Commit no longer reads.
//     CheckPath tells before any work why a path could not be written (folder
//     missing, not a folder or not writable, the name too long with its
//     temporary name).
//  6. Named in one place: names.go gives graphdp's output tables (the mechanism,
//     a hitting set, a release) their schemas. An output keeps the id and answer
//     (a hitting set the p_true) column names its inputs were read under (Names),
//     the other columns have graphdp's fixed names, and a mechanism records its
//     two in its metadata (Names.Metadata), which ingest's mechanism reader
//     follows.
package sink
