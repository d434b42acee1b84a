package beam

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/graphdp/graphdp/bfs"
)

// Staged offers (Prism's rounds, sendOffers) reach each shard as the same offers, in
// the same order, as shuffled ones: one file per receiving shard holds both colours'
// blocks, and the element shuffled to the receiver names that file and carries no
// offer. A reference to a file that is not there, or to garbage, fails.
func TestStagedOffersMatchShuffled(t *testing.T) {
	ctx := context.Background()
	staging := t.TempDir()
	cand := func(v float64, bind, dist int32) bfs.Cand { return bfs.Cand{Value: v, A: 0.25, Bind: bind, Dist: dist} }
	// Shard 1 offers to shards 0 and 3 in colour 0, to shard 3 only in colour 1,
	// as settleColours lists them: colour 0's blocks by receiver, then colour 1's.
	offers := []struct {
		one bool
		o   bfs.Offers
	}{
		{false, bfs.Offers{To: 0, From: 1, V: []int32{2, 7}, C: []bfs.Cand{cand(0.5, 11, 1), cand(math.Copysign(0, -1), 12, 2)}}},
		{false, bfs.Offers{To: 3, From: 1, V: []int32{30}, C: []bfs.Cand{cand(0.75, 11, 3)}}},
		{true, bfs.Offers{To: 3, From: 1, V: []int32{31, 33}, C: []bfs.Cand{cand(0.125, 13, 1), cand(0.875, 13, 4)}}},
	}
	var msgs []offerMsg
	for _, x := range offers {
		msgs = append(msgs, offerMsg{to: x.o.To, b: encodeOffers(x.one, x.o)})
	}
	token := (&token{Full: 4}).encode()
	for _, staged := range []bool{false, true} {
		got := map[int][][]byte{}
		emit := func(to int, b []byte) { got[to] = append(got[to], b) }
		if err := sendOffers(ctx, staging, staged, 5, 1, msgs, emit); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || len(got[0]) == 0 || len(got[3]) == 0 {
			t.Fatalf("staged %v: sent to %v, want shards 0 and 3", staged, got)
		}
		for to, elems := range got {
			for _, b := range elems {
				if staged && (b[0] != tagStaged || len(b) > 8) {
					t.Errorf("staged: shard %d was sent %d bytes with tag %q, want a small reference", to, len(b), b[0])
				}
			}
			elems = append([][]byte{token}, elems...)
			tok, in, err := gather(ctx, staging, to, func() ([]byte, bool) {
				if len(elems) == 0 {
					return nil, false
				}
				b := elems[0]
				elems = elems[1:]
				return b, true
			})
			if err != nil || tok.Full != 4 {
				t.Fatalf("staged %v: shard %d: token %+v, %v", staged, to, tok, err)
			}
			var want [2][]bfs.Offers
			for _, x := range offers {
				if int(x.o.To) == to {
					k := 0
					if x.one {
						k = 1
					}
					want[k] = append(want[k], x.o)
				}
			}
			if !reflect.DeepEqual(in, want) {
				t.Errorf("staged %v: shard %d gathered %+v, want %+v", staged, to, in, want)
			}
			if c := in[0]; to == 0 && math.Signbit(c[0].C[1].Value) != true {
				t.Errorf("staged %v: −0 lost on the way", staged)
			}
		}
	}
	for name, ref := range map[string][]byte{
		"no such file": {tagStaged, 10, 2}, // round 5, shard 1: no file for shard 2
		"trailing":     {tagStaged, 10, 2, 0},
		"truncated":    {tagStaged},
	} {
		elems := [][]byte{token, ref}
		_, _, err := gather(ctx, staging, 2, func() ([]byte, bool) {
			if len(elems) == 0 {
				return nil, false
			}
			b := elems[0]
			elems = elems[1:]
			return b, true
		})
		if err == nil {
			t.Errorf("%s: gathered without an error", name)
		}
		if name != "no such file" && !errors.Is(err, errCorrupt) {
			t.Errorf("%s: %v, want errCorrupt", name, err)
		}
	}
}

// valuePairs lists the distinct (value, source value) pairs by their bits in the
// order they first occur, and each offer's index there, however many pairs its
// table grows to hold; with more pairs than half the offers it gives none. The
// reference is a Go map keyed by the bits.
func TestValuePairs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 30))
	const n = 400
	for _, distinct := range []int{1, 2, 5, 33, 64, 100, 199, n / 2, n/2 + 1, n} {
		vals := make([][2]float64, distinct)
		for k := range vals {
			vals[k] = [2]float64{r.Float64(), r.Float64()}
		}
		vals[0][0] = math.Copysign(0, -1) // −0 and +0 are two pairs
		if distinct > 1 {
			vals[1] = [2]float64{0, vals[0][1]}
		}
		cs := make([]bfs.Cand, n)
		for j := range cs {
			k := j % distinct // every pair occurs
			if j >= distinct {
				k = r.IntN(distinct)
			}
			cs[j] = bfs.Cand{Value: vals[k][0], A: vals[k][1], Bind: int32(j), Dist: 1}
		}
		pairs, idx := valuePairs(cs)
		at := map[[2]uint64]uint32{}
		var want [][2]uint64
		for _, c := range cs {
			key := [2]uint64{math.Float64bits(c.Value), math.Float64bits(c.A)}
			if _, ok := at[key]; !ok {
				at[key] = uint32(len(want))
				want = append(want, key)
			}
		}
		if len(want) > n/2 {
			if pairs != nil || idx != nil {
				t.Errorf("%d distinct pairs of %d offers: a table of %d", distinct, n, len(pairs))
			}
			continue
		}
		if !reflect.DeepEqual(pairs, want) {
			t.Fatalf("%d distinct pairs: got %d pairs, want %d", distinct, len(pairs), len(want))
		}
		for j, c := range cs {
			if idx[j] != at[[2]uint64{math.Float64bits(c.Value), math.Float64bits(c.A)}] {
				t.Fatalf("%d distinct pairs: offer %d indexes %d", distinct, j, idx[j])
			}
		}
	}
}
