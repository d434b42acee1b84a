package dp

import (
	"math"
	"sync"
	"sync/atomic"
)

// memo remembers a bound by its exact float64 argument, for the frameworks whose
// bounds cost a math/big computation (μ-GDP, trade-off curves): the engines and the
// audit ask for the same values again and again. It is sharded to keep goroutines
// apart and stops growing at memoCap entries per shard (then it only serves what it
// holds), so its memory stays bounded whatever the input.
type memo struct{ shards [memoShards]memoShard }

type memoShard struct {
	mu sync.RWMutex
	m  map[uint64]float64
}

const (
	memoShards = 64
	memoCap    = 1 << 14
)

func newMemo() *memo {
	m := &memo{}
	for i := range m.shards {
		m.shards[i].m = make(map[uint64]float64)
	}
	return m
}

func (m *memo) shard(k uint64) *memoShard {
	return &m.shards[(k*0x9E3779B97F4A7C15)>>58]
}

func (m *memo) get(a float64) (float64, bool) {
	k := math.Float64bits(a)
	s := m.shard(k)
	s.mu.RLock()
	b, ok := s.m[k]
	s.mu.RUnlock()
	return b, ok
}

func (m *memo) put(a, b float64) {
	k := math.Float64bits(a)
	s := m.shard(k)
	s.mu.Lock()
	if len(s.m) < memoCap {
		s.m[k] = b
	}
	s.mu.Unlock()
}

// gridAround returns grid points gl ≤ a ≤ gh of a fixed grid on [0, 1], for the safe
// bounds: multiples of 1/1024, refined near 0 and 1 by the powers 2^−k and 1 − 2^−k
// (k ≤ 60), 0 and 1 themselves. a outside [0, 1] (or NaN) gets 0 and 1.
func gridAround(a float64) (gl, gh float64) {
	if !(a > 0 && a < 1) {
		if a == 0 || a == 1 {
			return a, a
		}
		return 0, 1
	}
	const step = 1.0 / 1024
	switch {
	case a < step:
		// 2^(e−1) ≤ a < 2^e; below 2^−60, down to 0.
		_, e := math.Frexp(a)
		if e <= -60 {
			return 0, 0x1p-60
		}
		return math.Ldexp(1, e-1), math.Ldexp(1, e)
	case a > 1-step:
		q := 1 - a // exact for a > 1/2
		_, e := math.Frexp(q)
		if e <= -60 {
			return 1 - 0x1p-60, 1
		}
		return 1 - math.Ldexp(1, e), 1 - math.Ldexp(1, e-1)
	}
	i := math.Floor(a / step)
	return i * step, math.Min((i+1)*step, 1)
}

// gridSlots counts the points of gridAround's grid: the multiples i/1024 (0 and 1
// included), then 2^−k and 1 − 2^−k for 11 ≤ k ≤ 60.
const gridSlots = 1025 + 2*50

// gridSlot is the index of a grid point v (one gridAround returns).
func gridSlot(v float64) int {
	switch {
	case v > 0 && v < 1.0/1024:
		_, e := math.Frexp(v) // v = 2^(e−1)
		return 1025 + (-(e - 1) - 11)
	case v < 1 && v > 1-1.0/1024:
		_, e := math.Frexp(1 - v)
		return 1075 + (-(e - 1) - 11)
	}
	return int(v * 1024)
}

// gridBounds holds a framework's exact bounds at the grid points, each computed on
// first use and then read without a lock: the audit's shortcut (safe) asks for two
// of them at every vertex. A slot holds the bits of the bound complemented, so that
// 0 means "not yet" (no bound is the NaN whose complement is 0); two goroutines may
// both compute a slot, and both store the same value.
type gridBounds struct{ up, down [gridSlots]atomic.Uint64 }

// safe is (f.lower at the grid point above a, f.upper at the one below): bounds every
// value allowed next to a must lie within, by monotonicity.
func (g *gridBounds) safe(a float64, lower, upper func(float64) float64) (lo, up float64) {
	gl, gh := gridAround(a)
	return g.get(&g.down, gh, lower), g.get(&g.up, gl, upper)
}

func (g *gridBounds) get(tab *[gridSlots]atomic.Uint64, v float64, f func(float64) float64) float64 {
	s := &tab[gridSlot(v)]
	if b := s.Load(); b != 0 {
		return math.Float64frombits(^b)
	}
	r := f(v)
	s.Store(^math.Float64bits(r))
	return r
}
