package beam

import (
	"math"
	"slices"
	"testing"

	"github.com/graphdp/graphdp/bfs"
)

// Columns read back exactly as written: gaps that wrap (extreme int64s), bit-packed
// flags of every length around a byte, and candidate runs that must not merge −0 with
// +0; a cut-short encoding fails with errCorrupt.
func TestCodecRoundTrip(t *testing.T) {
	i64 := []int64{0, 5, 3, math.MaxInt64, math.MinInt64, -1, 1 << 40, 7}
	i32 := []int32{10, 11, 12, 2, math.MaxInt32, math.MinInt32, 0}
	var e enc
	e.i64s(i64)
	e.i32s(i32)
	var flags [][]bool
	for n := range 18 {
		f := make([]bool, n)
		for i := range f {
			f[i] = (i*7+n)%3 == 0
		}
		flags = append(flags, f)
		e.bools(f)
	}
	none := bfs.Cand{Value: 1, A: 1, Bind: -1, Dist: -1}
	cs := []bfs.Cand{none, none, none, {Value: math.Copysign(0, -1), Bind: 3}, {Value: 0, Bind: 3}, {Value: 0, Bind: 3}, {Value: math.NaN(), Bind: 4}, none}
	e.candRuns(cs)
	d := dec{b: e.b}
	if got := d.i64s(); !slices.Equal(got, i64) {
		t.Errorf("i64s %v, want %v", got, i64)
	}
	if got := d.i32s(); !slices.Equal(got, i32) {
		t.Errorf("i32s %v, want %v", got, i32)
	}
	for _, f := range flags {
		if got := d.bools(); !slices.Equal(got, f) {
			t.Errorf("bools %v, want %v", got, f)
		}
	}
	got := d.candRuns()
	if len(got) != len(cs) {
		t.Fatalf("%d candidates, want %d", len(got), len(cs))
	}
	for i := range cs {
		if !sameBits(got[i], cs[i]) {
			t.Errorf("candidate %d: %+v, want %+v (bit for bit)", i, got[i], cs[i])
		}
	}
	if d.err != nil || len(d.b) != 0 {
		t.Errorf("err %v, %d bytes left", d.err, len(d.b))
	}
	for cut := range len(e.b) {
		d := dec{b: e.b[:cut]}
		d.i64s()
		d.i32s()
		for range flags {
			d.bools()
		}
		d.candRuns()
		if d.err != errCorrupt {
			t.Fatalf("cut at %d of %d bytes: err %v, want errCorrupt", cut, len(e.b), d.err)
		}
	}
}
