package sink

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// WriteCSVTo gives the bytes Write puts in a .csv file.
func TestWriteCSVToMatchesWrite(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.BinaryTypes.String},
		{Name: "p", Type: arrow.PrimitiveTypes.Float64},
		{Name: "d", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"a", "", "c,d"}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0.1, 1.0 / 3, 1}, nil)
	b.Field(2).(*array.Int32Builder).AppendValues([]int32{1, 0, 2}, []bool{true, false, true})
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := Write(context.Background(), path, rec, nil); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(path)
	var got bytes.Buffer
	if err := WriteCSVTo(context.Background(), &got, rec); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("WriteCSVTo:\n%s\nWrite:\n%s", got.Bytes(), want)
	}
}
