package report_test

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/report"
)

// A report on the optimal mechanism of the paper's path example (docs/DESIGN.md
// §10.1): its audit, its accuracy, and how it compares with randomized response.
func ExampleCompute() {
	g, _ := graph.Build(4, []int32{0, 1, 2}, []int32{1, 2, 3})
	answer := []bool{false, true, true, false}
	pair, _ := dp.New(math.Nextafter(math.Ln2, 1), 0)
	in, _ := bfs.NewInstance(g, answer, []int32{0, 3}, []float64{0.7, 0.9}, pair)
	sol, _ := bfs.Solve(context.Background(), in, bfs.Propagate{}, 3)
	r, _ := report.Compute(context.Background(), report.Input{Graph: g, Answer: answer, POne: sol.POne, Distance: sol.Dist, Pair: pair,
		ID: func(v int32) string { return "v" + strconv.Itoa(int(v)+1) }, List: 3})
	fmt.Println(r.AuditLine())
	fmt.Printf("mean p_true %.4f (min %.2f, max %.2f)\n", r.Accuracy.Mean, r.Accuracy.Min, r.Accuracy.Max)
	rr := r.RandomizedResponse
	fmt.Printf("against randomized response: %d gain, %d equal, %d lose\n", rr.Gain, rr.Equal, rr.Lose)
	// Output:
	// passed: all 12 inequalities on 3 edges hold with zero tolerance (tightest: excess -3.51e-17 on v2 – v3)
	// mean p_true 0.5500 (min 0.20, max 0.90)
	// against randomized response: 2 gain, 0 equal, 2 lose
}
