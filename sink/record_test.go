package sink

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// extremeFloats are the float64 values every format must return bit for bit:
// the probability bounds 0 and 1, the smallest subnormal, sums whose shortest
// decimal form is long, negative zero, NaN and the largest finite value.
var extremeFloats = []float64{0, 1, 5e-324, 0.1 + 0.2, 1 - 1e-16, math.Copysign(0, -1), math.NaN(), math.MaxFloat64}

// awkwardStrings need quoting in CSV (or look like they might).
var awkwardStrings = []string{"plain", "", "a,b", `say "hi"`, "line\nbreak", " lead", `\.`, "ünïcode\r"}

// newAllKinds builds a record with a column of every type Write supports, nulls
// in the nullable ones, and the extreme floats. The caller releases it.
func newAllKinds(t testing.TB, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	n := len(extremeFloats)
	null := func(i int) bool { return i%3 == 1 } // rows 1, 4, 7
	fields := []arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "sid", Type: arrow.BinaryTypes.String},
		{Name: "lsid", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "answer", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32},
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16},
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "p_true", Type: arrow.PrimitiveTypes.Float64},
		{Name: "p_one", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "in_hitting_set", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "binding_id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "binding_distance", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append([]int64{math.MinInt64, math.MaxInt64, 0, -1, 1, 42, -42, 7}[i])
		b.Field(1).(*array.StringBuilder).Append(awkwardStrings[i])
		if null(i) {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.LargeStringBuilder).Append(awkwardStrings[n-1-i])
		}
		b.Field(3).(*array.BooleanBuilder).Append(i%2 == 0)
		if null(i) {
			b.Field(4).AppendNull()
		} else {
			b.Field(4).(*array.Int8Builder).Append([]int8{math.MinInt8, math.MaxInt8, 0, -1, 1, 2, 3, 4}[i])
		}
		b.Field(5).(*array.Int16Builder).Append([]int16{math.MinInt16, math.MaxInt16, 0, -1, 1, 2, 3, 4}[i])
		b.Field(6).(*array.Int32Builder).Append([]int32{math.MinInt32, math.MaxInt32, 0, -1, 1, 2, 3, 4}[i])
		b.Field(7).(*array.Uint8Builder).Append([]uint8{0, math.MaxUint8, 1, 2, 3, 4, 5, 6}[i])
		b.Field(8).(*array.Uint16Builder).Append([]uint16{0, math.MaxUint16, 1, 2, 3, 4, 5, 6}[i])
		b.Field(9).(*array.Uint32Builder).Append([]uint32{0, math.MaxUint32, 1, 2, 3, 4, 5, 6}[i])
		b.Field(10).(*array.Uint64Builder).Append([]uint64{0, math.MaxUint64, 1 << 63, 2, 3, 4, 5, 6}[i])
		if null(i) {
			b.Field(11).AppendNull()
		} else {
			b.Field(11).(*array.Float32Builder).Append(float32(extremeFloats[i]))
		}
		b.Field(12).(*array.Float64Builder).Append(extremeFloats[i])
		if null(i) {
			b.Field(13).AppendNull()
		} else {
			b.Field(13).(*array.Float64Builder).Append(extremeFloats[n-1-i])
		}
		if null(i) {
			b.Field(14).AppendNull()
		} else {
			b.Field(14).(*array.BooleanBuilder).Append(i%4 == 0)
		}
		if null(i) {
			b.Field(15).AppendNull()
			b.Field(16).AppendNull()
		} else {
			b.Field(15).(*array.Int64Builder).Append(int64(n - i))
			b.Field(16).(*array.Int32Builder).Append(int32(i))
		}
	}
	return b.NewRecordBatch()
}

// newVertexTable builds n rows of the shape graphdp writes, from a fixed seed.
// The caller releases it.
func newVertexTable(t testing.TB, mem memory.Allocator, n int) arrow.RecordBatch {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "answer", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "p_true", Type: arrow.PrimitiveTypes.Float64},
		{Name: "p_one", Type: arrow.PrimitiveTypes.Float64},
		{Name: "in_hitting_set", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "binding_id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "binding_distance", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for _, f := range b.Fields() {
		f.Reserve(n)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		b.Field(0).(*array.Int64Builder).UnsafeAppend(int64(i))
		b.Field(1).(*array.BooleanBuilder).UnsafeAppend(i%3 == 0)
		p := rng.Float64()
		b.Field(2).(*array.Float64Builder).UnsafeAppend(p)
		b.Field(3).(*array.Float64Builder).UnsafeAppend(1 - p/2)
		b.Field(4).(*array.BooleanBuilder).UnsafeAppend(rng.IntN(10) == 0)
		if i%4 == 0 {
			b.Field(5).UnsafeAppendBoolToBitmap(false)
			b.Field(6).UnsafeAppendBoolToBitmap(false)
		} else {
			b.Field(5).(*array.Int64Builder).UnsafeAppend(int64(rng.IntN(n)))
			b.Field(6).(*array.Int32Builder).UnsafeAppend(int32(rng.IntN(12)))
		}
	}
	return b.NewRecordBatch()
}

// canon renders row i of arr so that equal strings mean equal values: floats
// by their bits, nulls as "null".
func canon(arr arrow.Array, i int) string {
	if arr.IsNull(i) {
		return "null"
	}
	switch a := arr.(type) {
	case *array.Float32:
		return fmt.Sprintf("f32:%08x", math.Float32bits(a.Value(i)))
	case *array.Float64:
		return fmt.Sprintf("f64:%016x", math.Float64bits(a.Value(i)))
	case *array.String:
		return fmt.Sprintf("s:%q", a.Value(i))
	case *array.LargeString:
		return fmt.Sprintf("s:%q", a.Value(i))
	}
	return arr.ValueStr(i)
}

// canonTable renders every cell of rec, column by column.
func canonRecord(rec arrow.RecordBatch) [][]string {
	out := make([][]string, rec.NumCols())
	for j, col := range rec.Columns() {
		for i := range col.Len() {
			out[j] = append(out[j], canon(col, i))
		}
	}
	return out
}

// canonTable renders every cell of tbl, column by column, across chunks.
func canonTable(tbl arrow.Table) [][]string {
	out := make([][]string, tbl.NumCols())
	for j := range int(tbl.NumCols()) {
		for _, chunk := range tbl.Column(j).Data().Chunks() {
			for i := range chunk.Len() {
				out[j] = append(out[j], canon(chunk, i))
			}
		}
	}
	return out
}
