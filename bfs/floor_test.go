package bfs

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/internal/testgraph"
)

// The floor (offer.go) only drops offers box.put would drop: with and without it the
// rounds engine reaches the same field, bit for bit, in the same number of rounds, and
// sends no more offers. With the floor, the steps are a few cut arcs, so most rounds
// merge their offers several times (offerAll).
func TestRoundsFloorChangesNoResult(t *testing.T) {
	ctx := context.Background()
	forInstances(t, 600, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		for _, one := range []bool{false, true} {
			size := 1 + r.IntN(8)
			got, run, err := Rounds{ShardSize: size, Workers: 2, heldOffers: 1 + r.IntN(4)}.PassRounds(ctx, in, one)
			if err != nil {
				t.Fatal(err)
			}
			want, wantRun, err := Rounds{ShardSize: size, Workers: 2, noFloor: true}.PassRounds(ctx, in, one)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameField(got, want); err != nil {
				t.Fatalf("%s Pass %v, shards of %d: with the floor vs without: %v", name, one, size, err)
			}
			if run.Rounds != wantRun.Rounds || run.Offers > wantRun.Offers {
				t.Fatalf("%s Pass %v, shards of %d: %d rounds and %d offers with the floor, %d and %d without",
					name, one, size, run.Rounds, run.Offers, wantRun.Rounds, wantRun.Offers)
			}
		}
	})
}

// After each round's Settles the floor is Step of the least candidate they changed
// among vertices with cut arcs, and exactly the vertices whose candidates are below
// it are marked; a round whose changed vertices have fewer cut arcs than an eighth of
// the vertices has none.
func TestRaiseFloor(t *testing.T) {
	ctx := context.Background()
	forInstances(t, 300, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		for _, one := range []bool{false, true} {
			rs, _, err := Rounds{ShardSize: 1 + r.IntN(5), Workers: 2}.start(ctx, in, one)
			if err != nil {
				t.Fatal(err)
			}
			for read, round := 0, 1; rs.active(read); read, round = 1-read, round+1 {
				if err := rs.settle(ctx, rs.boxes[read]); err != nil {
					t.Fatal(err)
				}
				rs.raiseFloor()
				least, arcs := rs.p.Top(), 0
				for s, words := range rs.changed {
					for i := range int32(64 * len(words)) {
						if words[i>>6]>>(i&63)&1 == 0 {
							continue
						}
						if a := len(rs.cuts[s].Of(i)); a > 0 {
							least, arcs = min(least, rs.cur[s][i].Value), arcs+a
						}
					}
				}
				if on := arcs >= in.G.N()/8; rs.floor.on != on {
					t.Fatalf("%s Pass %v round %d: floor set %v with %d changed cut arcs of %d vertices", name, one, round, rs.floor.on, arcs, in.G.N())
				}
				if !rs.floor.on {
					if err := rs.offerAll(ctx, read); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if want := rs.p.Step(least); math.Float64bits(rs.floor.at) != math.Float64bits(want) {
					t.Fatalf("%s Pass %v round %d: floor %v, want Step(%v) = %v", name, one, round, rs.floor.at, least, want)
				}
				for s := range rs.cur {
					lo, _ := rs.l.Range(int32(s))
					for i, c := range rs.cur[s] {
						p := lo + int32(i)
						if marked := rs.floor.below[p>>6]>>(p&63)&1 != 0; marked != (c.Value < rs.floor.at) {
							t.Fatalf("%s Pass %v round %d: vertex at %d (value %v) marked %v under floor %v",
								name, one, round, p, c.Value, marked, rs.floor.at)
						}
					}
				}
				if err := rs.offerAll(ctx, read); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// On a graph without locality whose hitting set shares one p_one, the round after
// the hitting set's offers back to vertices that are already one hop from it, below
// the floor: the floor drops most of the offers (here, more than half; 80% on
// BenchmarkUniformRounds' graph, docs/BEAM.md, "The local rounds engine").
func TestRoundsFloorDropsOffersBack(t *testing.T) {
	const n, m = 4000, 20000
	r := rand.New(rand.NewPCG(3, 5))
	e := make([][2]int32, m)
	for i := range e {
		e[i] = [2]int32{int32(r.IntN(n)), int32(r.IntN(n))}
	}
	g := testgraph.FromEdges(n, e)
	var hit []int32
	var ptrue []float64
	for v := int32(0); v < n; v += 10 {
		hit, ptrue = append(hit, v), append(ptrue, 0.6)
	}
	in, err := NewInstance(g, make([]bool, n), hit, ptrue, testgraph.MustDP(0.5, 1e-6))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, one := range []bool{false, true} {
		_, run, err := Rounds{ShardSize: 64}.PassRounds(ctx, in, one)
		if err != nil {
			t.Fatal(err)
		}
		_, all, err := Rounds{ShardSize: 64, noFloor: true}.PassRounds(ctx, in, one)
		if err != nil {
			t.Fatal(err)
		}
		if 2*run.Offers > all.Offers {
			t.Fatalf("Pass %v: %d offers with the floor, %d without", one, run.Offers, all.Offers)
		}
	}
}
