package pqcrc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// table is a small table with the column types graphdp writes: ids (int64 and
// string), a float64, a nullable int32 and a bool.
func table(t *testing.T, rows int) arrow.RecordBatch {
	t.Helper()
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "p_one", Type: arrow.PrimitiveTypes.Float64},
		{Name: "distance", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "in_hitting_set", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(i * 7))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("dataset-%d", i))
		b.Field(2).(*array.Float64Builder).Append(float64(i%97) / 97)
		if i%5 == 0 {
			b.Field(3).(*array.Int32Builder).AppendNull()
		} else {
			b.Field(3).(*array.Int32Builder).Append(int32(i % 13))
		}
		b.Field(4).(*array.BooleanBuilder).Append(i%3 == 0)
	}
	return b.NewRecordBatch()
}

// write writes rec with arrow-go, through a Writer when crc is set.
func write(t *testing.T, rec arrow.RecordBatch, rowGroup int64, dict, crc bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w interface {
		Write([]byte) (int, error)
	} = &buf
	var cw *Writer
	if crc {
		cw = NewWriter(&buf)
		w = cw
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDictionaryDefault(dict),
		parquet.WithMaxRowGroupLength(rowGroup), parquet.WithDataPageSize(512), parquet.WithStats(true))
	fw, err := pqarrow.NewFileWriter(rec.Schema(), w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	if cw != nil {
		if err := cw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// readTable reads a whole file with arrow-go.
func readTable(t *testing.T, data []byte) arrow.Table {
	t.Helper()
	rd, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// chunks lists a file's column chunks as its footer gives them (arrow-go reads it).
func chunks(t *testing.T, data []byte) []Chunk {
	t.Helper()
	rd, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var cs []Chunk
	for g := range rd.NumRowGroups() {
		rg := rd.MetaData().RowGroup(g)
		for c := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			start := cc.DataPageOffset()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
				start = cc.DictionaryPageOffset()
			}
			cs = append(cs, Chunk{Start: start, End: start + cc.TotalCompressedSize(), Column: cc.PathInSchema().String(), RowGroup: g})
		}
	}
	return cs
}

// pages walks every page of every chunk with the decoder: header offset, header
// length, and the page's bytes.
type page struct {
	at, hdr int64
	h       value
	body    []byte
}

func pages(t *testing.T, data []byte, cs []Chunk) []page {
	t.Helper()
	var ps []page
	for _, c := range cs {
		for at := c.Start; at < c.End; {
			d := decoder{b: data[at:c.End]}
			h, err := d.structure()
			if err != nil {
				t.Fatalf("page header at %d: %v", at, err)
			}
			n := h.get(pageCompressed).i
			ps = append(ps, page{at, int64(d.pos), h, data[at+int64(d.pos) : at+int64(d.pos)+n]})
			at += int64(d.pos) + n
		}
	}
	return ps
}

// Through a Writer, arrow-go's file reads back to the same table (so every offset
// and size of the footer was moved right), every page header carries the CRC-32 of
// its page's bytes, and nothing else changed: the page bodies and the file without
// the crc fields are arrow-go's bytes.
func TestWriterAddsChecksums(t *testing.T) {
	for _, c := range []struct {
		rows, rowGroup int
		dict           bool
	}{{0, 1, false}, {1, 1, false}, {1000, 1000, false}, {1000, 64, false}, {3000, 700, true}, {5000, 5000, true}} {
		t.Run(fmt.Sprintf("%d rows, row groups of %d, dictionary %v", c.rows, c.rowGroup, c.dict), func(t *testing.T) {
			rec := table(t, c.rows)
			defer rec.Release()
			plain := write(t, rec, int64(c.rowGroup), c.dict, false)
			withCRC := write(t, rec, int64(c.rowGroup), c.dict, true)
			// Reads back equal to arrow-go's own file.
			got, want := readTable(t, withCRC), readTable(t, plain)
			if !array.TableEqual(got, want) || got.NumRows() != int64(c.rows) {
				t.Errorf("the table read back differs from arrow-go's file's")
			}
			got.Release()
			want.Release()
			// Every page has its checksum; without the crc fields the pages are arrow-go's.
			pc, pp := pages(t, withCRC, chunks(t, withCRC)), pages(t, plain, chunks(t, plain))
			if len(pc) != len(pp) {
				t.Fatalf("%d pages, arrow-go wrote %d", len(pc), len(pp))
			}
			for i, p := range pc {
				crc := p.h.get(pageCRC)
				if crc == nil || uint32(crc.i) != crc32.ChecksumIEEE(p.body) {
					t.Errorf("page %d at %d: crc %v, want %08x", i, p.at, crc, crc32.ChecksumIEEE(p.body))
				}
				h := p.h
				h.fields = append([]field(nil), h.fields...)
				for j := range h.fields {
					if h.fields[j].id == pageCRC {
						h.fields = append(h.fields[:j], h.fields[j+1:]...)
						break
					}
				}
				var e encoder
				e.structure(h)
				if !bytes.Equal(e.b, plain[pp[i].at:pp[i].at+pp[i].hdr]) || !bytes.Equal(p.body, pp[i].body) {
					t.Errorf("page %d differs from arrow-go's beyond the crc field", i)
				}
			}
			if err := check(withCRC); err != nil {
				t.Errorf("Checker on the file written: %v", err)
			}
		})
	}
}

// check runs a Checker over data in reads of 1000 bytes.
func check(data []byte) error {
	rd, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	var cs []Chunk
	for g := range rd.NumRowGroups() {
		rg := rd.MetaData().RowGroup(g)
		for c := range rg.NumColumns() {
			cc, _ := rg.ColumnChunk(c)
			start := cc.DataPageOffset()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
				start = cc.DictionaryPageOffset()
			}
			cs = append(cs, Chunk{Start: start, End: start + cc.TotalCompressedSize(), Column: cc.PathInSchema().String(), RowGroup: g})
		}
	}
	rd.Close()
	ch := NewChecker(cs)
	for off := 0; off < len(data); off += 1000 {
		if _, err := ch.Write(data[off:min(off+1000, len(data))]); err != nil {
			return err
		}
	}
	return ch.Close()
}

// A flipped bit anywhere in a page's bytes is a Mismatch naming the chunk and the
// page; arrow-go's own file, without checksums, passes (nothing to check).
func TestCheckerFindsEveryFlip(t *testing.T) {
	rec := table(t, 400)
	defer rec.Release()
	data := write(t, rec, 150, false, true)
	cs := chunks(t, data)
	ps := pages(t, data, cs)
	if len(ps) < 10 {
		t.Fatalf("only %d pages", len(ps))
	}
	flips := 0
	for _, p := range ps {
		body := p.at + p.hdr
		for off := body; off < body+int64(len(p.body)); off += max(1, int64(len(p.body))/7) {
			bad := bytes.Clone(data)
			bad[off] ^= 0x10
			err := check(bad)
			var m *Mismatch
			if !errors.As(err, &m) || m.Page != p.at || !bytes.Contains([]byte(m.Msg), []byte("checksum mismatch")) {
				t.Errorf("flip at %d (page at %d): %v", off, p.at, err)
			}
			flips++
		}
	}
	if err := check(write(t, rec, 150, false, false)); err != nil {
		t.Errorf("a file without checksums: %v", err)
	}
	t.Logf("%d flips in %d pages", flips, len(ps))
}

// The codec re-encodes arrow-go's footer byte for byte (doc.go, invariant 2).
func TestRoundTrip(t *testing.T) {
	rec := table(t, 3000)
	defer rec.Release()
	for _, dict := range []bool{false, true} {
		data := write(t, rec, 700, dict, false)
		n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
		footer := data[len(data)-8-n : len(data)-8]
		d := decoder{b: footer}
		v, err := d.structure()
		if err != nil || d.pos != n {
			t.Fatalf("footer: %v at %d of %d", err, d.pos, n)
		}
		var e encoder
		e.structure(v)
		if !bytes.Equal(e.b, footer) {
			t.Errorf("dictionary %v: the footer re-encodes differently", dict)
		}
	}
}
