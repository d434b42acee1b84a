package pqdecode

import (
	"fmt"
	"runtime"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"golang.org/x/sync/errgroup"
)

// All decodes every column chunk of a Parquet file into reused buffers,
// row groups in parallel on every core.
func All(path string) error {
	rd, err := file.OpenParquetFile(path, false)
	if err != nil {
		return err
	}
	defer rd.Close()
	var eg errgroup.Group
	eg.SetLimit(runtime.GOMAXPROCS(0))
	for g := range rd.NumRowGroups() {
		eg.Go(func() error {
			rg := rd.RowGroup(g)
			for c := range rg.NumColumns() {
				cr, err := rg.Column(c)
				if err != nil {
					return err
				}
				err = column(cr)
				cr.Close()
				if err != nil {
					return fmt.Errorf("%s: row group %d, column %d: %w", path, g, c, err)
				}
			}
			return nil
		})
	}
	return eg.Wait()
}

// column reads a column chunk to its end.
func column(cr file.ColumnChunkReader) error {
	const batch = 1 << 16
	defs := make([]int16, batch)
	var (
		i64 []int64
		i32 []int32
		f64 []float64
		bo  []bool
		ba  []parquet.ByteArray
	)
	for cr.HasNext() {
		var n int64
		var err error
		switch r := cr.(type) {
		case *file.Int64ColumnChunkReader:
			if i64 == nil {
				i64 = make([]int64, batch)
			}
			n, _, err = r.ReadBatch(batch, i64, defs, nil)
		case *file.Int32ColumnChunkReader:
			if i32 == nil {
				i32 = make([]int32, batch)
			}
			n, _, err = r.ReadBatch(batch, i32, defs, nil)
		case *file.Float64ColumnChunkReader:
			if f64 == nil {
				f64 = make([]float64, batch)
			}
			n, _, err = r.ReadBatch(batch, f64, defs, nil)
		case *file.BooleanColumnChunkReader:
			if bo == nil {
				bo = make([]bool, batch)
			}
			n, _, err = r.ReadBatch(batch, bo, defs, nil)
		case *file.ByteArrayColumnChunkReader:
			if ba == nil {
				ba = make([]parquet.ByteArray, batch)
			}
			n, _, err = r.ReadBatch(batch, ba, defs, nil)
		default:
			return fmt.Errorf("unsupported reader %T", cr)
		}
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
	}
	return nil
}
