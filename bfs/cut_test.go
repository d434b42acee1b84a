package bfs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// NewCut on a hand-made graph: 8 vertices in shards of 3 ({0,1,2}, {3,4,5}, {6,7});
// edges 0–1 (inner), 1–3, 1–4, 2–7, 0–7, 4–6, 5–6. Shard 0's foreign neighbours are
// 3, 4 (shard 1) and 7 (shard 2), numbered 0, 1, 2; vertex 0's cut arc goes to 7
// (number 2), vertex 1's to 3 and 4 (0, 1), vertex 2's to 7 (2).
func TestNewCutByHand(t *testing.T) {
	g := testgraph.FromEdges(8, [][2]int32{{0, 1}, {1, 3}, {1, 4}, {2, 7}, {0, 7}, {4, 6}, {5, 6}})
	l, _ := graph.NewLayout(8, 3)
	for _, c := range []struct {
		shard                   int32
		foreign, to, toOff, off []int32
		arc                     []int32
	}{
		{0, []int32{3, 4, 7}, []int32{1, 2}, []int32{0, 2, 3}, []int32{0, 1, 3, 4}, []int32{2, 0, 1, 2}},
		{1, []int32{1, 6}, []int32{0, 2}, []int32{0, 1, 2}, []int32{0, 1, 3, 4}, []int32{0, 0, 1, 1}},
		{2, []int32{0, 2, 4, 5}, []int32{0, 1}, []int32{0, 2, 4}, []int32{0, 2, 4}, []int32{2, 3, 0, 1}},
	} {
		cut, err := NewCut(l, g.ShardOf(l, c.shard))
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(cut.Self, cut.Foreign, cut.To, cut.ToOff, cut.Off, cut.Arc)
		want := fmt.Sprint(c.shard, c.foreign, c.to, c.toOff, c.off, c.arc)
		if got != want {
			t.Errorf("shard %d: self, foreign, to, toOff, off, arc = %s, want %s", c.shard, got, want)
		}
	}
	if _, err := NewCut(l, &graph.Shard{Lo: 2, Off: []int64{0, 0, 0}}); err == nil {
		t.Error("a block across two shards accepted")
	}
}

// On random graphs, every cut arc's number names its neighbour (Foreign[Arc] is the
// neighbour outside the shard, in list order), Foreign ascends without repeats, and
// each To run holds exactly that shard's vertices; one Stepper's scratch, reused over
// shards and layouts, gives what a fresh one does.
func TestNewCutNamesEveryCutArc(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	var st *Stepper
	for k := range 60 {
		n := 1 + r.IntN(300)
		var e [][2]int32
		for range r.IntN(4 * n) {
			e = append(e, [2]int32{int32(r.IntN(n)), int32(r.IntN(n))})
		}
		g := testgraph.FromEdges(n, e)
		l, _ := graph.NewLayout(n, 1+r.IntN(n+5))
		if st == nil || k%7 == 0 {
			st = NewPass(testgraph.Pairs[0], true).NewStepper()
		}
		for s := range int32(l.Shards()) {
			sh := g.ShardOf(l, s)
			cut, err := st.NewCut(l, sh)
			if err != nil {
				t.Fatal(err)
			}
			fresh, _ := NewCut(l, sh)
			if fmt.Sprint(*cut) != fmt.Sprint(*fresh) {
				t.Fatalf("graph %d shard %d: reused scratch %+v, fresh %+v", k, s, *cut, *fresh)
			}
			if !slices.IsSorted(cut.Foreign) || len(slices.Compact(slices.Clone(cut.Foreign))) != len(cut.Foreign) {
				t.Fatalf("graph %d shard %d: foreign %v not ascending and distinct", k, s, cut.Foreign)
			}
			for j, to := range cut.To {
				for _, w := range cut.Foreign[cut.ToOff[j]:cut.ToOff[j+1]] {
					if l.Of(w) != to {
						t.Fatalf("graph %d shard %d: %d in the run of shard %d", k, s, w, to)
					}
				}
			}
			lo, hi := l.Range(s)
			for i := range sh.Len() {
				var want []int32
				for _, w := range sh.Neighbours(i) {
					if w < lo || w >= hi {
						want = append(want, w)
					}
				}
				var got []int32
				for _, f := range cut.Of(int32(i)) {
					got = append(got, cut.Foreign[f])
				}
				if !slices.Equal(got, want) {
					t.Fatalf("graph %d shard %d vertex %d: cut arcs to %v, want %v", k, s, i, got, want)
				}
			}
		}
	}
}
