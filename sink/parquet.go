package sink

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"

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
//
// It drives arrow-go's low-level writer (parquet/file) itself rather than
// pqarrow, whose FileWriter links arrow/flight and with it gRPC and protobuf
// (98 packages, most of a cold build: docs/PERFORMANCE.md, "Build time"). The
// bytes are those pqarrow v18.8.0 wrote for the same properties (the schema of
// parquetSchema, the "ARROW:schema" entry of storedSchema, the column calls of
// writeColumn), which TestParquetMatchesPqarrow checks.
func writeParquet(ctx context.Context, w io.Writer, rec table, md arrow.Metadata, cfg config) error {
	sc := withMetadata(rec.schema, md)
	props := parquetProperties(cfg)
	root, err := parquetSchema(sc, props)
	if err != nil {
		return err
	}
	kv, err := parquetMetadata(sc, cfg.mem)
	if err != nil {
		return err
	}
	// Every page gets its CRC-32 (arrow-go writes none: internal/pqcrc). fw.Close
	// closes its sink, the pqcrc.Writer, which writes the footer and does not close
	// w (a *bufio.Writer over the temporary file under writeFileAtomic).
	cw := pqcrc.NewWriter(w)
	fw, err := file.NewParquetWriterWithError(cw, root, file.WithWriterProps(props), file.WithWriteMetadata(kv))
	if err != nil {
		return err
	}
	err = forEachSlice(ctx, rec, cfg, false, func(s arrow.RecordBatch) error { return writeRowGroup(fw, sc, s) })
	return errors.Join(err, fw.Close(), cw.Close())
}

// parquetMetadata is the footer's key/value metadata: sc's own, in order, then
// "ARROW:schema", the base64 of sc as an Arrow IPC stream holding only the schema
// (what readers use to restore the Arrow types, e.g. large_string, uint8).
func parquetMetadata(sc *arrow.Schema, mem memory.Allocator) (metadata.KeyValueMetadata, error) {
	kv := make(metadata.KeyValueMetadata, 0, sc.Metadata().Len()+1)
	for i, k := range sc.Metadata().Keys() {
		kv.Append(k, sc.Metadata().Values()[i])
	}
	var buf bytes.Buffer
	iw := ipc.NewWriter(&buf, ipc.WithSchema(sc), ipc.WithAllocator(mem))
	if err := iw.Close(); err != nil {
		return nil, fmt.Errorf("serialising the Arrow schema: %w", err)
	}
	kv.Append("ARROW:schema", base64.StdEncoding.EncodeToString(buf.Bytes()))
	return kv, nil
}

// parquetSchema is the Parquet schema of sc: a required root group named by
// props, one primitive column per field, optional when the field is nullable.
func parquetSchema(sc *arrow.Schema, props *parquet.WriterProperties) (*schema.GroupNode, error) {
	fields := make(schema.FieldList, 0, sc.NumFields())
	for _, f := range sc.Fields() {
		typ, lt, err := parquetType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", f.Name, err)
		}
		rep := parquet.Repetitions.Required
		if f.Nullable {
			rep = parquet.Repetitions.Optional
		}
		n, err := schema.NewPrimitiveNodeLogical(f.Name, rep, lt, typ, -1, fieldID(f.Metadata))
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", f.Name, err)
		}
		fields = append(fields, n)
	}
	return schema.NewGroupNode(props.RootName(), props.RootRepetition(), fields, -1)
}

// parquetType is the physical and logical Parquet type of an Arrow type: integers
// narrower than 32 bits and uint32 widen to INT32 with their width and sign as
// logical type, strings are annotated STRING, binary not.
func parquetType(t arrow.DataType) (parquet.Type, schema.LogicalType, error) {
	switch t.ID() {
	case arrow.BOOL:
		return parquet.Types.Boolean, schema.NoLogicalType{}, nil
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.UINT8, arrow.UINT16, arrow.UINT32:
		return parquet.Types.Int32, schema.NewIntLogicalType(int8(t.(arrow.FixedWidthDataType).BitWidth()), isSigned(t.ID())), nil
	case arrow.INT64, arrow.UINT64:
		return parquet.Types.Int64, schema.NewIntLogicalType(64, isSigned(t.ID())), nil
	case arrow.FLOAT32:
		return parquet.Types.Float, schema.NoLogicalType{}, nil
	case arrow.FLOAT64:
		return parquet.Types.Double, schema.NoLogicalType{}, nil
	case arrow.STRING, arrow.LARGE_STRING:
		return parquet.Types.ByteArray, schema.StringLogicalType{}, nil
	case arrow.BINARY, arrow.LARGE_BINARY:
		return parquet.Types.ByteArray, schema.NoLogicalType{}, nil
	}
	return 0, nil, fmt.Errorf("Arrow type %s has no Parquet encoding in graphdp", t)
}

func isSigned(id arrow.Type) bool {
	return id == arrow.INT8 || id == arrow.INT16 || id == arrow.INT32 || id == arrow.INT64
}

// fieldID is the Parquet field id a field's "PARQUET:field_id" metadata sets, or
// -1 (none) when absent, malformed or negative.
func fieldID(m arrow.Metadata) int32 {
	i := m.FindKey("PARQUET:field_id")
	if i < 0 {
		return -1
	}
	id, err := strconv.ParseInt(m.Values()[i], 10, 32)
	if err != nil || id < 0 {
		return -1
	}
	return int32(id)
}
