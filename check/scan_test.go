package check

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/graphdp/graphdp/internal/progress"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// Cut into chunks and ranges, the audit and the hitting check give what one
// pass over all vertices gives, and count every vertex once: a graph of a few
// chunks, a mechanism with violations, and answers with boundary edges.
func TestChunkedScanIsOnePass(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 30))
	n := 3*scanChunk + 7
	var e [][2]int32
	for range 4 * n {
		e = append(e, [2]int32{int32(r.IntN(n)), int32(r.IntN(n))})
	}
	g := testgraph.FromEdges(n, e)
	pair := testgraph.MustDP(0.5, 1e-6)
	pone := make([]float64, n)
	answer := make([]bool, n)
	var hit []int32
	for v := range pone {
		pone[v] = 0.5 + 0.01*r.Float64() // neighbours far inside their bounds
		answer[v] = r.IntN(2) == 0
		if r.IntN(3) == 0 {
			hit = append(hit, int32(v))
		}
	}
	for range 50 {
		pone[r.IntN(n)] = r.Float64() // most likely violations
	}
	const limit = 5
	var done progress.Counter
	got, err := Verify(progress.With(context.Background(), &done), g, pone, pair, 0, limit)
	if err != nil {
		t.Fatal(err)
	}
	if done.Done.Load() != int64(n) {
		t.Errorf("audit counted %d vertices of %d", done.Done.Load(), n)
	}
	want := verifyRange(g, pone, pair, 0, limit, false, 0, int32(n))
	if w := want.Worst; w.U >= 0 {
		want.Exact(pair, pone[w.U], pone[w.V])
	}
	if want.Violations == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("chunked audit %+v, one pass %+v", got, want)
	}
	done.Done.Store(0)
	gotH, err := Hitting(progress.With(context.Background(), &done), g, answer, hit, limit)
	if err != nil {
		t.Fatal(err)
	}
	ans, in := hitBitmaps(answer, hit)
	wantH := checkHittingRange(g, ans, in, limit, 0, int32(n))
	if done.Done.Load() != int64(n) {
		t.Errorf("hitting check counted %d vertices of %d", done.Done.Load(), n)
	}
	if wantH.Uncovered == 0 || !reflect.DeepEqual(gotH, wantH) {
		t.Errorf("chunked hitting check %+v, one pass %+v", gotH, wantH)
	}
}

// A cancelled context stops the audit and the hitting check between chunks, and is
// their error: Ctrl-C does not wait for a whole pass.
func TestScanStopsOnCancel(t *testing.T) {
	n := 3 * scanChunk
	var e [][2]int32
	for v := range int32(n - 1) {
		e = append(e, [2]int32{v, v + 1})
	}
	g := testgraph.FromEdges(n, e)
	pone := make([]float64, g.N())
	answer := make([]bool, g.N())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var done progress.Counter
	ctx = progress.With(ctx, &done)
	if _, err := Verify(ctx, g, pone, testgraph.MustDP(1, 0), 0, 3); err != context.Canceled {
		t.Errorf("Verify on a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := Hitting(ctx, g, answer, nil, 3); err != context.Canceled {
		t.Errorf("Hitting on a cancelled context: %v, want context.Canceled", err)
	}
	if done.Done.Load() != 0 {
		t.Errorf("%d vertices counted after the cancel", done.Done.Load())
	}
}
