package sink

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

var testMeta = map[string]string{
	"graphdp.epsilon": "0.5",
	"graphdp.source":  "nightly,2024",
	"a":               "",
	"z\nkey":          "multi\nline ü",
}

// writeTest writes rec with a checked allocator for the writer too, so leaks
// inside the format encoders are caught by the caller's AssertSize.
func writeTest(t *testing.T, mem memory.Allocator, path string, rec arrow.RecordBatch, meta map[string]string, sliceRows int64) {
	t.Helper()
	cfg := defaultConfig()
	cfg.mem = mem
	if sliceRows > 0 {
		cfg.sliceRows = sliceRows
	}
	if err := writeRecord(context.Background(), path, rec, meta, cfg); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
}

// assertSameFields compares names, types and nullability; readers may add
// field metadata (Parquet adds PARQUET:field_id).
func assertSameFields(t *testing.T, got, want *arrow.Schema) {
	t.Helper()
	if got.NumFields() != want.NumFields() {
		t.Fatalf("schema read back has %d fields, want %d:\n%s", got.NumFields(), want.NumFields(), got)
	}
	for i, g := range got.Fields() {
		w := want.Field(i)
		if g.Name != w.Name || !arrow.TypeEqual(g.Type, w.Type) || g.Nullable != w.Nullable {
			t.Errorf("field %d read back as %s %s nullable=%v, want %s %s nullable=%v",
				i, g.Name, g.Type, g.Nullable, w.Name, w.Type, w.Nullable)
		}
	}
}

