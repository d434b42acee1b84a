// Package pqcrc writes and checks Parquet page checksums: the crc field of a page
// header, CRC-32 (IEEE) of the page's bytes as stored (after compression), which
// the Parquet format defines and arrow-go v18.8.0 neither writes nor checks. A flipped
// byte inside a page is otherwise read back as a wrong value: a snappy literal, a
// plain float64 or integer decodes whatever it holds.
//
// Writer sits between arrow-go's file writer and the file: it passes the file
// through, adding the crc field to every page header, and rewrites the footer's
// offsets and sizes for the bytes it added. Checker is fed a file's bytes in order
// (the hashing read the readers already make) and reports the first page whose
// checksum does not match; pages without one are not checked.
//
// Invariants:
//
//  1. Writer's output is arrow-go's file with exactly one change per page header (a
//     crc field, inserted in field order, or replaced) and the footer's offsets
//     (file, data, dictionary, index and bloom filter offsets, column index and
//     offset index offsets) and sizes (the chunks' and row groups' totals) moved by
//     the bytes inserted before them; anything it cannot account for — bytes
//     between the last page and the footer, a footer that does not parse — fails
//     the write instead of producing a file with wrong offsets.
//  2. The thrift compact codec re-encodes what it decodes byte for byte when the
//     input uses the protocol's short forms, as every thrift writer does
//     (TestRoundTrip checks arrow-go's footers and page headers).
//  3. Decoding never allocates more than its input's length in elements and never
//     recurses deeper than maxDepth: a hostile footer or page header is an error,
//     not a crash.
package pqcrc
