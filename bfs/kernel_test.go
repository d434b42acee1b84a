package bfs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphdp/graphdp/graph"
)

// SettleCut, which settles a seed of a vertex with no neighbour in its shard at once
// (unsorted, its list unread), reaches the same candidates and changes the same
// vertices as Settle, which queues every seed, on every shard of layouts that leave
// some vertices with neighbours inside their shard and some without; and Offer then
// sends the same lists after either.
func TestSettleCutMatchesSettle(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 8))
	forInstances(t, 300, func(t *testing.T, name string, _ *rand.Rand, in *Instance) {
		n := in.G.N()
		l, err := graph.NewLayout(n, 1+r.IntN(max(1, n/2)))
		if err != nil {
			t.Fatal(err)
		}
		for _, one := range []bool{false, true} {
			p := NewPass(in.Pair, one)
			s, sc := p.NewStepper(), p.NewStepper()
			for sh := range int32(l.Shards()) {
				block := in.G.ShardOf(l, sh)
				cut, err := NewCut(l, block)
				if err != nil {
					t.Fatal(err)
				}
				offers := randomOffers(r, p, s, block, n)
				// Candidates before the offers: None, or from an earlier round.
				base := p.NoneBlock(block.Len())
				s.Settle(block, base, randomOffers(r, p, s, block, n))
				plain, withCut := slices.Clone(base), slices.Clone(base)
				ch := s.Settle(block, plain, offers)
				chCut := sc.SettleCut(block, cut, withCut, offers)
				if !slices.Equal(plain, withCut) {
					t.Fatalf("%s shard %d pass %v: SettleCut's candidates differ from Settle's", name, sh, one)
				}
				slices.Sort(ch)
				slices.Sort(chCut)
				if !slices.Equal(ch, chCut) {
					t.Fatalf("%s shard %d pass %v: SettleCut changed %v, Settle %v", name, sh, one, chCut, ch)
				}
				got, _ := sc.Offer(cut, withCut, chCut, offers)
				want, _ := s.Offer(cut, plain, ch, offers)
				if len(got) != len(want) {
					t.Fatalf("%s shard %d pass %v: %d offer lists after SettleCut, %d after Settle", name, sh, one, len(got), len(want))
				}
				for k := range got {
					if got[k].To != want[k].To || !slices.Equal(got[k].V, want[k].V) || !slices.Equal(got[k].C, want[k].C) {
						t.Fatalf("%s shard %d pass %v: offer list %d differs", name, sh, one, k)
					}
				}
			}
		}
	})
}

// randomOffers is one list of random candidates for random vertices of block, as a
// neighbouring shard (number −2: none of the layout's) would offer them: sources with
// values from a small set (ties), extended a few hops.
func randomOffers(r *rand.Rand, p Pass, s *Stepper, block *graph.Shard, n int) []Offers {
	o := Offers{To: -1, From: -2}
	for i := range int32(block.Len()) {
		if r.IntN(2) == 0 {
			continue
		}
		b := r.IntN(n)
		a := p.Seed([]float64{0, 0.3, 0.5, 0.5, 0.9, 1}[b%6])
		c := Cand{Value: a, A: a, Bind: int32(b), Dist: 0}
		for range r.IntN(3) {
			if e, ok := s.Extend(c); ok {
				c = e
			}
		}
		o.V, o.C = append(o.V, block.Lo+i), append(o.C, c)
	}
	return []Offers{o}
}
