package bfs

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFIFOKeepsEveryKey pushes and pops at random, in runs of equal keys and
// single entries, across block boundaries and through empty queues, and checks
// each popped entry and front value against a plain slice of entries: the queue
// stores a run's value and distance once (fifoQueue), which must not change what
// comes out.
func TestFIFOKeepsEveryKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q fifoQueue
	var want []entry
	vals := []float64{0, math.Copysign(0, -1), 0.25, 0.5}
	var cur entry
	for step := range 400_000 {
		if len(want) == 0 || rng.IntN(100) < 52 {
			// A new key one time in four (−0 after +0 is a new one), else the last.
			if rng.IntN(4) == 0 {
				cur.a, cur.d = vals[rng.IntN(len(vals))], int32(rng.IntN(3))
			}
			cur.v, cur.b = int32(step), int32(rng.IntN(1000))
			q.push(cur)
			want = append(want, cur)
			continue
		}
		if got := q.frontValue(); math.Float64bits(got) != math.Float64bits(want[0].a) {
			t.Fatalf("step %d: front value %v, want %v", step, got, want[0].a)
		}
		got := q.pop()
		if got != want[0] || math.Float64bits(got.a) != math.Float64bits(want[0].a) {
			t.Fatalf("step %d: popped %+v, want %+v", step, got, want[0])
		}
		want = want[1:]
		if q.empty() != (len(want) == 0) {
			t.Fatalf("step %d: empty %v with %d entries left", step, q.empty(), len(want))
		}
	}
}
