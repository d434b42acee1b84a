package bfs

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/graphgen"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// relabelEngines rename always (bfs) on tiny and uneven shards, and by auto's rule.
var relabelEngines = []Rounds{
	{ShardSize: 1, Workers: 2, Relabel: RelabelBFS},
	{ShardSize: 3, Workers: 1, Relabel: RelabelBFS},
	{ShardSize: 5, Workers: 3, Relabel: RelabelAuto},
}

// A tie the renaming reverses (doc.go invariants 3 and 9). Path 0–3–2–1, hitting set
// {1, 3} with equal values, every answer 0 (no boundary: any set hits it). Vertex 2
// is one hop from both: the tie goes to the smaller position, 1. Breadth-first from
// 0 renames 3 → 1 and 1 → 3, so a tie broken by the renamed positions would bind 2
// to 3; the relabelled engine must still bind it to 1, and write what Propagate does.
func TestRelabelKeepsTiesOfTheInstance(t *testing.T) {
	g := testgraph.FromEdges(4, [][2]int32{{0, 3}, {3, 2}, {2, 1}})
	in := mustInstance(t, g, make([]bool, 4), []int32{1, 3}, []float64{0.9, 0.9}, testgraph.MustDP(0.5, 0))
	if perm := g.BFSOrder(); perm[1] != 3 || perm[3] != 1 {
		t.Fatalf("premise: BFSOrder = %v, want 1 and 3 swapped", perm)
	}
	want, err := Solve(context.Background(), in, Propagate{}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if want.Bind[2] != 1 || want.Dist[2] != 1 {
		t.Fatalf("premise: Propagate binds 2 to %d at %d, want 1 at 1", want.Bind[2], want.Dist[2])
	}
	for _, size := range []int{1, 2, 4} {
		eng := Rounds{ShardSize: size, Relabel: RelabelBFS}
		got, err := Solve(context.Background(), in, eng, 5)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameMechanism(got, want); err != nil {
			t.Fatalf("shards of %d, relabelled: %v", size, err)
		}
		if rl, err := eng.Relabelling(in); err != nil || !rl.Applied {
			t.Fatalf("shards of %d: not relabelled (%+v, %v)", size, rl, err)
		}
	}
}

// renamedPropagate is Propagate run on the renamed instance, its field laid back out
// in the instance's positions: ties then break by the renamed positions. It is what
// a renaming without invariant 9 would write.
func renamedPropagate(t *testing.T, in *Instance, one bool) *Field {
	perm := in.G.BFSOrder()
	h, inv, err := in.G.Relabel(perm)
	if err != nil {
		t.Fatal(err)
	}
	answer := make([]bool, len(in.Answer))
	for v, a := range in.Answer {
		answer[perm[v]] = a
	}
	hit := make([]int32, len(in.Hit))
	for i, v := range in.Hit {
		hit[i] = perm[v]
	}
	rin := mustInstance(t, h, answer, hit, in.PTrue, in.Pair)
	f, err := Propagate{}.Pass(context.Background(), rin, one)
	if err != nil {
		t.Fatal(err)
	}
	out := newField(len(perm), 0)
	for p, v := range inv {
		out.Value[v], out.Dist[v], out.Bind[v] = f.Value[p], f.Dist[p], -1
		if b := f.Bind[p]; b >= 0 {
			out.Bind[v] = inv[b]
		}
	}
	return out
}

// Relabelled rounds write Propagate's mechanism bit for bit (doc.go invariant 9) on
// the engines' instance families, and on the same graphs with every hitting-set value
// equal, where ties between binding vertices abound (and the values may conflict:
// the violations must agree too). The test counts the instances where breaking
// ties by the renamed positions would have written another binding vertex, and needs
// enough of them to have tested the point.
func TestRelabelledRoundsMatchPropagate(t *testing.T) {
	ctx := context.Background()
	reversed := 0
	forInstances(t, 1500, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		tied := *in
		tied.PTrue = make([]float64, len(in.PTrue))
		p := []float64{0.5, 0.9, 1, r.Float64()}[r.IntN(4)]
		for i := range tied.PTrue {
			tied.PTrue[i] = p
		}
		for _, x := range []*Instance{in, &tied} {
			want, err := Solve(ctx, x, Propagate{}, 50)
			if err != nil {
				t.Fatal(err)
			}
			for _, eng := range relabelEngines {
				got, err := Solve(ctx, x, eng, 50)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameMechanism(got, want); err != nil {
					t.Fatalf("%s: rounds(shard %d, relabel %s) vs propagate: %v", name, eng.ShardSize, eng.Relabel, err)
				}
			}
			if want.Infeasible > 0 || want.Repairs > 0 {
				continue
			}
			for _, one := range []bool{false, true} {
				f, err := Propagate{}.Pass(ctx, x, one)
				if err != nil {
					t.Fatal(err)
				}
				if sameField(renamedPropagate(t, x, one), f) != nil {
					reversed++
					return
				}
			}
		}
	})
	t.Logf("%d instances where ties broken by renamed positions would differ", reversed)
	if min := testgraph.Instances(50, 5); reversed < min { // 118 of 1,500 when written
		t.Fatalf("only %d instances where renamed positions would break a tie otherwise; want %d", reversed, min)
	}
}

// grid is the side×side grid, vertex (i, j) at position perm[i·side + j] (nil: row
// major).
func grid(side int, perm []int) *graph.Graph {
	var e [][2]int32
	at := func(i, j int) int32 {
		if perm == nil {
			return int32(i*side + j)
		}
		return int32(perm[i*side+j])
	}
	for i := range side {
		for j := range side {
			if j+1 < side {
				e = append(e, [2]int32{at(i, j), at(i, j+1)})
			}
			if i+1 < side {
				e = append(e, [2]int32{at(i, j), at(i+1, j)})
			}
		}
	}
	return testgraph.FromEdges(side*side, e)
}

