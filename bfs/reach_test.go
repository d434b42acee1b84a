package bfs

import (
	"context"
	"testing"

	"github.com/graphdp/graphdp/internal/testgraph"
)

// Once every vertex is reached, Propagate's pops only settle: on the complete graph
// K_n from one hitting-set vertex, the source's scan reaches all the others, and
// their n − 1 pops read no list (Scans = n − 1, the source's list, in each pass),
// while the field is still the oracle's.
func TestPropagateStopsScanningOnceAllReached(t *testing.T) {
	const n = 9
	var e [][2]int32
	for u := int32(0); u < n; u++ {
		for v := u + 1; v < n; v++ {
			e = append(e, [2]int32{u, v})
		}
	}
	g := testgraph.FromEdges(n, e)
	answer := make([]bool, n)
	for v := range answer {
		answer[v] = v%2 == 0
	}
	in, err := NewInstance(g, answer, []int32{4}, []float64{0.6}, testgraph.MustDP(0.5, 1e-6))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []bool{false, true} {
		f, err := Propagate{}.Pass(context.Background(), in, c)
		if err != nil {
			t.Fatal(err)
		}
		if f.Scans != n-1 {
			t.Errorf("pass %v: %d adjacency entries read, want %d (the source's list only)", c, f.Scans, n-1)
		}
		if err := sameField(f, oracle(in, c)); err != nil {
			t.Errorf("pass %v: %v", c, err)
		}
	}
}
