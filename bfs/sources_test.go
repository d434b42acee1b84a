package bfs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortSources gives exactly the comparison sort's order (cmp.Compare on values,
// then vertices) on sets large enough to be radix sorted: few distinct values (a
// hypercube's layers), all distinct, ascending with the vertex (a path), values
// sharing most of their bits, −0 beside +0, NaNs, negative values (pass 0), and
// vertices in any order or already in order.
func TestSortSourcesIsTheComparisonOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gens := map[string]func(i int) float64{
		"one value": func(int) float64 { return 0.375 },
		"layers":    func(int) float64 { return []float64{0.25, 0.5, 0.75}[rng.IntN(3)] },
		"distinct":  func(int) float64 { return rng.Float64() },
		"ascending": func(i int) float64 { return 0.5 + float64(i)*1e-9 },
		"close":     func(int) float64 { return math.Float64frombits(math.Float64bits(0.3) + uint64(rng.IntN(4096))) },
		"signed zeros and NaN": func(int) float64 {
			return []float64{0, math.Copysign(0, -1), math.NaN(), -0.5, 1, -1}[rng.IntN(6)]
		},
		"negative": func(int) float64 { return -rng.Float64() },
	}
	for name, gen := range gens {
		for _, n := range []int{radixMin - 1, radixMin, 5000, 70000} {
			for _, order := range []string{"shuffled", "by vertex"} {
				src := make([]source, n)
				for i := range src {
					src[i] = source{v: int32(i * 7), a: gen(i)}
				}
				if order == "shuffled" {
					rng.Shuffle(n, func(i, j int) { src[i], src[j] = src[j], src[i] })
				}
				want := slices.Clone(src)
				slices.SortFunc(want, compareSources)
				got := slices.Clone(src)
				sortSources(got)
				for i := range want {
					if got[i].v != want[i].v || math.Float64bits(got[i].a) != math.Float64bits(want[i].a) {
						t.Fatalf("%s, n=%d, %s: entry %d is %+v, want %+v", name, n, order, i, got[i], want[i])
					}
				}
			}
		}
	}
}
