// Package progress is graphdp's one way of reporting how far a long loop has got: a
// Counter carried by the context. A stage that wants a progress display puts a
// Counter in the context it passes down (With); the loop below adds its work to
// the Counter it finds there (From), a batch at a time, and does nothing when
// there is none. Nothing else is plumbed: no struct fields, no twin functions, no
// callbacks.
//
// Invariants:
//
//  1. Counting never changes a result: a loop computes the same with or without a
//     Counter.
//  2. Done only grows, by a batch (a row group, a chunk of vertices) at a time, never
//     per item, so counting costs nothing measurable; Total, when known, grows as
//     the loop learns it (a Parquet file's row count when its reading starts).
//  3. A nil *Counter is valid and counts nothing: callers need no nil checks.
package progress

import (
	"context"
	"sync/atomic"
)

// Counter is work done and, where known ahead, work to do, in the loop's own unit
// (rows, vertices).
type Counter struct{ Done, Total atomic.Int64 }

type key struct{}

// With returns a context whose loops count their work in c.
func With(ctx context.Context, c *Counter) context.Context {
	return context.WithValue(ctx, key{}, c)
}

// From is the Counter of ctx, or nil.
func From(ctx context.Context) *Counter {
	c, _ := ctx.Value(key{}).(*Counter)
	return c
}

// Add adds n to Done.
func (c *Counter) Add(n int64) {
	if c != nil {
		c.Done.Add(n)
	}
}

// Grow adds n to Total.
func (c *Counter) Grow(n int64) {
	if c != nil {
		c.Total.Add(n)
	}
}
