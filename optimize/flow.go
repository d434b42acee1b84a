package optimize

import (
	"context"
)

// flowNet is a float64 max-flow network from node 0 (the source) to node 1 (the
// sink), solved by Dinic's algorithm with the levels counted back from the sink.
// It is laid out by tail (compressed rows: a node's arcs are read contiguously)
// as it is built, in two passes over the same arcs: count each arc, then (after
// place) add it, with its residual, in the order the rows keep. The networks of forest.go
// have a million nodes and few paths left after a greedy first pass, so each
// level search starts where capacity to the sink is left and stops at the first
// level that reaches the source: it visits the region that can still gain, not
// the network.
type flowNet struct {
	nodes int
	// Node u's arcs are positions off[u]:off[u+1] of head and cap, rev[k] the
	// position of k's partner; source[v], sink[v] the positions of the arcs 0→v
	// and v→1 (−1 for none). next[u] is where add puts u's next arc.
	off, head, rev, source, sink, next []int32
	cap                                []float64
	eps                                float64 // capacities at most eps count as saturated
}

// newFlowNet is a network of at most nodes nodes (place says how many).
func newFlowNet(nodes int) *flowNet {
	return &flowNet{nodes: nodes, off: make([]int32, nodes+1)}
}

// count counts the arc u→v and its residual, the first pass's (its position is
// not known yet: −1).
func (f *flowNet) count(u, v int32, _ float64) int32 {
	f.off[u+1]++
	f.off[v+1]++
	return -1
}

// place ends the count of a network of nodes nodes: the rows' offsets and the
// arrays add fills.
func (f *flowNet) place(nodes int) {
	f.nodes, f.off = nodes, f.off[:nodes+1]
	for u := range f.nodes {
		f.off[u+1] += f.off[u]
	}
	m := f.off[f.nodes]
	f.head, f.cap, f.rev = make([]int32, m), make([]float64, m), make([]int32, m)
	f.next = append([]int32(nil), f.off[:f.nodes]...)
	f.source, f.sink = make([]int32, f.nodes), make([]int32, f.nodes)
	for v := range f.nodes {
		f.source[v], f.sink[v] = -1, -1
	}
}

// add adds the arc u→v of capacity c, and its residual v→u, each after the arcs
// of its tail added before, and returns the arc's position for flow and raise.
func (f *flowNet) add(u, v int32, c float64) int32 {
	k, r := f.next[u], f.next[v]
	f.next[u]++
	f.next[v]++
	f.head[k], f.cap[k], f.rev[k] = v, c, r
	f.head[r], f.cap[r], f.rev[r] = u, 0, k
	switch {
	case u == 0:
		f.source[v] = k
	case v == 1:
		f.sink[u] = k
	}
	return k
}

// flow is the flow on the arc at position k (its partner's capacity).
func (f *flowNet) flow(k int32) float64 { return f.cap[f.rev[k]] }

// raise adds c to the capacity of the arc at position k.
func (f *flowNet) raise(k int32, c float64) { f.cap[k] += c }

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
