package bfs

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/graphgen"
)

// BenchmarkRelabelRounds measures what renaming the vertices in breadth-first order
// (Rounds.Relabel; shards then hold connected pieces) buys the rounds engine
// (docs/BEAM.md, "Cuts that follow the graph"): for a uniform random graph (no
// locality to find), a grid and an R-MAT graph (community structure), in the
// generator's order, randomly shuffled, and shuffled then renamed by the engine
// (bfs, and auto's choice), it reports the share of arcs cut by the default shards
// and the rounds and offers of both colours' passes, and the ratio of the arcs a
// breadth-first order cuts to those the order cuts, as auto's probe estimates it
// (probe-ratio, graph.ProbeCut) and over the whole graph (bfs-ratio). The
// renaming's own cost (the
// breadth-first order, the cut counts, the renamed graph) is in the first loop's
// time: each iteration starts from a fresh instance.
//
//	go test ./bfs -run '^$' -bench RelabelRounds -benchtime 1x
//
// GRAPHDP_BENCH_RELABEL_N sets the vertices (default 2^18) and
// GRAPHDP_BENCH_RELABEL_KINDS the graphs (default uniform,grid,rmat).
func BenchmarkRelabelRounds(b *testing.B) {
	n := int64(1 << 18)
	if s := os.Getenv("GRAPHDP_BENCH_RELABEL_N"); s != "" {
		var err error
		if n, err = strconv.ParseInt(s, 10, 64); err != nil {
			b.Fatal(err)
		}
	}
	kinds := []string{"uniform", "grid", "rmat"}
	if s := os.Getenv("GRAPHDP_BENCH_RELABEL_KINDS"); s != "" {
		kinds = strings.Split(s, ",")
	}
	for _, kind := range kinds {
		g, answer, hit, ptrue, pair := generated(b, graphgen.Spec{Kind: kind, N: n, M: 10 * n, Seed: 1, Epsilon: 0.5, Delta: 1e-6})
		shuffle := rand.New(rand.NewPCG(30, 3)).Perm(g.N())
		perm := make([]int32, len(shuffle))
		for v, p := range shuffle {
			perm[v] = int32(p)
		}
		gs, _, err := g.Relabel(perm)
		if err != nil {
			b.Fatal(err)
		}
		for _, order := range []struct {
			name, relabel string
			g             *graph.Graph
			perm          []int32 // old position → new
		}{
			{"given", RelabelNone, g, nil},
			{"shuffled", RelabelNone, gs, perm},
			{"shuffled+bfs", RelabelBFS, gs, perm},
			{"shuffled+auto", RelabelAuto, gs, perm},
		} {
			l := graph.Layout{N: int32(order.g.N()), Size: DefaultShardSize}
			_, pg, pr := order.g.ProbeCut(l, max(probeShards*DefaultShardSize, probeVertices))
			fg, fr := order.g.CutArcs(l, order.g.BFSOrder())
			probe, full := float64(pr)/float64(pg), float64(fr)/float64(fg)
			b.Run(kind+"/"+order.name, func(b *testing.B) {
				var rounds, offers int
				var rl Relabelling
				eng := Rounds{Relabel: order.relabel}
				for b.Loop() {
					in, err := permutedInstance(order.g, answer, hit, ptrue, pair, order.perm)
					if err != nil {
						b.Fatal(err)
					}
					rounds, offers = 0, 0
					for _, c := range []bool{false, true} {
						_, run, err := eng.PassRounds(context.Background(), in, c)
						if err != nil {
							b.Fatal(err)
						}
						rounds, offers = rounds+run.Rounds, offers+int(run.Offers)
					}
					if rl, err = eng.Relabelling(in); err != nil {
						b.Fatal(err)
					}
				}
				cut := float64(cutGiven(order.g, DefaultShardSize)) / float64(len(order.g.Adj))
				applied := 0.0
				if rl.Applied {
					applied, cut = 1, rl.CutShare(rl.CutBFS)
				}
				b.ReportMetric(cut, "cut-share")
				b.ReportMetric(probe, "probe-ratio")
				b.ReportMetric(full, "bfs-ratio")
				b.ReportMetric(applied, "relabelled")
				b.ReportMetric(float64(rounds), "rounds")
				b.ReportMetric(float64(offers)/float64(2*order.g.M()), "offers/arc")
			})
		}
	}
}

// permutedInstance is the instance over g whose vertex perm[v] (v: nil is the
// identity) is the generator's v.
func permutedInstance(g *graph.Graph, answer []bool, hit []int32, ptrue []float64, pair dp.Pair, perm []int32) (*Instance, error) {
	if perm == nil {
		return NewInstance(g, answer, hit, ptrue, pair)
	}
	a := make([]bool, len(answer))
	for v, x := range answer {
		a[perm[v]] = x
	}
	h := make([]int32, len(hit))
	for i, v := range hit {
		h[i] = perm[v]
	}
	return NewInstance(g, a, h, ptrue, pair)
}
