package sink

import (
	"context"
	"sync/atomic"
)

type rowCounterKey struct{}

// WithRowCounter returns a context whose writes add the rows they have handed to
// the encoder to c, a slice (RowGroupRows rows) at a time: a progress display's
// "rows written", at no measurable cost.
func WithRowCounter(ctx context.Context, c *atomic.Int64) context.Context {
	return context.WithValue(ctx, rowCounterKey{}, c)
}

func rowCounter(ctx context.Context) *atomic.Int64 {
	c, _ := ctx.Value(rowCounterKey{}).(*atomic.Int64)
	return c
}
