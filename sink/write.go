package sink

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/internal/progress"
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

// WritePrivate is Write of a table computed from private data (a mechanism, a
// hitting set): a local file gets mode 0600, whatever the umask and the file it
// replaces (NewPrivateOutputs).
func WritePrivate(ctx context.Context, path string, rec arrow.RecordBatch, meta map[string]string) error {
	o := NewPrivateOutputs()
	defer o.Abort()
	if err := o.Write(ctx, path, rec, meta); err != nil {
		return err
	}
	return o.Commit(ctx)
}

// WriteBatches is Write of the table whose rows are those of the batches next
// returns, in order, until it returns nil: the same bytes as Write of their
// concatenation (doc.go invariant 4), written as they come. Each batch must have
// schema's fields; WriteBatches releases it. An error from next aborts the write
// (nothing at path changes). A caller that produces its table in parts (the Beam
// runner, shard by shard) holds one part at a time, and the writer one slice.
func WriteBatches(ctx context.Context, path string, schema *arrow.Schema, next func() (arrow.RecordBatch, error), meta map[string]string) error {
	return writeTable(ctx, path, table{schema, next}, meta, defaultConfig())
}

// table is what the encoders write: a schema and its rows as consecutive batches.
type table struct {
	schema *arrow.Schema
	next   func() (arrow.RecordBatch, error) // the next batch, which the reader releases; nil after the last
}

// oneBatch is the table of rec (which stays the caller's).
func oneBatch(rec arrow.RecordBatch) table {
	done := false
	return table{rec.Schema(), func() (arrow.RecordBatch, error) {
		if done {
			return nil, nil
		}
		done = true
		rec.Retain()
		return rec, nil
	}}
}

func writeRecord(ctx context.Context, path string, rec arrow.RecordBatch, meta map[string]string, cfg config) error {
	return writeTable(ctx, path, oneBatch(rec), meta, cfg)
}

func writeTable(ctx context.Context, path string, rec table, meta map[string]string, cfg config) error {
	o := NewOutputs()
	defer o.Abort()
	if err := o.writeTable(ctx, path, rec, meta, cfg); err != nil {
		return err
	}
	return o.Commit(ctx)
}

// encoder returns what writes rec to path's format, after checking what can be
// checked before writing (format, metadata keys, CSV column types).
func encoder(ctx context.Context, path string, rec table, meta map[string]string, cfg config) (func(w io.Writer) error, error) {
	format, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	md, err := sortedMetadata(meta)
	if err != nil {
		return nil, fmt.Errorf("sink: %s: %w", path, err)
	}
	switch format {
	case Parquet:
		return func(w io.Writer) error { return writeParquet(ctx, w, rec, md, cfg) }, nil
	case ArrowIPC:
		return func(w io.Writer) error { return writeIPC(ctx, w, rec, md, cfg) }, nil
	case CSV:
		if err := checkCSVSchema(rec.schema); err != nil {
			return nil, fmt.Errorf("sink: %s: %w", path, err)
		}
		return func(w io.Writer) error { return writeCSV(ctx, w, rec, cfg) }, nil
	}
	return nil, fmt.Errorf("sink: %s: unknown format", path)
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

// forEachSlice calls fn on consecutive slices of t's rows of cfg.sliceRows rows
// (the last one shorter), whatever the batches t comes in: a slice within one
// batch is a zero-copy view of it, one across batches a copy of its parts, and
// with compact every slice is a copy (offset 0, buffers of exactly the slice's
// length: an encoder whose bytes follow the buffers' layout then writes the same
// bytes for the same rows however they came). It checks ctx before each batch and
// slice and runs cfg.afterSlice after each slice. fn must not retain its argument.
func forEachSlice(ctx context.Context, t table, cfg config, compact bool, fn func(arrow.RecordBatch) error) error {
	rc := progress.From(ctx)
	var parts []arrow.RecordBatch // the next slice's rows so far
	var rows, done int64
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	flush := func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, err := concatRecords(cfg, t.schema, parts, rows, compact)
		if err != nil {
			return err
		}
		s = emptyValueBytes(s)
		for _, p := range parts {
			p.Release()
		}
		parts = parts[:0]
		err = fn(s)
		s.Release()
		if err != nil {
			return err
		}
		done += rows
		if rc != nil {
			rc.Add(rows)
		}
		rows = 0
		if cfg.afterSlice != nil {
			return cfg.afterSlice(done)
		}
		return nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := t.next()
		if err != nil || b == nil {
			if err == nil && rows > 0 {
				err = flush()
			}
			if err == nil {
				err = ctx.Err()
			}
			return err
		}
		if !b.Schema().Equal(t.schema) {
			b.Release()
			return fmt.Errorf("a batch's schema %s is not the table's %s", b.Schema(), t.schema)
		}
		n := b.NumRows()
		for off := int64(0); off < n; {
			end := min(n, off+cfg.sliceRows-rows)
			parts = append(parts, b.NewSlice(off, end))
			rows += end - off
			off = end
			if rows == cfg.sliceRows {
				if err := flush(); err != nil {
					b.Release()
					return err
				}
			}
		}
		b.Release()
	}
}

// emptyValueBytes is rec with every string or binary column whose value bytes are
// nil given an empty, non-nil buffer instead: arrow-go's Parquet statistics skip a
// nil value (v18.8.0, metadata.updateByteArrayStatisticsFromArrowOffsets), so an
// empty string would count towards its row group's min and max in a slice of a
// table with longer strings elsewhere but not in a batch of its own. With it the
// bytes follow the values, not how the buffers were cut (doc.go invariants 2, 4).
// It takes over rec's reference.
func emptyValueBytes(rec arrow.RecordBatch) arrow.RecordBatch {
	var cols []arrow.Array
	for j, c := range rec.Columns() {
		d := c.Data()
		if !arrow.IsBaseBinary(c.DataType().ID()) || len(d.Buffers()) < 3 || (d.Buffers()[2] != nil && d.Buffers()[2].Bytes() != nil) {
			continue
		}
		if cols == nil {
			cols = slices.Clone(rec.Columns())
		}
		bufs := slices.Clone(d.Buffers())
		bufs[2] = memory.NewBufferBytes([]byte{})
		nd := array.NewData(d.DataType(), d.Len(), bufs, nil, d.NullN(), d.Offset())
		cols[j] = array.MakeFromData(nd)
		nd.Release()
		defer cols[j].Release()
	}
	if cols == nil {
		return rec
	}
	out := array.NewRecordBatch(rec.Schema(), cols, rec.NumRows())
	rec.Release()
	return out
}

// concatRecords is the rows of parts, one after the other: parts[0] itself when
// alone and not compact, else a copy.
func concatRecords(cfg config, schema *arrow.Schema, parts []arrow.RecordBatch, rows int64, compact bool) (arrow.RecordBatch, error) {
	if len(parts) == 1 && !compact {
		parts[0].Retain()
		return parts[0], nil
	}
	cols := make([]arrow.Array, schema.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for j := range cols {
		arrs := make([]arrow.Array, len(parts))
		for i, p := range parts {
			arrs[i] = p.Column(j)
		}
		c, err := array.Concatenate(arrs, cfg.mem)
		if err != nil {
			return nil, err
		}
		cols[j] = c
	}
	return array.NewRecordBatch(schema, cols, rows), nil
}
