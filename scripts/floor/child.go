package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/sink"
)

// floorChild is the floor process: it loads table, prints how long that took,
// then reads every column of ins and writes the table to scratch.
func floorChild(table string, ins []string, scratch string) error {
	start := time.Now()
	rec, meta, err := readRecord(table)
	if err != nil {
		return err
	}
	defer rec.Release()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	fmt.Println(time.Since(start).Seconds(), cpu.Seconds())
	for _, in := range ins {
		if err := decodeAll(in); err != nil {
			return err
		}
	}
	return sink.Write(context.Background(), scratch, rec, meta)
}

// decodeAll decodes every column chunk of a Parquet file into reused buffers,
// row groups in parallel on every core.
func decodeAll(path string) error {
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
				err = decodeColumn(cr)
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

// decodeColumn reads a column chunk to its end.
func decodeColumn(cr file.ColumnChunkReader) error {
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

// readRecord reads a whole Parquet file as one record batch, with the file's
// key-value metadata.
func readRecord(path string) (arrow.RecordBatch, map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	rd, err := file.NewParquetReader(f)
	if err != nil {
		return nil, nil, err
	}
	defer rd.Close()
	meta := map[string]string{}
	kv := rd.MetaData().KeyValueMetadata()
	for i, k := range kv.Keys() {
		if k == "ARROW:schema" {
			continue // pqarrow writes its own
		}
		meta[k] = kv.Values()[i]
	}
	mem := memory.NewGoAllocator()
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{Parallel: true}, mem)
	if err != nil {
		return nil, nil, err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, nil, err
	}
	defer tbl.Release()
	cols := make([]arrow.Array, tbl.NumCols())
	for i := range cols {
		cols[i], err = array.Concatenate(tbl.Column(i).Data().Chunks(), mem)
		if err != nil {
			return nil, nil, err
		}
		defer cols[i].Release()
	}
	// The schema without the file's metadata: sink.Write writes meta itself.
	schema := arrow.NewSchema(tbl.Schema().Fields(), nil)
	return array.NewRecordBatch(schema, cols, tbl.NumRows()), meta, nil
}
