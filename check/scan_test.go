package check

import (
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"

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
	var done atomic.Int64
	got := VerifyCounted(g, pone, pair, 0, limit, &done)
	if done.Load() != int64(n) {
		t.Errorf("audit counted %d vertices of %d", done.Load(), n)
	}
	want := verifyRange(g, pone, pair, 0, limit, false, 0, int32(n))
	if w := want.Worst; w.U >= 0 {
		want.Exact(pair, pone[w.U], pone[w.V])
	}
	if want.Violations == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("chunked audit %+v, one pass %+v", got, want)
	}
	done.Store(0)
	gotH := HittingCounted(g, answer, hit, limit, &done)
	ans, in := hitBitmaps(answer, hit)
	wantH := checkHittingRange(g, ans, in, limit, 0, int32(n))
	if done.Load() != int64(n) {
		t.Errorf("hitting check counted %d vertices of %d", done.Load(), n)
	}
	if wantH.Uncovered == 0 || !reflect.DeepEqual(gotH, wantH) {
		t.Errorf("chunked hitting check %+v, one pass %+v", gotH, wantH)
	}
}
