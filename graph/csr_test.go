package graph

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

func TestBuildDedupes(t *testing.T) {
	// rows: 0-1, 1-0 (reverse duplicate), 0-1 (duplicate), 2-2 (self-loop), 1-3, 3 isolated? no: 4 isolated
	g, st := Build(5, []int32{0, 1, 0, 2, 1}, []int32{1, 0, 1, 2, 3})
	want := BuildStats{Rows: 5, SelfLoops: 1, Duplicates: 2, Kept: 2}
	if st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
	if !slices.Equal(g.Off, []int64{0, 1, 3, 3, 4, 4}) || !slices.Equal(g.Adj, []int32{1, 0, 3, 1}) {
		t.Errorf("CSR off=%v adj=%v", g.Off, g.Adj)
	}
	if _, k := g.Components(); k != 3 { // {0,1,3}, {2}, {4}
		t.Errorf("%d components, want 3", k)
	}
}

// Build agrees with a set-of-pairs reference on random multigraphs (invariant 1).
func TestBuildMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		n := 1 + r.IntN(50)
		m := r.IntN(200)
		src, dst := make([]int32, m), make([]int32, m)
		ref := map[[2]int32]bool{}
		loops := int64(0)
		for i := range src {
			src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
			if src[i] == dst[i] {
				loops++
				continue
			}
			ref[[2]int32{src[i], dst[i]}] = true
			ref[[2]int32{dst[i], src[i]}] = true
		}
		g, st := Build(n, src, dst)
		if len(g.Off) != n+1 || g.Off[0] != 0 || g.Off[n] != int64(len(g.Adj)) {
			t.Fatalf("bad offsets %v", g.Off)
		}
		if st.SelfLoops != loops || st.Kept != int64(len(ref)/2) || st.Rows != int64(m) || st.Duplicates != int64(m)-loops-st.Kept {
			t.Fatalf("stats %+v, reference %d loops %d edges", st, loops, len(ref)/2)
		}
		for u := int32(0); int(u) < n; u++ {
			nb := g.Neighbours(u)
			if !slices.IsSorted(nb) {
				t.Fatalf("list of %d not sorted: %v", u, nb)
			}
			for i, v := range nb {
				if !ref[[2]int32{u, v}] || (i > 0 && nb[i-1] == v) {
					t.Fatalf("list of %d wrong: %v", u, nb)
				}
			}
		}
		if g.M() != int64(len(ref)/2) {
			t.Fatalf("M = %d", g.M())
		}
	}
}

// referenceCSR builds the CSR the slow, obvious way: sort all arcs.
func referenceCSR(n int, src, dst []int32) ([]int64, []int32) {
	var arcs [][2]int32
	for i, u := range src {
		if v := dst[i]; u != v {
			arcs = append(arcs, [2]int32{u, v}, [2]int32{v, u})
		}
	}
	slices.SortFunc(arcs, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	arcs = slices.Compact(arcs)
	off := make([]int64, n+1)
	adj := make([]int32, len(arcs))
	for i, a := range arcs {
		off[a[0]+1]++
		adj[i] = a[1]
	}
	for v := range n {
		off[v+1] += off[v]
	}
	return off, adj
}

// Large inputs take Build's parallel paths (atomic scatter, parallel list sorting)
// and hubs its radix sort; the result must still be the sorted, deduplicated CSR.
func TestBuildLargeMatchesReference(t *testing.T) {
	testBuildLarge(t)
}

// With tiny blocks, buildOwned partitions the arcs into its maximum number of
// blocks, many of them empty or holding a hub's whole list.
func TestBuildSmallBlocksMatchesReference(t *testing.T) {
	defer func(a int) { blockArcs = a }(blockArcs)
	blockArcs = 64
	testBuildLarge(t)
}

func testBuildLarge(t *testing.T) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ n, m, hubs int }{{1000, 200_000, 0}, {50_000, 300_000, 3}, {3, 100_000, 1}} {
		src, dst := make([]int32, tc.m), make([]int32, tc.m)
		for i := range src {
			src[i], dst[i] = int32(r.IntN(tc.n)), int32(r.IntN(tc.n))
			if tc.hubs > 0 && i%2 == 0 {
				src[i] = int32(r.IntN(tc.hubs)) // hubs of degree ≫ sortDirect
			}
		}
		wantOff, wantAdj := referenceCSR(tc.n, src, dst)
		g, st := Build(tc.n, slices.Clone(src), slices.Clone(dst))
		if !slices.Equal(g.Off, wantOff) || !slices.Equal(g.Adj, wantAdj) {
			t.Fatalf("n=%d m=%d: CSR differs from the reference", tc.n, tc.m)
		}
		if st.Kept != int64(len(wantAdj)/2) || st.Rows != int64(tc.m) || st.Rows != st.Kept+st.Duplicates+st.SelfLoops {
			t.Fatalf("stats %+v", st)
		}
		if _, k := g.Components(); k != countComponents(t, g) {
			t.Fatalf("Components %d, CountComponents %d", k, countComponents(t, g))
		}
	}
}

