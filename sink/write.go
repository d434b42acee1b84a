package sink

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// RowGroupRows is the fixed number of rows per Parquet row group and per Arrow
// IPC record batch; records are also written to CSV in slices of this size.
const RowGroupRows = 1 << 20

// config holds what Write fixes and tests vary.
type config struct {
	mem       memory.Allocator
	sliceRows int64
	// afterSlice, if set, runs after each slice of rows has been handed to the
	// encoder; an error from it aborts the write. A test seam.
	afterSlice func(rowsDone int64) error
}

func defaultConfig() config {
	return config{mem: memory.DefaultAllocator, sliceRows: RowGroupRows}
}

// Write writes rec to path in the format named by path's extension, with meta as
// file-level key/value metadata, atomically and deterministically: see doc.go.
// meta replaces rec's own schema metadata; CSV stores neither. Keys starting
// with "ARROW:" are reserved by Arrow and rejected.
func Write(ctx context.Context, path string, rec arrow.RecordBatch, meta map[string]string) error {
	return writeRecord(ctx, path, rec, meta, defaultConfig())
}

func writeRecord(ctx context.Context, path string, rec arrow.RecordBatch, meta map[string]string, cfg config) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	md, err := sortedMetadata(meta)
	if err != nil {
		return fmt.Errorf("sink: %s: %w", path, err)
	}
	var encode func(w io.Writer) error
	switch format {
	case Parquet:
		encode = func(w io.Writer) error { return writeParquet(ctx, w, rec, md, cfg) }
	case ArrowIPC:
		encode = func(w io.Writer) error { return writeIPC(ctx, w, rec, md, cfg) }
	case CSV:
		if err := checkCSVSchema(rec.Schema()); err != nil {
			return fmt.Errorf("sink: %s: %w", path, err)
		}
		encode = func(w io.Writer) error { return writeCSV(ctx, w, rec, cfg) }
	}
	return writeFileAtomic(ctx, path, encode)
}

// sortedMetadata turns meta into Arrow metadata with keys in byte order, so
// that the output does not depend on map iteration order.
func sortedMetadata(meta map[string]string) (arrow.Metadata, error) {
	keys := make([]string, 0, len(meta))
	for k := range meta {
		if strings.HasPrefix(k, "ARROW:") {
			return arrow.Metadata{}, fmt.Errorf("metadata key %q: the ARROW: prefix is reserved", k)
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = meta[k]
	}
	return arrow.NewMetadata(keys, vals), nil
}

// withMetadata returns rec's schema carrying md instead of its own metadata.
func withMetadata(sc *arrow.Schema, md arrow.Metadata) *arrow.Schema {
	return arrow.NewSchema(sc.Fields(), &md)
}

// forEachSlice calls fn on consecutive slices of rec of at most cfg.sliceRows
// rows, checking ctx before each and running cfg.afterSlice after each.
// fn must not retain its argument.
func forEachSlice(ctx context.Context, rec arrow.RecordBatch, cfg config, fn func(arrow.RecordBatch) error) error {
	n, rc := rec.NumRows(), rowCounter(ctx)
	for off := int64(0); off < n; off += cfg.sliceRows {
		if err := ctx.Err(); err != nil {
			return err
		}
		end := min(off+cfg.sliceRows, n)
		s := rec.NewSlice(off, end)
		err := fn(s)
		s.Release()
		if err != nil {
			return err
		}
		if rc != nil {
			rc.Add(end - off)
		}
		if cfg.afterSlice != nil {
			if err := cfg.afterSlice(end); err != nil {
				return err
			}
		}
	}
	return ctx.Err()
}