func TestRoundTripParquet(t *testing.T) {
	// Slice size 3 splits the 8 rows over three row groups, so the reader
	// must stitch them back in order.
	for _, sliceRows := range []int64{0, 3} {
		t.Run(fmt.Sprintf("sliceRows=%d", sliceRows), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := newAllKinds(t, mem)
			defer rec.Release()
			path := filepath.Join(t.TempDir(), "out.parquet")
			writeTest(t, mem, path, rec, testMeta, sliceRows)

			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			pr, err := file.NewParquetReader(f, file.WithReadProps(parquet.NewReaderProperties(mem)))
			if err != nil {
				t.Fatal(err)
			}
			defer pr.Close()
			md := pr.MetaData()
			if got := md.GetCreatedBy(); got != createdBy {
				t.Errorf("created_by = %q, want %q", got, createdBy)
			}
			wantGroups := 1
			if sliceRows == 3 {
				wantGroups = 3
			}
			if got := md.NumRowGroups(); got != wantGroups {
				t.Errorf("row groups = %d, want %d", got, wantGroups)
			}
			kv := md.KeyValueMetadata()
			var keys []string
			for i := range kv.Keys() {
				keys = append(keys, kv.Keys()[i])
			}
			// Caller's keys sorted, then pqarrow's stored schema.
			wantKeys := []string{"a", "graphdp.epsilon", "graphdp.source", "z\nkey", "ARROW:schema"}
			if !reflect.DeepEqual(keys, wantKeys) {
				t.Errorf("key_value_metadata keys = %q, want %q", keys, wantKeys)
			}
			for k, v := range testMeta {
				if got := kv.FindValue(k); got == nil || *got != v {
					t.Errorf("metadata %q = %v, want %q", k, got, v)
				}
			}

			fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{}, mem)
			if err != nil {
				t.Fatal(err)
			}
			tbl, err := fr.ReadTable(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer tbl.Release()
			assertSameFields(t, tbl.Schema(), rec.Schema())
			if got, want := canonTable(tbl), canonRecord(rec); !reflect.DeepEqual(got, want) {
				t.Errorf("values read back differ:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestRoundTripArrowIPC(t *testing.T) {
	for _, name := range []string{"out.arrow", "out.feather"} {
		t.Run(name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := newAllKinds(t, mem)
			defer rec.Release()
			path := filepath.Join(t.TempDir(), name)
			writeTest(t, mem, path, rec, testMeta, 3)

			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			md := r.Schema().Metadata()
			got := map[string]string{}
			for i, k := range md.Keys() {
				got[k] = md.Values()[i]
			}
			if !reflect.DeepEqual(got, testMeta) {
				t.Errorf("schema metadata = %q, want %q", got, testMeta)
			}
			if !sortedStrings(md.Keys()) {
				t.Errorf("schema metadata keys not sorted: %q", md.Keys())
			}
			assertSameFields(t, r.Schema(), rec.Schema())
			if r.NumRecords() != 3 {
				t.Errorf("record batches = %d, want 3", r.NumRecords())
			}
			var recs []arrow.RecordBatch
			for i := range r.NumRecords() {
				b, err := r.RecordBatch(i)
				if err != nil {
					t.Fatal(err)
				}
				b.Retain() // valid only until the next RecordBatch call otherwise
				defer b.Release()
				recs = append(recs, b)
			}
			tbl := array.NewTableFromRecords(r.Schema(), recs)
			defer tbl.Release()
			if got, want := canonTable(tbl), canonRecord(rec); !reflect.DeepEqual(got, want) {
				t.Errorf("values read back differ:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func sortedStrings(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] > s[i] {
			return false
		}
	}
	return true
}

// canonCSV parses one CSV field as the column's type and renders it like canon.
// encoding/csv reads a null and an empty string alike, so for string columns
// "" is compared as null-or-empty (see TestCSVEmptyStringQuoted).
func canonCSV(t *testing.T, dt arrow.DataType, s string) string {
	t.Helper()
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING:
		if s == "" {
			return "null-or-empty"
		}
		return fmt.Sprintf("s:%q", s)
	}
	if s == "" {
		return "null"
	}
	switch dt.ID() {
	case arrow.FLOAT64:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("float64 field %q: %v", s, err)
		}
		return fmt.Sprintf("f64:%016x", math.Float64bits(v))
	case arrow.FLOAT32:
		v, err := strconv.ParseFloat(s, 32)
		if err != nil {
			t.Fatalf("float32 field %q: %v", s, err)
		}
		return fmt.Sprintf("f32:%08x", math.Float32bits(float32(v)))
	}
	return s
}

func TestRoundTripCSV(t *testing.T) {
	for _, sliceRows := range []int64{0, 3} {
		t.Run(fmt.Sprintf("sliceRows=%d", sliceRows), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := newAllKinds(t, mem)
			defer rec.Release()
			path := filepath.Join(t.TempDir(), "out.CSV")
			writeTest(t, mem, path, rec, testMeta, sliceRows)

			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			sc := rec.Schema()
			var header []string
			for _, f := range sc.Fields() {
				header = append(header, f.Name)
			}
			if !reflect.DeepEqual(rows[0], header) {
				t.Fatalf("header = %q, want %q", rows[0], header)
			}
			if len(rows)-1 != int(rec.NumRows()) {
				t.Fatalf("%d data rows, want %d", len(rows)-1, rec.NumRows())
			}
			want := canonRecord(rec)
			for j, f := range sc.Fields() {
				for i, row := range rows[1:] {
					got := canonCSV(t, f.Type, row[j])
					w := want[j][i]
					if got == "null-or-empty" && (w == "null" || w == `s:""`) {
						continue
					}
					if got != w {
						t.Errorf("row %d column %q: CSV %q reads as %s, want %s", i, f.Name, row[j], got, w)
					}
				}
			}
		})
	}
}

// TestCSVQuotingMatchesEncodingCSV checks appendCSVString against the standard
// library's writer, the rules the contract names, for every non-empty string.
func TestCSVQuotingMatchesEncodingCSV(t *testing.T) {
	for _, s := range append(awkwardStrings, "\tx", "x ", "a\"", "\u00a0nbsp", "#hash", "tab\tin") {
		if s == "" {
			continue
		}
		var want strings.Builder
		w := csv.NewWriter(&want)
		if err := w.Write([]string{s}); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if got := string(appendCSVString(nil, s)) + "\n"; got != want.String() {
			t.Errorf("appendCSVString(%q) = %q, encoding/csv writes %q", s, got, want.String())
		}
	}
}

// TestCSVEmptyStringQuoted: a non-null empty string is `""` and a null is
// nothing, so warehouse loaders that distinguish them can.
func TestCSVEmptyStringQuoted(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.AppendValues([]string{"", "x"}, []bool{true, true})
	b.AppendNull()
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil), []arrow.Array{col}, 3)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "s.csv")
	writeTest(t, mem, path, rec, nil, 0)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(raw), "s\n\"\"\nx\n\n"; got != want {
		t.Errorf("CSV = %q, want %q", got, want)
	}
}

// TestEmptyRecord: zero rows still give a readable file with the schema.
func TestEmptyRecord(t *testing.T) {
	for _, ext := range allExts {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		full := newVertexTable(t, mem, 3)
		rec := full.NewSlice(0, 0)
		full.Release()
		path := filepath.Join(t.TempDir(), "e"+ext)
		writeTest(t, mem, path, rec, testMeta, 0)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var rows int64
		switch ext {
		case ".parquet":
			tbl, err := pqarrow.ReadTable(context.Background(), f, nil, pqarrow.ArrowReadProperties{}, mem)
			if err != nil {
				t.Fatalf("%s: %v", ext, err)
			}
			assertSameFields(t, tbl.Schema(), rec.Schema())
			rows = tbl.NumRows()
			tbl.Release()
		case ".arrow":
			r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
			if err != nil {
				t.Fatalf("%s: %v", ext, err)
			}
			assertSameFields(t, r.Schema(), rec.Schema())
			rows = int64(r.NumRecords())
			r.Close()
		case ".csv":
			all, err := csv.NewReader(f).ReadAll()
			if err != nil || len(all) != 1 || len(all[0]) != 7 {
				t.Errorf("%s: %q, %v; want just the header", ext, all, err)
			}
		}
		f.Close()
		if rows != 0 {
			t.Errorf("%s: read back %d rows/batches, want 0", ext, rows)
		}
		rec.Release()
		mem.AssertSize(t, 0)
	}
}
