package graph_test

import (
	"context"
	"fmt"

	"github.com/graphdp/graphdp/graph"
)

// Build takes edge rows as they come: here a triangle with a repeated row, a row
// in the other direction and a self-loop, which it drops and counts.
func ExampleBuild() {
	g, st := graph.Build(4, []int32{0, 1, 2, 1, 2}, []int32{1, 2, 0, 0, 2})
	fmt.Printf("%d vertices, %d edges; rows %d: kept %d, duplicates %d, self-loops %d\n",
		g.N(), g.M(), st.Rows, st.Kept, st.Duplicates, st.SelfLoops)
	for v := range int32(g.N()) {
		fmt.Println(v, g.Neighbours(v))
	}
	k, _ := g.CountComponents(context.Background())
	fmt.Println("components:", k)
	// Output:
	// 4 vertices, 3 edges; rows 5: kept 3, duplicates 1, self-loops 1
	// 0 [1 2]
	// 1 [0 2]
	// 2 [0 1]
	// 3 []
	// components: 2
}
