package bfs

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/graphgen"
)

// BenchmarkRelabelRounds measures what relabelling the vertices in BFS order (shards
// then hold connected pieces) buys the rounds engine, before any such pass is built
// (docs/BEAM.md, "Not done yet"): for a uniform random graph (no locality to find), a
// grid and an R-MAT graph (community structure), in the generator's order, randomly
// shuffled, and in BFS order from the shuffled one, it reports the share of arcs
// cut by the default shards and the rounds and offers of both colours' passes.
//
//	go test ./bfs -run '^$' -bench RelabelRounds -benchtime 1x
func BenchmarkRelabelRounds(b *testing.B) {
	const n = 1 << 18
	for _, kind := range []string{"uniform", "grid", "rmat"} {
		g, answer, hit, ptrue, pair := generated(b, graphgen.Spec{Kind: kind, N: n, M: 10 * n, Seed: 1, Epsilon: 0.5, Delta: 1e-6})
		shuffle := rand.New(rand.NewPCG(30, 3)).Perm(g.N())
		gs := relabelled(g, shuffle)
		for _, order := range []struct {
			name string
			g    *graph.Graph
			perm []int // old position → new
		}{
			{"given", g, nil},
			{"shuffled", gs, shuffle},
			{"shuffled+bfs", nil, nil},
		} {
			if order.name == "shuffled+bfs" {
				bfs := bfsOrder(gs)
				order.g = relabelled(gs, bfs)
				order.perm = make([]int, g.N())
				for v := range order.perm {
					order.perm[v] = bfs[shuffle[v]]
				}
			}
			in, err := permutedInstance(order.g, answer, hit, ptrue, pair, order.perm)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(kind+"/"+order.name, func(b *testing.B) {
				var rounds, offers int
				for b.Loop() {
					rounds, offers = 0, 0
					for _, c := range []bool{false, true} {
						_, run, err := Rounds{}.PassRounds(context.Background(), in, c)
						if err != nil {
							b.Fatal(err)
						}
						rounds, offers = rounds+run.Rounds, offers+int(run.Offers)
					}
				}
				b.ReportMetric(cutShare(order.g, DefaultShardSize), "cut-share")
				b.ReportMetric(float64(rounds), "rounds")
				b.ReportMetric(float64(offers)/float64(2*order.g.M()), "offers/arc")
			})
		}
	}
}

// relabelled is g with vertex v renamed perm[v].
func relabelled(g *graph.Graph, perm []int) *graph.Graph {
	var src, dst []int32
	for u := range g.N() {
		for _, v := range g.Neighbours(int32(u)) {
			if int(v) > u {
				src, dst = append(src, int32(perm[u])), append(dst, int32(perm[v]))
			}
		}
	}
	h, _ := graph.Build(g.N(), src, dst)
	return h
}

// bfsOrder numbers g's vertices in breadth-first order, component by component from
// the lowest unvisited position: old position → new.
func bfsOrder(g *graph.Graph) []int {
	order := make([]int, g.N())
	for v := range order {
		order[v] = -1
	}
	next := 0
	var queue []int32
	for s := range g.N() {
		if order[s] >= 0 {
			continue
		}
		order[s], next = next, next+1
		queue = append(queue[:0], int32(s))
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for _, v := range g.Neighbours(u) {
				if order[v] < 0 {
					order[v], next = next, next+1
					queue = append(queue, v)
				}
			}
		}
	}
	return order
}

// permutedInstance is the instance over g whose vertex perm[v] (v: nil is the
// identity) is the generator's v.
func permutedInstance(g *graph.Graph, answer []bool, hit []int32, ptrue []float64, pair dp.Pair, perm []int) (*Instance, error) {
	if perm == nil {
		return NewInstance(g, answer, hit, ptrue, pair)
	}
	a := make([]bool, len(answer))
	for v, x := range answer {
		a[perm[v]] = x
	}
	h := make([]int32, len(hit))
	for i, v := range hit {
		h[i] = int32(perm[v])
	}
	return NewInstance(g, a, h, ptrue, pair)
}

// cutShare is the share of g's arcs whose ends lie in different shards of size.
func cutShare(g *graph.Graph, size int) float64 {
	cut := 0
	for u := range g.N() {
		for _, v := range g.Neighbours(int32(u)) {
			if u/size != int(v)/size {
				cut++
			}
		}
	}
	return float64(cut) / float64(len(g.Adj))
}
