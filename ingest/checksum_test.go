package ingest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/graphdp/graphdp/internal/pqcrc"
)

// writeParquetCRC writes cols as graphdp's sink does (snappy, plain pages, page
// checksums through pqcrc.Writer), in row groups of rowGroup rows.
func writeParquetCRC(t testing.TB, path string, rowGroup int64, cols ...pqCol) {
	t.Helper()
	mem := memory.NewGoAllocator()
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: c.typ}
		arrs[i] = arrayFromJSON(t, mem, c.typ, c.json)
		defer arrs[i].Release()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(arrs[0].Len()))
	defer rec.Release()
	var buf bytes.Buffer
	cw := pqcrc.NewWriter(&buf)
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDictionaryDefault(false),
		parquet.WithMaxRowGroupLength(rowGroup))
	fw, err := pqarrow.NewFileWriter(rec.Schema(), cw, props, pqarrow.NewArrowWriterProperties())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// flipLastPageByte flips a bit of the last byte of column col's chunk in row group
// g: the last byte of its last page's bytes.
func flipLastPageByte(t *testing.T, path string, g, col int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	cc, err := rd.MetaData().RowGroup(g).ColumnChunk(col)
	if err != nil {
		t.Fatal(err)
	}
	end := cc.DataPageOffset() + cc.TotalCompressedSize()
	rd.Close()
	data[end-1] ^= 0x04
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Without page CRCs a flipped byte inside a Parquet page reads back as a wrong value.
// graphdp's files have checksums (sink, through pqcrc.Writer), and every reader checks
// the pages of a file that has them, in the hashing read it already makes: vertices and
// hitting sets (a read of their own), the edges (the build's folded read, and the
// fallback read for large row groups).
func TestPageChecksumsChecked(t *testing.T) {
	dir := t.TempDir()
	vpath := filepath.Join(dir, "v.parquet")
	writeParquetCRC(t, vpath, 3, pqCol{"id", i64, `[1,2,3,4,5,6,7,8]`}, pqCol{"answer", i64, `[1,0,1,0,1,0,1,0]`})
	vs, err := ReadVertices(bg, vpath, cols)
	if err != nil {
		t.Fatalf("an undamaged file: %v", err)
	}
	epath := filepath.Join(dir, "e.parquet")
	writeParquetCRC(t, epath, 2, pqCol{"src", i64, `[1,2,3,4,5,6,7]`}, pqCol{"dst", i64, `[2,3,4,5,6,7,8]`})
	if _, err := ReadEdges(bg, epath, cols, vs); err != nil {
		t.Fatalf("undamaged edges: %v", err)
	}
	hpath := filepath.Join(dir, "h.parquet")
	writeParquetCRC(t, hpath, 2, pqCol{"id", i64, `[1,4,6]`}, pqCol{"p_true", f64, `[0.75,0.5,0.625]`})
	if _, err := ReadHittingSet(bg, hpath, cols, vs); err != nil {
		t.Fatalf("undamaged hitting set: %v", err)
	}
	wantDamaged := func(t *testing.T, err error, path, column string) {
		t.Helper()
		var ie *InputError
		if !errors.As(err, &ie) || ie.File != path || ie.Column != column || !errors.Is(err, ErrUnreadable) ||
			!strings.Contains(ie.Msg, "checksum mismatch") || !strings.HasSuffix(ie.Msg, "the file is damaged; nothing read") {
			t.Errorf("error %v, want a checksum mismatch in column %q of %s", err, column, path)
		}
	}
	// The last answer (row group 2, rows 7–8: answers 1, 0) and the last p_true: a
	// flip there reads back as another valid value without the checksum.
	flipLastPageByte(t, vpath, 2, 1)
	_, err = ReadVertices(bg, vpath, cols)
	wantDamaged(t, err, vpath, "answer")

	flipLastPageByte(t, hpath, 1, 1)
	_, err = ReadHittingSet(bg, hpath, cols, vs)
	wantDamaged(t, err, hpath, "p_true")

	flipLastPageByte(t, epath, 1, 0)
	_, err = ReadEdges(bg, epath, cols, vs)
	wantDamaged(t, err, epath, "src")
	// The stream: the build's read hashes and checks the row groups it reads.
	es, err := OpenEdges(bg, epath, cols, vs)
	if err != nil {
		t.Fatal(err)
	}
	err = es.Scan(bg, func(int, []int32, []int32) error { return nil })
	if err == nil {
		_, err = es.Fingerprint()
	}
	es.Close()
	wantDamaged(t, err, epath, "src")
}
