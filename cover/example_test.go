package cover_test

import (
	"context"
	"fmt"

	"github.com/graphdp/graphdp/cover"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// On the path 0 – 1 – 2 – 3 – 4 with alternating answers every edge is a boundary
// edge; a maximum matching has 2 edges, so (König) a minimum boundary-hitting set
// has 2 vertices, where all 5 boundary vertices would also do.
func ExampleBoundary() {
	g, _ := graph.Build(5, []int32{0, 1, 2, 3}, []int32{1, 2, 3, 4})
	answer := []bool{false, true, false, true, false}
	c, _ := cover.Boundary(context.Background(), g, answer)
	fmt.Printf("%d boundary edges, %d boundary vertices, matching %d, cover %v\n", c.BoundaryEdges, c.Boundary, c.Matching, c.Vertices)
	fmt.Println("every boundary vertex:", cover.BoundaryVertices(g, answer))
	pair, _ := dp.New(0.5, 0)
	fmt.Printf("balanced p_true: %.6f\n", cover.Balanced(pair).Values(c.Vertices, answer))
	// Output:
	// 4 boundary edges, 5 boundary vertices, matching 2, cover [1 3]
	// every boundary vertex: [0 1 2 3 4]
	// balanced p_true: [0.622459 0.622459]
}
