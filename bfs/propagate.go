package bfs

import "context"

// Propagate is the default engine (DESIGN §4): label-setting from the hitting set,
// which is sorted by a_c and merged with one FIFO of vertex ids. Because the same
// non-decreasing U with U(x) ≥ x sits on every edge, values leave the FIFO in
// non-decreasing order (instance.go: the colour-0 pass runs on −p_one with the lower
// bound L, so both passes minimise), so each vertex is settled at its first pop and enters the
// FIFO at most once: O(|H| log |H| + V + E) per colour. Values at the top (p_one
// bound 1 or 0) constrain nothing and are never queued.
type Propagate struct{}

// Name is the engine's name in flags and metadata.
func (Propagate) Name() string { return "propagate" }

// Colour computes g_c for every vertex.
func (Propagate) Colour(ctx context.Context, in *Instance, one bool) (*Field, error) {
	g, c := in.G, colour{one, in.Pair}
	n := g.N()
	top := c.Top()
	f := newField(n, top)
	const (
		fresh uint8 = iota
		queued
		settled
	)
	state := make([]uint8, n)
	fifo := make([]int32, 0, min(n, 1<<16))
	src := in.sources(c)
	head, next := 0, 0
	var steps int
	for {
		// Pop the smaller key; a hitting-set entry (distance 0) wins ties.
		var x int32
		if next < len(src) && (head == len(fifo) || src[next].a <= f.Value[fifo[head]]) {
			s := src[next]
			next++
			if state[s.v] == settled {
				continue // a smaller value reached it first: infeasible (feasibility.go)
			}
			x = s.v
			f.Value[x], f.Dist[x], f.Bind[x] = s.a, 0, x
		} else if head < len(fifo) {
			x = fifo[head]
			head++
			if state[x] == settled {
				continue // settled earlier by its own hitting-set entry
			}
		} else {
			break
		}
		state[x] = settled
		if steps++; steps&0xffff == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		offer := c.Step(f.Value[x])
		if offer >= top {
			continue
		}
		d, b := f.Dist[x]+1, f.Bind[x]
		f.Scans += g.Off[x+1] - g.Off[x]
		for _, y := range g.Adj[g.Off[x]:g.Off[x+1]] {
			if state[y] == fresh {
				state[y] = queued
				f.Value[y], f.Dist[y], f.Bind[y] = offer, d, b
				fifo = append(fifo, y)
			}
		}
	}
	return f, nil
}
