package optimize_test

import (
	"context"
	"fmt"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/optimize"
)

// On a path of six datasets, answers 0 0 0 1 1 1, where the answer-1 datasets
// weigh 3 and the default floor (randomized response's α) is lowered to none
// (Explicit): the optimum favours them, beats the balanced α on the same hitting set,
// and comes with a certified upper bound that no (ε,δ)-DP mechanism exceeds.
func ExampleOptimize() {
	g, _ := graph.Build(6, []int32{0, 1, 2, 3, 4}, []int32{1, 2, 3, 4, 5})
	pair, _ := dp.New(0.5, 0)
	p := &optimize.Problem{G: g, Answer: []bool{false, false, false, true, true, true},
		Weight: []float64{1, 1, 1, 3, 3, 3}, Pair: pair}
	r, err := optimize.Optimize(context.Background(), p, optimize.Options{Gap: 1e-6, Explicit: [2]bool{true, true}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hitting set:", r.Hit, "converged:", r.Converged)
	fmt.Printf("utility %.3f ≤ optimum ≤ %.3f of %g; balanced α %.3f\n", r.Utility, r.Upper, r.TotalWeight, r.Balanced)
	fmt.Println("answer-1 side more accurate:", r.Solution.POne[3] > 1-r.Solution.POne[2])
	// Output:
	// hitting set: [2] converged: true
	// utility 9.415 ≤ optimum ≤ 9.415 of 12; balanced α 9.018
	// answer-1 side more accurate: true
}
