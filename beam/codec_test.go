package beam

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/graph"
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
	// gapsInto (the arc blocks' columns) reads i32s' varints of every length.
	var g enc
	gs := append([]int32{1 << 6, 1 << 13, 1 << 20, 1 << 27, 5, -(1 << 20), -5}, i32...)
	g.i32s(gs)
	gd := dec{b: g.b}
	got32 := make([]int32, len(gs))
	if gd.gapsInto(got32); !slices.Equal(got32, gs) || gd.err != nil || len(gd.b) != 0 {
		t.Errorf("gapsInto %v (%v), want %v", got32, gd.err, gs)
	}
	for cut := range len(g.b) {
		gd := dec{b: g.b[:cut]}
		if gd.gapsInto(make([]int32, len(gs))); gd.err != errCorrupt {
			t.Fatalf("gapsInto cut at %d of %d bytes: err %v, want errCorrupt", cut, len(g.b), gd.err)
		}
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

// Offers read back bit for bit in both encodings: with the table of (value, source
// value) pairs (few distinct pairs, −0 kept apart from +0) and without it (all pairs
// distinct); the table makes an offer at most 8 bytes here, against at least 18
// without; a cut-short message fails with errCorrupt.
func TestOffersRoundTrip(t *testing.T) {
	few := bfs.Offers{To: 3, From: 1}
	many := bfs.Offers{To: 0, From: 2}
	for i := range 40 {
		v := int32(1000 + 3*i)
		value := []float64{0.25, math.Copysign(0, -1), 0, 0.5}[i%4]
		few.V, few.C = append(few.V, v), append(few.C, bfs.Cand{Value: value, A: 0.125, Bind: int32(i * 7919 % 5000), Dist: int32(i % 5)})
		many.V, many.C = append(many.V, v), append(many.C, bfs.Cand{Value: float64(i) / 64, A: float64(i) / 128, Bind: int32(i), Dist: 1})
	}
	for _, c := range []struct {
		name     string
		o        bfs.Offers
		one      bool
		table    bool
		perOffer float64
		atMost   bool
	}{{"table", few, true, true, 8, true}, {"raw", many, false, false, 18, false}} {
		b := encodeOffers(c.one, c.o)
		if got := b[1]&2 != 0; got != c.table {
			t.Errorf("%s: table %v, want %v", c.name, got, c.table)
		}
		per := float64(len(b)) / float64(len(c.o.V))
		if c.atMost && per > c.perOffer || !c.atMost && per < c.perOffer {
			t.Errorf("%s: %.1f bytes an offer", c.name, per)
		}
		one, o, err := decodeOffers(b)
		if err != nil || one != c.one || o.To != c.o.To || o.From != c.o.From || !slices.Equal(o.V, c.o.V) {
			t.Fatalf("%s: %v %v %+v", c.name, err, one, o)
		}
		for i := range o.C {
			if !sameBits(o.C[i], c.o.C[i]) {
				t.Fatalf("%s: offer %d: %+v, want %+v", c.name, i, o.C[i], c.o.C[i])
			}
		}
		for cut := 1; cut < len(b); cut++ {
			if _, _, err := decodeOffers(b[:cut]); err != errCorrupt {
				t.Fatalf("%s: cut at %d of %d bytes: err %v, want errCorrupt", c.name, cut, len(b), err)
			}
		}
	}
}

// An arc block carries every arc of a shard's part of a split, in tail order: its cut
// arcs with their heads' flags (or without, as the broadcast index's edges send them)
// and both directions of each inner edge, as the multisets the sink was given (the
// shard's CSR depends on nothing else); the tails cross as one-byte gaps; a
// cut-short block fails with errCorrupt.
func TestArcBlockRoundTrip(t *testing.T) {
	for _, flags := range []bool{true, false} {
		arcBlockRoundTrip(t, flags)
	}
}

func arcBlockRoundTrip(t *testing.T, flags bool) {
	l := graph.Layout{N: 1000, Size: 100}
	type arc struct {
		u, v     int32
		ans, hit bool
	}
	r := rand.New(rand.NewPCG(3, 5))
	a := newArcSink(l, 0, flags)
	want := map[int][]arc{}
	for range 3000 {
		u, v := r.Int32N(l.N), r.Int32N(l.N)
		ua, uh, va, vh := r.IntN(2) == 0, r.IntN(3) == 0, r.IntN(2) == 0, r.IntN(3) == 0
		a.edge(u, ua, uh, vref{pos: v, ans: va, hit: vh})
		if !flags {
			ua, uh, va, vh = false, false, false, false
		}
		su, sv := int(l.Of(u)), int(l.Of(v))
		switch {
		case u == v:
		case su == sv: // both arcs; flags are the shard's own
			want[su] = append(want[su], arc{u: u, v: v}, arc{u: v, v: u})
		default:
			want[su] = append(want[su], arc{u, v, va, vh})
			want[sv] = append(want[sv], arc{v, u, ua, uh})
		}
	}
	got := map[int][]arc{}
	a.emit(func(s int, b []byte) {
		nc, ni, err := arcCounts(b)
		if err != nil {
			t.Fatal(err)
		}
		tail, head := make([]int32, nc+2*ni), make([]int32, nc+2*ni)
		m, c, err := decodeArcs(b, tail, head)
		if err != nil || m != len(tail) {
			t.Fatalf("shard %d: %d arcs of %d, %v", s, m, len(tail), err)
		}
		if (c.ans != nil) != flags || (c.hit != nil) != flags {
			t.Fatalf("shard %d: flags %v, %v; want carried %v", s, c.ans != nil, c.hit != nil, flags)
		}
		if !slices.IsSorted(tail[:nc]) || !slices.IsSorted(tail[nc:nc+ni]) {
			t.Errorf("shard %d: tails out of order", s)
		}
		for i := range m {
			x := arc{u: tail[i], v: head[i]}
			if i < nc && flags {
				x.ans, x.hit = bitAt(c.ans, i), bitAt(c.hit, i)
			}
			got[s] = append(got[s], x)
		}
		for cut := 1; cut < len(b); cut++ {
			if _, _, err := decodeArcs(b[:cut], tail, head); err != errCorrupt {
				t.Fatalf("shard %d cut at %d of %d bytes: err %v, want errCorrupt", s, cut, len(b), err)
			}
		}
	})
	cmpArc := func(x, y arc) int {
		return cmp.Or(cmp.Compare(x.u, y.u), cmp.Compare(x.v, y.v), cmp.Compare(fmt.Sprint(x), fmt.Sprint(y)))
	}
	for s := range int(l.Shards()) {
		slices.SortFunc(want[s], cmpArc)
		slices.SortFunc(got[s], cmpArc)
		if !slices.Equal(got[s], want[s]) {
			t.Errorf("flags %v, shard %d: %d arcs, want %d (or other arcs)", flags, s, len(got[s]), len(want[s]))
		}
	}
}