// auto renames where breadth-first order cuts materially fewer arcs (relabelPays):
// a shuffled grid (its positions hide its locality), not a uniform random graph
// (nothing to find), not a grid in row-major order (its rows are already the
// cheaper cut). bfs always renames, none never counts. On the small graphs (shards
// of 256) the probe covers every vertex and the counts are exact; on the large
// ones (2^18 vertices, default shards) the probe stops auto on the uniform graph
// before the whole order is made (Sampled), and lets it through on the shuffled
// grid, whose counts are then the whole graph's.
func TestRelabelAutoPaysOnlyWithLocality(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 9))
	uniform := func(n int64) *graph.Graph {
		u, err := graphgen.New(graphgen.Spec{Kind: "uniform", N: n, M: 5 * n, Seed: 3, Epsilon: 0.5, Delta: 1e-6})
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := u.Graph()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	const side, size = 64, 256
	ug, big := uniform(side*side), uniform(1<<18)
	for _, c := range []struct {
		name             string
		g                *graph.Graph
		size             int
		mode             string
		applied, sampled bool
	}{
		{"shuffled grid", grid(side, r.Perm(side*side)), size, RelabelAuto, true, false},
		{"row-major grid", grid(side, nil), size, RelabelAuto, false, false},
		{"uniform", ug, size, RelabelAuto, false, false},
		{"uniform, bfs", ug, size, RelabelBFS, true, false},
		{"shuffled grid, none", grid(side, r.Perm(side*side)), size, RelabelNone, false, false},
		{"large uniform", big, 0, RelabelAuto, false, true},
		{"large shuffled grid", grid(512, r.Perm(512*512)), 0, RelabelAuto, true, false},
	} {
		in := mustInstance(t, c.g, make([]bool, c.g.N()), nil, nil, testgraph.MustDP(0.5, 0))
		eng := Rounds{ShardSize: c.size, Relabel: c.mode}
		rl, err := eng.Relabelling(in)
		if err != nil {
			t.Fatal(err)
		}
		if rl.Applied != c.applied || rl.Sampled != c.sampled {
			t.Errorf("%s: applied %v sampled %v, want %v %v (cut %d given, %d bfs, of %d arcs)", c.name, rl.Applied, rl.Sampled, c.applied, c.sampled, rl.CutGiven, rl.CutBFS, rl.Arcs)
		}
		switch {
		case c.mode == RelabelNone:
			if rl.Arcs != 0 || rl.CutGiven != 0 || rl.CutBFS != 0 {
				t.Errorf("%s: none counted %+v", c.name, rl)
			}
		case c.sampled:
			if rl.Arcs <= 0 || rl.Arcs >= 2*c.g.M() || rl.CutBFS*10 <= rl.CutGiven*9 {
				t.Errorf("%s: probe counts %+v", c.name, rl)
			}
		case rl.Arcs != 2*c.g.M() || rl.CutGiven != cutGiven(c.g, shardSizeOf(eng)):
			t.Errorf("%s: counts %+v", c.name, rl)
		}
	}
}

// shardSizeOf is e's shard size, its default where none is set.
func shardSizeOf(e Rounds) int {
	if e.ShardSize <= 0 {
		return DefaultShardSize
	}
	return e.ShardSize
}

// cutGiven is the arcs of g cut by shards of size.
func cutGiven(g *graph.Graph, size int) int64 {
	c, _ := g.CutArcs(graph.Layout{N: int32(g.N()), Size: int32(size)}, nil)
	return c
}

// A mode that is not one of RelabelModes is an error, not a silent none.
func TestRelabelRejectsUnknownMode(t *testing.T) {
	in := mustInstance(t, testgraph.FromEdges(2, [][2]int32{{0, 1}}), []bool{false, false}, nil, nil, testgraph.MustDP(0.5, 0))
	if _, err := (Rounds{Relabel: "metis"}).Pass(context.Background(), in, false); err == nil {
		t.Fatal("relabel mode metis accepted")
	}
}

// Tally sums the runs of every pass on an instance and its copies: PassRounds' own
// reports, and Solve's two passes a solve (one more solve per repair).
func TestRoundsTallySumsPasses(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 11))
	in := randomInstance(r, testgraph.Families[0], 200, testgraph.Pairs[0])
	eng := Rounds{ShardSize: 7, Relabel: RelabelBFS}
	var want RoundsTally
	for _, one := range []bool{false, true, true} {
		_, run, err := eng.PassRounds(context.Background(), in, one)
		if err != nil {
			t.Fatal(err)
		}
		want.Passes, want.Rounds, want.Offers = want.Passes+1, want.Rounds+run.Rounds, want.Offers+run.Offers
	}
	// The tally also keeps the layout and the renaming the passes ran on.
	want.Layout = graph.Layout{N: 200, Size: 7}
	if want.Relabelled, _ = eng.Relabelling(in); !want.Relabelled.Applied {
		t.Fatalf("relabel bfs not applied: %+v", want.Relabelled)
	}
	if got := eng.Tally(in); got != want || want.Rounds < 3 || want.Offers == 0 {
		t.Fatalf("Tally %+v, want %+v (with rounds and offers)", got, want)
	}
	fresh := randomInstance(r, testgraph.Families[0], 200, testgraph.Pairs[0])
	sol, err := Solve(context.Background(), fresh, eng, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := eng.Tally(fresh); got.Passes != 2*(1+sol.Repairs) {
		t.Fatalf("Tally %+v after a solve with %d repairs", got, sol.Repairs)
	}
}
