// Package progress is graphdp's one way of reporting how far a long loop has got:
// through the context. A stage that wants a progress display puts a Counter in the
// context it passes down (With); the loop below adds its work to the Counter it
// finds there (From), a batch at a time, and does nothing when there is none. A
// loop whose state is more than a count (the optimiser's iterations and bounds)
// hands it to the listener of its type the context carries (Listen, Notify).
// Nothing else is plumbed: no struct fields, no twin functions, no callback
// options.
//
// Invariants:
//
//  1. Counting never changes a result: a loop computes the same with or without a
//     Counter.
//  2. Done only grows, by a batch (a row group, a chunk of vertices) at a time, never
//     per item, so counting costs nothing measurable; Total, when known, grows as
//     the loop learns it (a Parquet file's row count when its reading starts).
//  3. A nil *Counter is valid and counts nothing, and Notify without a listener
//     does nothing: callers need no nil checks.
//  4. A listener is called synchronously, from the loop's goroutine (or several
//     loops' at once: it serialises itself if it must).
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

type listenKey[T any] struct{}

// Listen returns a context whose loops hand their states of type T to fn (nil: to
// nobody, hiding an outer listener from the loops below).
func Listen[T any](ctx context.Context, fn func(T)) context.Context {
	return context.WithValue(ctx, listenKey[T]{}, fn)
}

// Notify hands v to ctx's listener for T, if any.
func Notify[T any](ctx context.Context, v T) {
	if fn, _ := ctx.Value(listenKey[T]{}).(func(T)); fn != nil {
		fn(v)
	}
}
