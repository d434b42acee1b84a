package beam

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestForeignIndex: find agrees with a binary search over the whole list, for
// present and absent positions, on sets spread evenly, clustered, tiny and at the
// ends of int32.
func TestForeignIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sets := map[string][]int32{
		"empty":    nil,
		"one":      {7},
		"ends":     {0, math.MaxInt32 - 1},
		"clusters": {3, 4, 5, 6, 1000, 1001, 1002, 1 << 30, 1<<30 + 1},
	}
	var spread []int32
	for v := int32(0); v < 100000; v += 1 + r.Int32N(20) {
		spread = append(spread, v)
	}
	sets["spread"] = spread
	for name, vals := range sets {
		x := newForeignIndex(vals)
		probe := []int32{-1, 0, 1, 2, math.MaxInt32, math.MaxInt32 - 1}
		for _, v := range vals {
			probe = append(probe, v, v-1, v+1)
		}
		for range 1000 {
			probe = append(probe, r.Int32N(120000))
		}
		for _, v := range probe {
			want, wantOK := slices.BinarySearch(vals, v)
			got, ok := x.find(v)
			if ok != wantOK || (ok && int(got) != want) {
				t.Fatalf("%s: find(%d) = %d, %v; want %d, %v", name, v, got, ok, want, wantOK)
			}
		}
	}
}
