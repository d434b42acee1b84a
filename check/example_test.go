package check_test

import (
	"context"
	"fmt"
	"math"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// Verify checks all four (ε,δ)-DP inequalities on every edge, exactly. With e^ε
// just above 2 and δ = 0, Pr[M = c] may at most double across an edge: 0.2 → 0.4
// passes, 0.4 → 0.9 does not, for output 1 (0.9 > 2·0.4) and for output 0
// (0.6 > 2·0.1).
func ExampleVerify() {
	g, _ := graph.Build(3, []int32{0, 1}, []int32{1, 2})
	pair, _ := dp.New(math.Nextafter(math.Ln2, 1), 0)
	a, _ := check.Verify(context.Background(), g, []float64{0.2, 0.4, 0.9}, pair, 0, 10)
	fmt.Printf("%d edges, %d violations\n", a.Edges, a.Violations)
	for _, v := range a.First {
		o := 0
		if v.Output {
			o = 1
		}
		fmt.Printf("edge %d – %d, output %d: %.1f against %.1f\n", v.U, v.V, o, v.PU, v.PV)
	}
	// Output:
	// 2 edges, 2 violations
	// edge 1 – 2, output 0: 0.6 against 0.1
	// edge 1 – 2, output 1: 0.4 against 0.9
}

// Hitting checks that a set touches every boundary edge (ends with different
// answers): on the path 0 – 1 – 2 – 3 with answers 0, 1, 1, 0, the set {1}
// misses the boundary edge 2 – 3.
func ExampleHitting() {
	g, _ := graph.Build(4, []int32{0, 1, 2}, []int32{1, 2, 3})
	answer := []bool{false, true, true, false}
	hc, _ := check.Hitting(context.Background(), g, answer, []int32{1}, 10)
	fmt.Printf("%d boundary edges, %d uncovered: %v\n", hc.Boundary, hc.Uncovered, hc.First)
	// Output:
	// 2 boundary edges, 1 uncovered: [{2 3}]
}
