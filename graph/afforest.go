package graph

import (
	"context"
	"sync"
	"sync/atomic"
)

// countParallel is CountComponents on w > 1 goroutines: the same Afforest, with
// the union-find shared and linked by compare-and-swap (the parallel form of
// Sutton, Ben-Nun and Barak's paper and of GAP's cc.cc). Every parent pointer
// points to a smaller vertex or to itself, and a link only ever hooks a root below
// a smaller one, so the trees stay acyclic whatever the interleaving and a set's
// root is its smallest vertex (doc.go invariant 5). The sweeps take chunks of
// countChunk vertices from a shared counter. The count, a property of the graph,
// does not depend on the schedule: TestCountComponentsParallel checks it against
// Components on every shape CountComponents is tested on.
func (g *Graph) countParallel(ctx context.Context, w int) (int, error) {
	n := g.N()
	f := make([]int32, n)
	each(w, n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f[i] = int32(i)
		}
	})
	const rounds = 2
	for r := int64(0); r < rounds; r++ {
		each(w, n, func(lo, hi int) {
			for u := int32(lo); u < int32(hi); u++ {
				if i := g.Off[u] + r; i < g.Off[u+1] {
					link(f, u, g.Adj[i])
				}
			}
		})
		each(w, n, func(lo, hi int) { compress(f, lo, hi) })
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
	c := frequentRoot(f)
	each(w, n, func(lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		for u := int32(lo); u < int32(hi); u++ {
			if atomic.LoadInt32(&f[u]) == c {
				continue // u's set is c's: an edge leaving it is seen from its other end
			}
			for _, v := range g.Adj[g.Off[u]+min(rounds, g.Off[u+1]-g.Off[u]) : g.Off[u+1]] {
				link(f, u, v)
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	k := 0
	for u, p := range f {
		if int(p) == u {
			k++
		}
	}
	return k, nil
}

// link joins the sets of u and v in the shared forest f: it finds both roots
// (halving the paths it climbs) and hooks the larger below the smaller by
// compare-and-swap, starting again when another goroutine moved that root first.
// Halving stores only into vertices that are no longer roots, which no
// compare-and-swap touches, and only ever an ancestor, so concurrent halvings and
// hooks lose nothing.
func link(f []int32, u, v int32) {
	for {
		ru, rv := root(f, u), root(f, v)
		if ru == rv {
			return
		}
		high, low := max(ru, rv), min(ru, rv)
		if atomic.CompareAndSwapInt32(&f[high], high, low) {
			return
		}
	}
}

// root is x's root in the shared forest f, with path halving.
func root(f []int32, x int32) int32 {
	for {
		p := atomic.LoadInt32(&f[x])
		if p == x {
			return x
		}
		gp := atomic.LoadInt32(&f[p])
		if gp == p {
			return p
		}
		atomic.StoreInt32(&f[x], gp)
		x = gp
	}
}

// compress points every vertex of [lo, hi) at its root. No link runs meanwhile,
// so each store only shortens a path: other goroutines compressing other ranges
// read either the old parent or the root, both ancestors.
func compress(f []int32, lo, hi int) {
	for x := lo; x < hi; x++ {
		p := atomic.LoadInt32(&f[x])
		for {
			gp := atomic.LoadInt32(&f[p])
			if gp == p {
				break
			}
			p = gp
		}
		if p != atomic.LoadInt32(&f[x]) {
			atomic.StoreInt32(&f[x], p)
		}
	}
}

// frequentRoot is the most frequent parent among about 1024 evenly spaced
// vertices of f (ties: the smaller), -1 for no vertices: CountComponents' choice of
// the giant component.
func frequentRoot(f []int32) int32 {
	c := int32(-1)
	n := len(f)
	if n == 0 {
		return c
	}
	counts := map[int32]int{}
	stride := max(1, n/1024)
	best := 0
	for i := 0; i < n; i += stride {
		r := f[i]
		counts[r]++
		if counts[r] > best || (counts[r] == best && r < c) {
			best, c = counts[r], r
		}
	}
	return c
}

// countChunk is how many vertices a sweep of countParallel takes at a time.
const countChunk = 1 << 14

// each calls fn on consecutive chunks of [0, n) from w goroutines, each taking the
// next chunk when done with one, and returns when all are done.
func each(w, n int, fn func(lo, hi int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for {
				lo := int(next.Add(countChunk) - countChunk)
				if lo >= n {
					return
				}
				fn(lo, min(n, lo+countChunk))
			}
		})
	}
	wg.Wait()
}
