package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// pqCol is one column of a test Parquet file: its Arrow type and its values
// as a JSON array (null allowed).
type pqCol struct {
	name string
	typ  arrow.DataType
	json string
}

// pqOpts controls how a test Parquet file is written.
type pqOpts struct {
	rowGroup int64             // rows per row group; 0 = one row group
	noDict   bool              // plain encoding instead of dictionary
	meta     map[string]string // the footer's key/value metadata
}

// writeParquet writes cols to dir/name and returns the path.
func writeParquet(tb testing.TB, dir, name string, o pqOpts, cols ...pqCol) string {
	tb.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(tb, 0)
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: c.typ, Nullable: strings.Contains(c.json, "null")}
		arrs[i] = arrayFromJSON(tb, mem, c.typ, c.json)
		defer arrs[i].Release()
	}
	var md *arrow.Metadata
	if o.meta != nil {
		m := arrow.MetadataFrom(o.meta)
		md = &m
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, md), arrs, int64(arrs[0].Len()))
	defer rec.Release()
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
	defer tbl.Release()
	rg := o.rowGroup
	if rg == 0 {
		rg = max(1, tbl.NumRows())
	}
	props := parquet.NewWriterProperties(
		parquet.WithAllocator(mem),
		parquet.WithDictionaryDefault(!o.noDict),
		parquet.WithMaxRowGroupLength(rg),
	)
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := pqarrow.WriteTable(tbl, f, rg, props, pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem))); err != nil {
		tb.Fatal(err)
	}
	return path
}

// arrayFromJSON builds an array; a dictionary type is built from its value type.
func arrayFromJSON(tb testing.TB, mem memory.Allocator, typ arrow.DataType, js string) arrow.Array {
	tb.Helper()
	if dt, ok := typ.(*arrow.DictionaryType); ok {
		plain := arrayFromJSON(tb, mem, dt.ValueType, js)
		defer plain.Release()
		b := array.NewDictionaryBuilder(mem, dt).(*array.BinaryDictionaryBuilder)
		defer b.Release()
		s := plain.(*array.String)
		for i := range s.Len() {
			if s.IsNull(i) {
				b.AppendNull()
			} else if err := b.AppendString(s.Value(i)); err != nil {
				tb.Fatal(err)
			}
		}
		return b.NewArray()
	}
	arr, _, err := array.FromJSON(mem, typ, strings.NewReader(js))
	if err != nil {
		tb.Fatalf("FromJSON %s %s: %v", typ, js, err)
	}
	return arr
}

// writeFile writes text to dir/name and returns the path.
func writeFile(tb testing.TB, dir, name, text string) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

func sha256File(tb testing.TB, path string) string {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// wantInputError asserts err is an *InputError with these fields and text.
func wantInputError(t *testing.T, err error, want InputError, text string) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error = %v (%T), want *InputError", err, err)
	}
	// Every reader names the kind (errors.Is); cases that state one must match it.
	got := *ie
	if got.Err == nil {
		t.Errorf("InputError %q has no kind (Err)", got.Msg)
	} else if want.Err != nil && !errors.Is(ie, want.Err) {
		t.Errorf("InputError %q: kind %v, want %v", got.Msg, got.Err, want.Err)
	}
	got.Err, want.Err = nil, nil
	if got != want {
		t.Errorf("InputError = %#v\nwant          %#v", got, want)
	}
	if got := ie.Error(); got != text {
		t.Errorf("Error() = %q\nwant       %q", got, text)
	}
}

var (
	i8   = arrow.PrimitiveTypes.Int8
	i32  = arrow.PrimitiveTypes.Int32
	i64  = arrow.PrimitiveTypes.Int64
	u32  = arrow.PrimitiveTypes.Uint32
	u64  = arrow.PrimitiveTypes.Uint64
	f32  = arrow.PrimitiveTypes.Float32
	f64  = arrow.PrimitiveTypes.Float64
	boo  = arrow.FixedWidthTypes.Boolean
	str  = arrow.BinaryTypes.String
	bin  = arrow.BinaryTypes.Binary
	lstr = arrow.BinaryTypes.LargeString
	dstr = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
)

var bg = context.Background()

var cols = DefaultColumns()

// asInputError fails t unless err is an *InputError (possibly wrapped; doc.go,
// invariant 5) naming file when file is not "", and returns it.
func asInputError(t *testing.T, err error, file string) *InputError {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v (%T) is not an *InputError", err, err)
	}
	if file != "" && ie.File != file {
		t.Fatalf("error names file %q, want %q", ie.File, file)
	}
	_ = ie.Error()
	return ie
}
