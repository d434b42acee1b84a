package bfs_test

import (
	"context"
	"fmt"
	"math"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// The paper's path example (docs/DESIGN.md §10.1): v1 – v2 – v3 – v4 with answers
// 0, 1, 1, 0 and Pr[M = 1] given on v1 (0.3) and v4 (0.1). The optimum gives v2 0.4 and
// v3 0.2, both bound by v4, though v1 is nearer to v2.
func ExampleSolve() {
	g, _ := graph.Build(4, []int32{0, 1, 2}, []int32{1, 2, 3})
	answer := []bool{false, true, true, false}
	pair, _ := dp.New(math.Nextafter(math.Ln2, 1), 0) // e^ε just above 2
	// p_true = Pr[M = answer]: 1 − 0.3 and 1 − 0.1 for the answer-0 ends.
	in, _ := bfs.NewInstance(g, answer, []int32{0, 3}, []float64{0.7, 0.9}, pair)
	sol, _ := bfs.Solve(context.Background(), in, bfs.Propagate{}, 3)
	for v := range 4 {
		fmt.Printf("v%d: p_one %.2f, bound by v%d at distance %d\n", v+1, sol.POne[v], sol.Bind[v]+1, sol.Dist[v])
	}
	audit, _ := check.Verify(context.Background(), g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), pair, 0, 3)
	fmt.Println("violations:", audit.Violations)
	// Output:
	// v1: p_one 0.30, bound by v1 at distance 0
	// v2: p_one 0.40, bound by v4 at distance 2
	// v3: p_one 0.20, bound by v4 at distance 1
	// v4: p_one 0.10, bound by v4 at distance 0
	// violations: 0
}
