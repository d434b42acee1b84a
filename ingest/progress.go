package ingest

import (
	"context"
	"sync/atomic"
)

// RowCounter counts the rows the readers have read, for a progress display: Done
// grows by a row group (Parquet) or a batch of batchRows rows (CSV) at a time, never
// per row, so counting costs nothing measurable; Total grows by a Parquet file's row
// count when its reading starts (CSV files have no count ahead).
type RowCounter struct{ Done, Total atomic.Int64 }

type rowCounterKey struct{}

// WithRowCounter returns a context whose reads count their rows in c.
func WithRowCounter(ctx context.Context, c *RowCounter) context.Context {
	return context.WithValue(ctx, rowCounterKey{}, c)
}

func rowCounter(ctx context.Context) *RowCounter {
	c, _ := ctx.Value(rowCounterKey{}).(*RowCounter)
	return c
}
