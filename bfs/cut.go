package bfs

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/graphdp/graphdp/graph"
)

// Cut is a shard's cut arcs on dense indices (doc.go invariant 8): the shard's
// neighbours in other shards ("foreign" vertices) are numbered 0..F−1 once, in
// ascending position, when the shard's block is built, so the kernel keeps what it
// offers and what it knows of them in arrays indexed by that number, never in maps
// keyed by vertex. Shards are ranges of consecutive positions, so each neighbouring
// shard's foreign vertices are one run of numbers: the offers come out grouped by
// destination shard and by vertex without a sort.
type Cut struct {
	Self    int32   // the shard
	Lo, Hi  int32   // its positions [Lo, Hi)
	Foreign []int32 // the foreign vertices, ascending; a foreign vertex's number is its index
	To      []int32 // the neighbouring shards, ascending
	ToOff   []int32 // Foreign[ToOff[k]:ToOff[k+1]] lie in shard To[k]
	Off     []int32 // the shard's i-th vertex's cut arcs are Arc[Off[i]:Off[i+1]]
	Arc     []int32 // foreign numbers, ascending per vertex (as the CSR lists are)
	// The positions of Arc's vertices (Foreign[Arc[j]]), which the rounds engine's
	// senders read its floor by (offer.go); nil in NewCut's cuts (Beam's).
	ArcAt []int32
}

// Arcs is the number of cut arcs leaving the shard.
func (c *Cut) Arcs() int { return len(c.Arc) }

// Of are the foreign numbers of the shard's i-th vertex's cut arcs, ascending.
func (c *Cut) Of(i int32) []int32 { return c.Arc[c.Off[i]:c.Off[i+1]] }

// Bytes is the Cut's size in memory.
func (c *Cut) Bytes() int64 {
	return 4 * int64(len(c.Foreign)+len(c.To)+len(c.ToOff)+len(c.Off)+len(c.Arc)+len(c.ArcAt))
}

// cutScratch is NewCut's bitmap over all positions and its rank per word, reused
// from shard to shard (only the words a shard touched are cleared).
type cutScratch struct {
	mark  []uint64
	rank  []int32
	words []int32 // the words of mark set by the current shard
}

// NewCut numbers the foreign neighbours of shard sh of layout l. It reads sh's lists
// twice and sorts nothing: foreign vertices are marked in a bitmap over all positions,
// and a vertex's number is its rank there.
func NewCut(l graph.Layout, sh *graph.Shard) (*Cut, error) {
	var s cutScratch
	return s.cut(l, sh, false)
}

// cut is the rounds engine's cut of shard sh: NewCut's, with its arcs' positions
// (ArcAt), on the Stepper's scratch, reused from shard to shard.
func (s *Stepper) cut(l graph.Layout, sh *graph.Shard) (*Cut, error) {
	return s.cs.cut(l, sh, true)
}

func (s *cutScratch) cut(l graph.Layout, sh *graph.Shard, withAt bool) (*Cut, error) {
	n := sh.Len()
	lo, hi := sh.Lo, sh.Lo+int32(n)
	if self := l.Of(lo); n > 0 && (lo < 0 || hi > l.N || l.Of(hi-1) != self) {
		return nil, fmt.Errorf("bfs: shard at %d of %d vertices is not one shard of layout %+v", lo, n, l)
	}
	nw := (int(l.N) + 63) / 64
	if len(s.mark) < nw {
		s.mark = make([]uint64, nw)
		s.rank = make([]int32, nw)
	}
	c := &Cut{Self: l.Of(lo), Lo: lo, Hi: hi, Off: make([]int32, n+1)}
	if n == 0 {
		return c, nil
	}
	s.words = s.words[:0]
	// Words in ascending order give the foreign vertices ascending: where the shard's
	// lists are few next to all the words, the words they touch are kept and sorted;
	// else all words are scanned for them afterwards, and none is kept here (a test
	// each arc that mispredicts).
	sparse := sh.Off[n]-sh.Off[0] < int64(nw/16)
	arcs := 0
	for i := range n {
		for _, w := range sh.Neighbours(i) {
			if w >= lo && w < hi {
				continue
			}
			if w < 0 || w >= l.N {
				return nil, fmt.Errorf("bfs: shard at %d: neighbour %d outside the layout's %d vertices", lo, w, l.N)
			}
			if sparse && s.mark[w>>6] == 0 {
				s.words = append(s.words, w>>6)
			}
			s.mark[w>>6] |= 1 << (w & 63)
			arcs++
		}
		c.Off[i+1] = int32(arcs)
	}
	if sparse {
		slices.Sort(s.words)
	} else {
		s.words = s.words[:0]
		for k, m := range s.mark[:nw] {
			if m != 0 {
				s.words = append(s.words, int32(k))
			}
		}
	}
	f := int32(0)
	for _, k := range s.words {
		s.rank[k] = f
		f += int32(bits.OnesCount64(s.mark[k]))
	}
	c.Foreign = make([]int32, 0, f)
	next := int32(0) // the first position past the last foreign vertex's shard
	for _, k := range s.words {
		for m := s.mark[k]; m != 0; m &= m - 1 {
			w := k<<6 + int32(bits.TrailingZeros64(m))
			if w >= next { // a new neighbouring shard: one division a shard, not a vertex
				t := l.Of(w)
				_, next = l.Range(t)
				c.To = append(c.To, t)
				c.ToOff = append(c.ToOff, int32(len(c.Foreign)))
			}
			c.Foreign = append(c.Foreign, w)
		}
	}
	c.ToOff = append(c.ToOff, int32(len(c.Foreign)))
	c.Arc = make([]int32, 0, arcs)
	if withAt {
		c.ArcAt = make([]int32, 0, arcs)
	}
	for i := range n {
		for _, w := range sh.Neighbours(i) {
			if w >= lo && w < hi {
				continue
			}
			k := w >> 6
			below := s.mark[k] & (1<<(w&63) - 1)
			c.Arc = append(c.Arc, s.rank[k]+int32(bits.OnesCount64(below)))
			if withAt {
				c.ArcAt = append(c.ArcAt, w)
			}
		}
	}
	for _, k := range s.words {
		s.mark[k] = 0
	}
	return c, nil
}

// dest is the index in c.To of shard t, or −1.
func (c *Cut) dest(t int32) int {
	k, ok := slices.BinarySearch(c.To, t)
	if !ok {
		return -1
	}
	return k
}

// cutCache holds the rounds engine's cuts of an instance's shards.
type cutCache struct {
	sync.Mutex
	of map[cutKey][]*Cut
}

type cutKey struct {
	g *graph.Graph
	l graph.Layout
}
