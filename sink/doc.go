// Package sink writes graphdp's per-vertex result tables to files (tables out).
//
// Invariants:
//
//  1. Atomic: Write and WriteFileAtomic write a temporary file in the destination
//     directory, fsync it, close it, rename it over the destination and fsync the
//     directory. On Linux the temporary file is unnamed while it is written
//     (O_TMPFILE) and linked as ".<base>.tmp-<digits>" only once complete, just
//     before the rename, so a kill -9 mid-write leaves nothing; elsewhere it has that
//     name from the start. Before writing, temporary files of the same target
//     modified before this process started (left by a killed writer) are removed.
//     On any error, including a cancelled context, the temporary file is removed
//     and whatever was at the destination is untouched; such an error wraps
//     ErrNotPublished. The only failure after the rename (the folder's fsync) does
//     not: the new file is then in place.
//     The new file has mode 0644; nothing of a previous file (mode, owner, xattrs)
//     is preserved, and a symlink at the destination is replaced, not followed.
//  2. Deterministic: the bytes written are a pure function of (record, metadata,
//     format) for a given arrow-go version: no timestamps, no library version
//     string, metadata keys sorted, fixed row-group length, fixed codec and
//     encodings, and nothing that depends on GOMAXPROCS or map iteration order.
//  3. Formats, chosen from the extension by FormatOf:
//     - .parquet: Snappy-compressed Parquet (format 2.6, data page v1), row groups
//     of at most RowGroupRows rows, dictionary encoding off (every column
//     PLAIN), the Arrow schema stored under "ARROW:schema", and the
//     caller's metadata in the footer's key_value_metadata.
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
package sink
