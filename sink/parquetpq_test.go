package sink

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/graphdp/graphdp/internal/pqcrc"
)

// pqarrowBytes is the file graphdp wrote through pqarrow before writeParquet drove
// parquet/file itself (pqarrow links gRPC: PERFORMANCE.md, "Build time"): the same
// properties, the stored Arrow schema, one Write per slice.
func pqarrowBytes(t *testing.T, rec arrow.RecordBatch, md arrow.Metadata, cfg config) []byte {
	t.Helper()
	var buf bytes.Buffer
	cw := pqcrc.NewWriter(&buf)
	arrProps := pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(cfg.mem), pqarrow.WithStoreSchema())
	fw, err := pqarrow.NewFileWriter(withMetadata(rec.Schema(), md), cw, parquetProperties(cfg), arrProps)
	if err != nil {
		t.Fatal(err)
	}
	err = forEachSlice(context.Background(), oneBatch(rec), cfg, false, fw.Write)
	if err := errors.Join(err, fw.Close(), cw.Close()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// newEdgeColumns has the column shapes newAllKinds lacks: binary, large binary,
// a nullable column without nulls, one all null, and strings all empty (their
// value buffer holds no byte).
func newEdgeColumns(t *testing.T, mem memory.Allocator, n int) arrow.RecordBatch {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "bin", Type: arrow.BinaryTypes.Binary},
		{Name: "lbin", Type: arrow.BinaryTypes.LargeBinary, Nullable: true},
		{Name: "full", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "none", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "fullbool", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "empty", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "emptyreq", Type: arrow.BinaryTypes.String},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.BinaryBuilder).Append([]byte(fmt.Sprint(i*7919%1000, "\x00\xff")))
		if i%5 == 2 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.BinaryBuilder).Append([]byte(fmt.Sprint("x", i%13)))
		}
		b.Field(2).(*array.Int64Builder).Append(int64(i) * 3)
		b.Field(3).AppendNull()
		b.Field(4).(*array.BooleanBuilder).Append(i%7 < 3)
		if i%4 == 0 {
			b.Field(5).AppendNull()
		} else {
			b.Field(5).(*array.StringBuilder).Append("")
		}
		b.Field(6).(*array.StringBuilder).Append("")
	}
	return b.NewRecordBatch()
}

// TestParquetMatchesPqarrow: writeParquet writes, byte for byte, what pqarrow
// v18.8.0 wrote with the same properties (the files graphdp wrote through pqarrow
// and the golden outputs of internal/cli): every column type Write supports,
// nulls, row groups cut at slice boundaries within a batch (non-zero array
// offsets), several pages per column chunk, metadata, and no rows at all.
func TestParquetMatchesPqarrow(t *testing.T) {
	md := arrow.MetadataFrom(map[string]string{"graphdp.version": "test", "a": "1", "z": "last"})
	cases := []struct {
		name  string
		make  func(memory.Allocator) arrow.RecordBatch
		slice int64
	}{
		{"allkinds", func(m memory.Allocator) arrow.RecordBatch { return newAllKinds(t, m) }, RowGroupRows},
		{"allkinds/slices3", func(m memory.Allocator) arrow.RecordBatch { return newAllKinds(t, m) }, 3},
		{"edges", func(m memory.Allocator) arrow.RecordBatch { return newEdgeColumns(t, m, 5000) }, 1777},
		{"vertices/pages", func(m memory.Allocator) arrow.RecordBatch { return newVertexTable(t, m, 300_000) }, 200_000},
		{"empty", func(m memory.Allocator) arrow.RecordBatch {
			r := newVertexTable(t, m, 3)
			defer r.Release()
			return r.NewSlice(0, 0)
		}, RowGroupRows},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := c.make(mem)
			defer rec.Release()
			cfg := config{mem: mem, sliceRows: c.slice}
			want := pqarrowBytes(t, rec, md, cfg)
			var got bytes.Buffer
			if err := writeParquet(context.Background(), &got, oneBatch(rec), md, cfg); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				i := 0
				for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
					i++
				}
				t.Fatalf("%d bytes, pqarrow wrote %d; first difference at byte %d", got.Len(), len(want), i)
			}
		})
	}
}
