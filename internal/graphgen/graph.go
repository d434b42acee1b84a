package graphgen

import (
	"context"

	"github.com/graphdp/graphdp/graph"
)

// Graph builds the instance's graph in memory (vertices are positions) with the
// streaming graph.Builder a run uses: one pass over Edges, the rows generated and
// never held (New bounds n to int32 positions). It is the run's graph without
// Parquet, for benchmarks at sizes where holding the rows would not fit;
// HittingSet works after it.
func (g *Gen) Graph() (*graph.Graph, graph.BuildStats, error) {
	b := graph.NewBuilder(int(g.n), g.Rows(), 1)
	if err := g.Edges(b.Add); err != nil {
		return nil, graph.BuildStats{}, err
	}
	return b.Finish(context.Background(), 0)
}
