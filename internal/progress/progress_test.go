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

type state struct{ step int }

func TestListen(t *testing.T) {
	ctx := context.Background()
	Notify(ctx, state{1}) // nobody listens: nothing happens
	var got []int
	ctx = Listen(ctx, func(s state) { got = append(got, s.step) })
	Notify(ctx, state{2})
	Notify(ctx, 3)                            // another type: not this listener's
	Notify(Listen[state](ctx, nil), state{4}) // hidden below
	Notify(ctx, state{5})
	if len(got) != 2 || got[0] != 2 || got[1] != 5 {
		t.Errorf("listener got %v, want [2 5]", got)
	}
}
