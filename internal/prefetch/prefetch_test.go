package prefetch

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Prefetching changes nothing (invariant 1), at every index including both
// ends, for every element size the callers use.
func TestPrefetchChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 1 << 12
	ys := make([]int32, 3*n)
	for i := range ys {
		ys[i] = int32(r.IntN(n))
	}
	ys = append(ys, 0, n-1)
	words := make([]uint64, n/64)
	floats := make([]float64, n)
	bools := make([]bool, n)
	for i := range floats {
		floats[i], bools[i] = r.Float64(), r.IntN(2) == 0
	}
	for i := range words {
		words[i] = r.Uint64()
	}
	w0, f0, b0, y0 := slices.Clone(words), slices.Clone(floats), slices.Clone(bools), slices.Clone(ys)
	for i := range n {
		At(floats, i)
		At(bools, i)
	}
	Each(floats, ys)
	Each(bools, ys)
	Each(floats, nil)
	Bits(words, ys)
	Bits(words, ys[:0])
	if !slices.Equal(words, w0) || !slices.Equal(floats, f0) || !slices.Equal(bools, b0) || !slices.Equal(ys, y0) {
		t.Fatal("a prefetch changed memory")
	}
}

// BenchmarkGather reads a 256 MiB array at random, in lists of 16 indices, and
// branches on each value, with and without prefetching the list three ahead
// first: the gain the engine and the checks rely on.
//
//	go test ./internal/prefetch -run '^$' -bench Gather
func BenchmarkGather(b *testing.B) {
	const n = 1 << 25
	data := make([]float64, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = r.Float64()
	}
	idx := make([]int32, 1<<20)
	for i := range idx {
		idx[i] = int32(r.IntN(n))
	}
	for _, ahead := range []bool{false, true} {
		name := "plain"
		if ahead {
			name = "prefetch"
		}
		b.Run(name, func(b *testing.B) {
			var sum float64
			for b.Loop() {
				for i := 0; i+16 <= len(idx); i += 16 {
					if ahead && i+64 <= len(idx) {
						Each(data, idx[i+48:i+64])
					}
					for _, y := range idx[i : i+16] {
						// A branch on the loaded value, as the engine and the checks
						// take: mispredicted half the time, and each flush discards
						// the loads issued after it, so plain loads overlap little.
						if v := data[y]; v > 0.5 {
							sum += v
						} else {
							sum -= v
						}
					}
				}
			}
			if sum < 0 {
				b.Fatal(sum)
			}
		})
	}
}
