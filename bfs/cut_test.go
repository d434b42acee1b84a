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
// neighbour outside the shard, in list order, and ArcAt its position), Foreign ascends
// without repeats, and each To run holds exactly that shard's vertices; a scratch
// reused over shards and layouts, with arc positions (the rounds engine's cuts),
// gives what a fresh NewCut does. A long path in small shards takes the branch that
// sorts the few bitmap words a shard touches.
func TestNewCutNamesEveryCutArc(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	var cs *cutScratch
	check := func(name string, g *graph.Graph, l graph.Layout) {
		for s := range int32(l.Shards()) {
			sh := g.ShardOf(l, s)
			cut, err := cs.cut(l, sh, true)
			if err != nil {
				t.Fatal(err)
			}
			fresh, _ := NewCut(l, sh)
			at := cut.ArcAt
			cut.ArcAt = nil
			if fmt.Sprint(*cut) != fmt.Sprint(*fresh) {
				t.Fatalf("%s shard %d: reused scratch %+v, fresh %+v", name, s, *cut, *fresh)
			}
			if !slices.IsSorted(cut.Foreign) || len(slices.Compact(slices.Clone(cut.Foreign))) != len(cut.Foreign) {
				t.Fatalf("%s shard %d: foreign %v not ascending and distinct", name, s, cut.Foreign)
			}
			for j, to := range cut.To {
				for _, w := range cut.Foreign[cut.ToOff[j]:cut.ToOff[j+1]] {
					if l.Of(w) != to {
						t.Fatalf("%s shard %d: %d in the run of shard %d", name, s, w, to)
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
				var got, gotAt []int32
				for j := cut.Off[i]; j < cut.Off[i+1]; j++ {
					got, gotAt = append(got, cut.Foreign[cut.Arc[j]]), append(gotAt, at[j])
				}
				if !slices.Equal(got, want) || !slices.Equal(gotAt, want) {
					t.Fatalf("%s shard %d vertex %d: cut arcs to %v at %v, want %v", name, s, i, got, gotAt, want)
				}
			}
		}
	}
	for k := range 60 {
		n := 1 + r.IntN(300)
		var e [][2]int32
		for range r.IntN(4 * n) {
			e = append(e, [2]int32{int32(r.IntN(n)), int32(r.IntN(n))})
		}
		if cs == nil || k%7 == 0 {
			cs = &cutScratch{}
		}
		l, _ := graph.NewLayout(n, 1+r.IntN(n+5))
		check(fmt.Sprintf("graph %d", k), testgraph.FromEdges(n, e), l)
	}
	const n = 1 << 16
	e := make([][2]int32, n-1)
	for i := range e {
		e[i] = [2]int32{int32(i), int32(i + 1)}
	}
	l, _ := graph.NewLayout(n, 16)
	check("path", testgraph.FromEdges(n, e), l)
}