func TestCountComponents(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 100 {
		n := 1 + r.IntN(200)
		m := r.IntN(150)
		src, dst := make([]int32, m), make([]int32, m)
		for i := range src {
			src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
		}
		g, _ := Build(n, src, dst)
		if _, k := g.Components(); k != countComponents(t, g) {
			t.Fatalf("Components %d, CountComponents %d", k, countComponents(t, g))
		}
	}
}

// A Builder fed the rows in batches of any sizes, in any order, from several
// goroutines at once, builds the reference CSR (invariant 2), with the right
// stats, whatever the chunk size and the slack of the rows it was sized for.
func TestBuilderMatchesReference(t *testing.T) {
	defer func(a int) { blockArcs = a }(blockArcs)
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 120; trial++ {
		// One block; tens of arcs a block; one vertex a block: Add's staging fills
		// and flushes at every rate (wc arcs a block), and chunks of 64 arcs fill
		// up in the middle of a flush.
		blockArcs = []int{1 << 17, 64, 1}[trial%3]
		n := 1 + r.IntN(3000)
		m := r.IntN(20000)
		src, dst := make([]int32, m), make([]int32, m)
		loops := int64(0)
		for i := range src {
			src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
			if r.IntN(10) == 0 {
				dst[i] = src[i]
			}
			if src[i] == dst[i] {
				loops++
			}
		}
		wantOff, wantAdj := referenceCSR(n, src, dst)
		// Cut the rows into batches, shuffled.
		var cuts [][2]int
		for lo := 0; lo < m; {
			hi := min(m, lo+1+r.IntN(m/3+2))
			cuts = append(cuts, [2]int{lo, hi})
			lo = hi
		}
		r.Shuffle(len(cuts), func(i, j int) { cuts[i], cuts[j] = cuts[j], cuts[i] })
		rows := int64(m)
		if trial%2 == 1 {
			rows += int64(r.IntN(m + 1)) // sized for more rows than come
		}
		workers := 1 + trial%3
		b := NewBuilder(n, rows, workers)
		var wg sync.WaitGroup
		errs := make(chan error, len(cuts))
		for _, c := range cuts {
			wg.Go(func() { errs <- b.Add(src[c[0]:c[1]], dst[c[0]:c[1]]) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		g, st, err := b.Finish(context.Background(), 1+trial%3)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Off, wantOff) || !slices.Equal(g.Adj, wantAdj) {
			t.Fatalf("trial %d (n %d, m %d): the lists differ from the reference", trial, n, m)
		}
		want := BuildStats{Rows: int64(m), SelfLoops: loops, Kept: int64(len(wantAdj) / 2)}
		want.Duplicates = want.Rows - want.SelfLoops - want.Kept
		if st != want {
			t.Fatalf("trial %d: stats %+v, want %+v", trial, st, want)
		}
	}
}

// The empty graph builds (no vertices, no blocks), as before the Builder had chunks.
func TestBuildEmpty(t *testing.T) {
	g, st := Build(0, nil, nil)
	if !slices.Equal(g.Off, []int64{0}) || len(g.Adj) != 0 || st != (BuildStats{}) {
		t.Fatalf("Build(0): %+v, %+v", g, st)
	}
	g, st = Build(1, []int32{0, 0}, []int32{0, 0})
	if !slices.Equal(g.Off, []int64{0, 0}) || len(g.Adj) != 0 || st.SelfLoops != 2 {
		t.Fatalf("Build(1) of self-loops: %+v, %+v", g, st)
	}
}

// More rows than a Builder was sized for are an error, not a panic or a graph
// of some of them.
func TestBuilderMoreRows(t *testing.T) {
	b := NewBuilder(4, 0, 1) // one chunk of 64 arcs
	src, dst := make([]int32, 100), make([]int32, 100)
	for i := range src {
		src[i], dst[i] = int32(i%4), int32((i+1)%4)
	}
	err := b.Add(src, dst)
	if err == nil {
		_, _, err = b.Finish(context.Background(), 1)
	}
	if !errors.Is(err, ErrMoreRows) {
		t.Fatalf("error %v, want ErrMoreRows", err)
	}
}

// A cancelled or expired context stops Finish with its error, no graph (optimize's
// --max-time during the build of a large graph).
func TestBuilderFinishStops(t *testing.T) {
	src, dst := make([]int32, 1000), make([]int32, 1000)
	for i := range src {
		src[i], dst[i] = int32(i%500), int32((i*7+1)%500)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := NewBuilder(500, int64(len(src)), 1)
	if err := b.Add(src, dst); err != nil {
		t.Fatal(err)
	}
	if g, _, err := b.Finish(ctx, 2); !errors.Is(err, context.Canceled) || g != nil {
		t.Errorf("Finish after a cancel: %v, %v", g, err)
	}
}

// A shard built from its arcs alone (BuildShard, as a cluster worker builds it) is
// the shard cut out of the whole graph's build, for shards of every size, arcs in
// random order with duplicates and self-loops, hubs, and tiny blocks.
func TestBuildShardMatchesShardOf(t *testing.T) {
	defer func(a int) { blockArcs = a }(blockArcs)
	r := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct{ n, m, hubs, size, blockArcs int }{
		{1, 0, 0, 1, 1 << 17}, {50, 200, 0, 7, 1 << 17}, {1000, 20_000, 2, 300, 1 << 17},
		{50_000, 300_000, 3, 20_000, 1 << 17}, {5000, 40_000, 1, 1000, 64},
	} {
		blockArcs = tc.blockArcs
		src, dst := make([]int32, tc.m), make([]int32, tc.m)
		for i := range src {
			src[i], dst[i] = int32(r.IntN(tc.n)), int32(r.IntN(tc.n))
			if tc.hubs > 0 && i%2 == 0 {
				src[i] = int32(r.IntN(tc.hubs))
			}
		}
		g, _ := Build(tc.n, slices.Clone(src), slices.Clone(dst))
		l := Layout{N: int32(tc.n), Size: int32(tc.size)}
		for s := range int32(l.Shards()) {
			lo, hi := l.Range(s)
			var tail, head []int32
			for _, i := range r.Perm(len(src)) {
				u, v := src[i], dst[i]
				if u >= lo && u < hi {
					tail, head = append(tail, u), append(head, v)
				}
				if v >= lo && v < hi {
					tail, head = append(tail, v), append(head, u)
				}
			}
			got, err := BuildShard(lo, int(hi-lo), tail, head)
			if err != nil {
				t.Fatal(err)
			}
			want := g.ShardOf(l, s)
			if got.Lo != want.Lo || !slices.Equal(got.Off, want.Off) || !slices.Equal(got.Adj, want.Adj) {
				t.Fatalf("n=%d size=%d shard %d: BuildShard differs from ShardOf", tc.n, tc.size, s)
			}
		}
	}
	if _, err := BuildShard(10, 5, []int32{15}, []int32{0}); err == nil {
		t.Error("a tail outside the block was accepted")
	}
}

// countComponents is CountComponents on a context never cancelled.
func countComponents(t *testing.T, g *Graph) int {
	t.Helper()
	k, err := g.CountComponents(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// A cancelled context stops the count and is its error.
func TestCountComponentsStopsOnCancel(t *testing.T) {
	g, _ := Build(3, []int32{0}, []int32{1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.CountComponents(ctx); err != context.Canceled {
		t.Errorf("CountComponents on a cancelled context: %v, want context.Canceled", err)
	}
}
