package main

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/pqdecode"
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
		if err := pqdecode.All(in); err != nil {
			return err
		}
	}
	return sink.Write(context.Background(), scratch, rec, meta)
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
