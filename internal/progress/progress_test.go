package progress

import (
	"context"
	"testing"
)

func TestCounter(t *testing.T) {
	ctx := context.Background()
	if From(ctx) != nil {
		t.Fatal("a bare context has a counter")
	}
	From(ctx).Add(3) // a nil counter counts nothing, and does not panic
	From(ctx).Grow(3)
	c := new(Counter)
	ctx = With(ctx, c)
	From(ctx).Add(3)
	From(ctx).Add(4)
	From(ctx).Grow(10)
	if c.Done.Load() != 7 || c.Total.Load() != 10 {
		t.Errorf("done %d, total %d; want 7 and 10", c.Done.Load(), c.Total.Load())
	}
}
