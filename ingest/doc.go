// Package ingest reads graphdp's input tables — vertices, edges, the hitting
// set's partial mechanism, complete mechanism tables (to audit), and id lists —
// from Parquet or CSV, validates them, and turns vertex ids into dense positions.
//
// Invariants of what the readers return:
//
//  1. Vertex positions are dense, 0..n-1, in the vertices file's row order;
//     n >= 1 and ids are unique. Every position in Edges, HittingSet and
//     IDList is in 0..n-1 and refers to that order.
//  2. Edges has one (Src[i], Dst[i]) per input row, in file order, with
//     duplicates and self-loops kept (the graph builder dedupes).
//  3. HittingSet rows are in file order, name each vertex at most once, and
//     every PTrue is in [0, 1] (no NaN or Inf).
//  4. Results do not depend on scheduling: Parquet row groups are read in
//     parallel, each into its own range of preallocated slices, and when
//     several rows are bad the one reported is the first bad row of the
//     earliest failing row group.
//  5. Every problem caused by the input is an *InputError (possibly
//     wrapped); other errors are cancellation or programming errors. Its kind
//     says whether the paths are at fault, found before any row is read
//     (ErrMissing, ErrAccess, ErrPath; CheckTable) or the content (every other).
//  6. No process-wide state: the Parquet decoder allocates from the allocator
//     the caller gives (WithAllocator; memory.DefaultAllocator by default) and
//     has released every buffer when a reader returns, on success or error. Within
//     one open file it reuses the page buffers it freed (recycle.go), and gives
//     them back when the file closes.
//
// A table may be many files: a folder, a glob, or several sources joined with
// sourceSep (parts.go says the order, the checks across files and the fingerprint);
// its rows are the files' rows in read order, and every error names the file and
// the row within it. Paths may be s3:// or gs:// objects (remote.go, through
// internal/objstore: ranged reads).
//
// Column names are the caller's (Columns, MechanismTableColumns), with one
// exception, in one place (mechnames.go): a mechanism table that records its id and
// answer columns' names in its metadata (graphdp's own, sink.Names) is read by the
// names it records, unless the caller names on purpose another of its columns.
//
// An input format is one source (source.go): the file's columns and types, its
// read units and the reading of chosen columns of a unit as typed batches that
// carry each value's file row and text. A Parquet file (source_parquet.go) is its
// row groups, read in parallel into the tables' preallocated slices through the
// cursors that decode its physical types (cursor.go); a CSV file (source_csv.go) is
// one unit streamed in batches of rows, its fields typed by parsing. Each table's
// rules — its columns, how an id becomes a vertex position (refsInto), what a valid
// p_true, answer, weight or distance is, the messages — are written once against
// the source (hittingset.go, idlist.go, weights.go, numbers.go, vertices.go,
// edges.go, mechtable_file.go), and so is a cluster runner's reading (splits.go):
// a file's plan (PlanFile: its columns checked, its rows and read units, a vertices
// file's id and answer types) and the reading of unit u of a file as a split of the
// vertices, edges or hitting set (ReadSplit), in every format (WithOpener: through
// the runner's filesystems). What only a format knows stays in its source: its
// parsing and parse errors, Parquet's physical types and nulls. A format without
// types (CSV) has its types found from the values by the one rule (ParseID,
// parseAnswer): by the reader, which reads ids as integers first (errNotInt), and
// by a plan, which reads a file whose rows it does not know as text.
//
// Formats are chosen by extension: ".parquet", or ".csv" or ".tsv" (with a header
// row; a ".csv" file's fields are split on commas unless the context says otherwise,
// WithDelimiter; a ".tsv" file's on tabs).
// In CSV there are no nulls: an empty field is a missing value. Ids in a CSV
// vertices file are int64 when every one is a canonical decimal integer (ParseID:
// no '+', no leading zeros, within int64: the spelling that writes back as read),
// else strings, every one kept as written ("007" stays "007"; "1" and "01" are two
// datasets). The other files then read ids in that type: against integer ids a
// non-canonical one is refused, never read as the integer it spells. A needed
// column whose name two columns share is refused (ErrDuplicateColumn), in CSV and
// Parquet. CSV answers are 0/1
// (AnswerType Int64) or true/false in any case (AnswerType Boolean, also when
// mixed with 0/1).
//
// Rows in errors: InputError.Row is the 0-based data row in the file (the
// CSV header is not a data row; for Parquet it counts across row groups), or
// -1. Error() prints it 1-based: "row 1" is the first data row, which is the
// second line of a CSV file without quoted newlines. CSV syntax errors also
// name the file line in the message.
//
// Parquet page checksums (the page header's CRC-32, which graphdp writes and
// arrow-go does not check) are checked by the same read that hashes the file, in
// every reader; pages without one are not checked. A page that fails is an
// *InputError (ErrUnreadable) naming the file, the column, the row group and the
// page; when the decoder refuses a value first (damaged bytes decode to anything),
// the failing row group's pages are checked then, so the damage is what is
// reported (internal/pqcrc).
//
// Fingerprint is the hex SHA-256 of the file's bytes, streamed while (CSV)
// or concurrently with (Parquet) parsing. An EdgeStream's first Scan hashes the
// Parquet edges file from the bytes it reads, so the largest input is read once
// (the graph build's one pass), not twice (fingerprint.go, foldedHash).
package ingest
