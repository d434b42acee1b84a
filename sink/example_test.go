package sink_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/sink"
)

// Write picks the format from the extension and replaces the file atomically:
// a reader of out.csv sees the old file or the new one, never part of one.
func ExampleWrite() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.BinaryTypes.String},
		{Name: "p_one", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{0.25, 0.1}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()

	dir, _ := os.MkdirTemp("", "sink-example")
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "out.csv")
	if err := sink.Write(context.Background(), out, rec, nil); err != nil {
		fmt.Println(err)
	}
	data, _ := os.ReadFile(out)
	fmt.Print(string(data))
	entries, _ := os.ReadDir(dir)
	fmt.Println(len(entries), "file in the folder")
	// Output:
	// id,p_one
	// a,0.25
	// b,0.1
	// 1 file in the folder
}
