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

// TestIntTable: the joins' id table agrees with a Go map on ids in runs, negative,
// extreme and random, set once or overwritten, and absent.
func TestIntTable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var ks []int64
	for k := int64(-50); k < 1000; k++ {
		ks = append(ks, k)
	}
	ks = append(ks, math.MinInt64, math.MaxInt64, 1<<40, -(1 << 40))
	for range 5000 {
		ks = append(ks, r.Int64())
	}
	for _, n := range []int{0, 1, 7, len(ks)} {
		tab, want := newIntTable(n), map[int64]vref{}
		for i, k := range ks[:n] {
			v := vref{pos: int32(i), second: -1, ans: i%2 == 0}
			tab.set(k, v)
			want[k] = v
			if i%3 == 0 { // overwrite, as setHit does
				v.hit = true
				tab.set(k, v)
				want[k] = v
			}
		}
		for _, k := range append(ks, 1<<50, -7777777) {
			got, ok := tab.get(k)
			w, wok := want[k]
			if ok != wok || got != w {
				t.Fatalf("n=%d: get(%d) = %+v, %v; want %+v, %v", n, k, got, ok, w, wok)
			}
		}
	}
}
