package dp

import (
	"math"
	"sync"
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
