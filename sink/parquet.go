package sink

import (
	"context"
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/graphdp/graphdp/internal/pqcrc"
)

// createdBy replaces arrow-go's default "parquet-go version <v>", so the bytes
// do not change with the library version string.
const createdBy = "graphdp"

// parquetProperties fixes every writer property that reaches the bytes.
//
// Snappy: fast for a nightly job and stateless, so the output is independent
// of GOMAXPROCS. Dictionary encoding is off for every column: arrow-go v18.8.0
// serialises a column chunk's page encoding stats by ranging over a Go map
// (parquet/metadata/column_chunk.go), so a chunk that falls back from
// dictionary to plain pages lists its two encodings in random order.
// Every column is PLAIN: DELTA_BINARY_PACKED would shrink integer columns, but
// arrow-go v18.8.0's reader leaks its decoder buffers (deltaBitPackDecoder.
// initBlock), which would fail every downstream test that reads our files with
// a checked allocator.
func parquetProperties(cfg config) *parquet.WriterProperties {
	opts := []parquet.WriterProperty{
		parquet.WithAllocator(cfg.mem),
		parquet.WithCreatedBy(createdBy),
		parquet.WithVersion(parquet.V2_6),
		parquet.WithDataPageVersion(parquet.DataPageV1),
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(false),
		parquet.WithEncoding(parquet.Encodings.Plain),
		parquet.WithMaxRowGroupLength(cfg.sliceRows),
		parquet.WithStats(true),
		// No page index or bloom filter: pqcrc.Writer moves the footer's offsets for
		// the checksums it adds to the page headers, and refuses structures between
		// the pages and the footer it would have to rewrite.
		parquet.WithPageIndexEnabled(false),
		parquet.WithBloomFilterEnabled(false),
	}
	return parquet.NewWriterProperties(opts...)
}

// writeParquet writes rec as one Parquet file with one row group per slice.
func writeParquet(ctx context.Context, w io.Writer, rec table, md arrow.Metadata, cfg config) error {
	sc := withMetadata(rec.schema, md)
	arrProps := pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(cfg.mem), pqarrow.WithStoreSchema())
	// Every page gets its CRC-32 (arrow-go writes none: internal/pqcrc). fw.Close
	// closes its sink, the pqcrc.Writer, which writes the footer and does not close
	// w (a *bufio.Writer over the temporary file under writeFileAtomic).
	cw := pqcrc.NewWriter(w)
	fw, err := pqarrow.NewFileWriter(sc, cw, parquetProperties(cfg), arrProps)
	if err != nil {
		return err
	}
	err = forEachSlice(ctx, rec, cfg, false, fw.Write)
	return errors.Join(err, fw.Close(), cw.Close())
}
