package bfs

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/internal/progress"
)

// PerSource is the paper's Algorithm 1 as written (docs/DESIGN.md §5): one
// breadth-first search from every hitting-set vertex h, bounded at the depth where
// U^d(a_c(h)) reaches 1 and pruned at vertices where it does not improve the running
// minimum, reduced by per-vertex minimum. Workers (an errgroup pool) each keep a
// private minimum over a strided share of the sources, so no locks are taken; the
// reduction by the candidate order (doc.go, invariant 3; keys in instance.go) is
// order-independent, which keeps the output deterministic. Worst case O(|H|·(V+E));
// it is the oracle for Propagate.
type PerSource struct {
	Workers int // 0 means GOMAXPROCS
}

// Name is the engine's name in flags and metadata.
func (PerSource) Name() string { return "per-source" }

// Pass computes g_c for every vertex.
func (e PerSource) Pass(ctx context.Context, in *Instance, one bool) (*Field, error) {
	n, c := in.G.N(), NewPass(in.Pair, one)
	src := in.sources(c)
	w := e.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	w = max(1, min(w, len(src)))
	top := c.Top()
	fields := make([]*Field, w)
	order := make([]*keys, w)
	grp, gctx := errgroup.WithContext(ctx)
	grp.SetLimit(w)
	for k := 0; k < w; k++ {
		grp.Go(func() error {
			f := newField(n, top)
			fields[k] = f
			order[k] = newKeys(in, c, src)
			s := newSearch(n, order[k])
			// Strided shares keep every worker's sources in ascending a_c, so low
			// values (which prune the most) go first on each worker.
			for i := k; i < len(src); i += w {
				if err := gctx.Err(); err != nil {
					return err
				}
				s.run(in, src[i], f)
				// Per source: its share of the pass's n vertices.
				progress.From(gctx).Add(int64(n) / int64(len(src)))
			}
			return nil
		})
	}
	if err := grp.Wait(); err != nil {
		return nil, err
	}
	out, key := fields[0], order[0]
	for _, f := range fields[1:] {
		out.Scans += f.Scans
		for v := range out.Value {
			if f.Bind[v] >= 0 && (out.Bind[v] < 0 || key.less(f.Value[v], f.Dist[v], f.Bind[v], out.Value[v], out.Dist[v], out.Bind[v])) {
				out.Value[v], out.Dist[v], out.Bind[v] = f.Value[v], f.Dist[v], f.Bind[v]
			}
		}
	}
	return out, nil
}

// search is one worker's reusable BFS state; seen[v] == stamp marks v as visited by
// the current source without clearing the array between sources.
type search struct {
	key   *keys
	seen  []uint32
	stamp uint32
	level []int32
	next  []int32
}

func newSearch(n int, key *keys) *search { return &search{seen: make([]uint32, n), key: key} }

// run is one bounded, pruned BFS from s, folding its keys into f.
func (s *search) run(in *Instance, h source, f *Field) {
	g, c := in.G, s.key.c
	top := c.Top()
	s.stamp++
	if s.stamp == 0 { // wrapped: clear once every 2^32 sources
		clear(s.seen)
		s.stamp = 1
	}
	s.seen[h.v] = s.stamp
	s.level = append(s.level[:0], h.v)
	val := h.a
	for d := int32(0); len(s.level) > 0; d++ {
		s.next = s.next[:0]
		for _, x := range s.level {
			// Prune: a key no better than x's running minimum cannot improve anything
			// beyond x either (U is monotone).
			if f.Bind[x] >= 0 && !s.key.less(val, d, h.v, f.Value[x], f.Dist[x], f.Bind[x]) {
				continue
			}
			f.Value[x], f.Dist[x], f.Bind[x] = val, d, h.v
			f.Scans += g.Off[x+1] - g.Off[x]
			for _, y := range g.Adj[g.Off[x]:g.Off[x+1]] {
				if s.seen[y] != s.stamp {
					s.seen[y] = s.stamp
					s.next = append(s.next, y)
				}
			}
		}
		val = c.Step(val)
		if val >= top { // depth bound: a value at the top constrains nothing
			break
		}
		s.level, s.next = s.next, s.level
	}
}
