package optimize

import (
	"context"
)

// flowNet is a float64 max-flow network from node 0 (the source) to node 1 (the
// sink), solved by Dinic's algorithm with the levels counted back from the sink.
// Arcs are added as pairs (an arc and its residual), then laid out by tail
// (compressed rows) before the first solve, so a node's arcs are read
// contiguously. The networks of forest.go have a million nodes and few paths
// left after a greedy first pass, so each level search starts where capacity
// to the sink is left and stops at the first level that reaches the source: it
// visits the region that can still gain, not the network.
type flowNet struct {
	nodes int
	tail  []int32 // while adding: arc i's tail and head, capacity
	head  []int32
	cap   []float64
	// After layout: node u's arcs are positions off[u]:off[u+1] of head and cap,
	// rev[k] the position of k's partner, pos[i] the position of added arc i;
	// source[v], sink[v] the positions of the arcs 0→v and v→1 (−1 for none).
	off, rev, pos, source, sink []int32
	eps                         float64 // capacities at most eps count as saturated
}

func newFlowNet(nodes, arcs int) *flowNet {
	return &flowNet{nodes: nodes, tail: make([]int32, 0, 2*arcs),
		head: make([]int32, 0, 2*arcs), cap: make([]float64, 0, 2*arcs)}
}

// add adds the arc u→v of capacity c and returns its index for flow and raise.
func (f *flowNet) add(u, v int32, c float64) int {
	f.tail = append(f.tail, u, v)
	f.head = append(f.head, v, u)
	f.cap = append(f.cap, c, 0)
	return len(f.cap) - 2
}

// flow is the flow on added arc i (its partner's capacity).
func (f *flowNet) flow(i int) float64 { return f.cap[f.rev[f.pos[i]]] }

// raise adds c to added arc i's capacity.
func (f *flowNet) raise(i int, c float64) { f.cap[f.pos[i]] += c }

// layout sorts the arcs by tail.
func (f *flowNet) layout(ctx context.Context) error {
	check := pace(ctx)
	f.off = make([]int32, f.nodes+1)
	for _, u := range f.tail {
		f.off[u+1]++
	}
	for u := range f.nodes {
		f.off[u+1] += f.off[u]
	}
	next := append([]int32(nil), f.off[:f.nodes]...)
	f.pos = make([]int32, len(f.tail))
	for i, u := range f.tail {
		if err := check(); err != nil {
			return err
		}
		f.pos[i] = next[u]
		next[u]++
	}
	head, cap, rev := make([]int32, len(f.head)), make([]float64, len(f.cap)), make([]int32, len(f.head))
	f.source, f.sink = make([]int32, f.nodes), make([]int32, f.nodes)
	for v := range f.nodes {
		f.source[v], f.sink[v] = -1, -1
	}
	for i, k := range f.pos {
		if err := check(); err != nil {
			return err
		}
		head[k], cap[k], rev[k] = f.head[i], f.cap[i], f.pos[i^1]
		if i%2 == 0 {
			switch {
			case f.tail[i] == 0:
				f.source[f.head[i]] = k
			case f.head[i] == 1:
				f.sink[f.tail[i]] = k
			}
		}
	}
	f.head, f.cap, f.rev, f.tail = head, cap, rev, nil
	return nil
}

// greedy sends what it can over the paths source → v → w → sink, in node order.
func (f *flowNet) greedy(ctx context.Context) error {
	check := pace(ctx)
	for v := range int32(f.nodes) {
		if err := check(); err != nil {
			return err
		}
		s := f.source[v]
		if s < 0 {
			continue
		}
		for k := f.off[v]; k < f.off[v+1] && f.cap[s] > f.eps; k++ {
			w := f.head[k]
			t := f.sink[w]
			if t < 0 {
				continue
			}
			if c := min(f.cap[s], f.cap[k], f.cap[t]); c > f.eps {
				for _, a := range [3]int32{s, k, t} {
					f.cap[a] -= c
					f.cap[f.rev[a]] += c
				}
			}
		}
	}
	return nil
}

// run augments until no source–sink path has capacity above eps.
func (f *flowNet) run(ctx context.Context) error {
	if f.off == nil {
		if err := f.layout(ctx); err != nil {
			f.off = nil // laid out again by a later run: the arcs as added are kept until the end
			return err
		}
	}
	if err := f.greedy(ctx); err != nil {
		return err
	}
	level := make([]int32, f.nodes) // arcs to the sink over arcs with capacity; −1 unseen
	for i := range level {
		level[i] = -1
	}
	it := make([]int32, f.nodes)
	var queue, starts []int32
	check := pace(ctx)
	var stopped error // the check that ended levels
	// levels counts back from the sink over arcs with capacity left, up to the
	// first level holding a node the source still feeds (starts).
	levels := func() bool {
		for _, v := range queue {
			level[v] = -1
		}
		level[1] = 0
		queue, starts = append(queue[:0], 1), starts[:0]
		reach := int32(-1)
		for i := 0; i < len(queue); i++ {
			if stopped = check(); stopped != nil {
				return false
			}
			u := queue[i]
			if reach >= 0 && level[u] >= reach {
				break
			}
			for k := f.off[u]; k < f.off[u+1]; k++ {
				w := f.head[k]
				if w == 0 || level[w] >= 0 || f.cap[f.rev[k]] <= f.eps {
					continue
				}
				level[w] = level[u] + 1
				queue = append(queue, w)
				if s := f.source[w]; s >= 0 && f.cap[s] > f.eps {
					starts = append(starts, w)
					reach = level[w]
				}
			}
		}
		return len(starts) > 0
	}
	var push func(u int32, amount float64) float64
	push = func(u int32, amount float64) float64 {
		if u == 1 {
			return amount
		}
		for ; it[u] < f.off[u+1]; it[u]++ {
			k := it[u]
			v := f.head[k]
			if f.cap[k] <= f.eps || level[v] != level[u]-1 || level[v] < 0 {
				continue
			}
			if got := push(v, min(amount, f.cap[k])); got > 0 {
				f.cap[k] -= got
				f.cap[f.rev[k]] += got
				return got
			}
		}
		return 0
	}
	for levels() {
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, v := range queue {
			it[v] = f.off[v]
		}
		for _, v := range starts {
			if err := check(); err != nil {
				return err
			}
			s := f.source[v]
			for f.cap[s] > f.eps {
				got := push(v, f.cap[s])
				if got <= 0 {
					break
				}
				f.cap[s] -= got
				f.cap[f.rev[s]] += got
			}
		}
	}
	return stopped
}
