package optimize

import (
	"context"
	"math"
)

// flowNet is a float64 max-flow network from node 0 (the source) to node 1 (the
// sink), solved by Dinic's algorithm. Arcs are added as pairs (an arc and its
// residual), then laid out by tail (compressed rows) before the first solve, so a
// level search reads each node's arcs contiguously.
type flowNet struct {
	nodes int
	tail  []int32 // while adding: arc i's tail and head, capacity
	head  []int32
	cap   []float64
	// After layout: node u's arcs are positions off[u]:off[u+1] of head and cap,
	// rev[k] the position of k's partner, pos[i] the position of added arc i.
	off, rev, pos []int32
	eps           float64 // capacities at most eps count as saturated
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
func (f *flowNet) layout() {
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
		f.pos[i] = next[u]
		next[u]++
	}
	head, cap, rev := make([]int32, len(f.head)), make([]float64, len(f.cap)), make([]int32, len(f.head))
	for i, k := range f.pos {
		head[k], cap[k], rev[k] = f.head[i], f.cap[i], f.pos[i^1]
	}
	f.head, f.cap, f.rev, f.tail = head, cap, rev, nil
}

// run augments until no source–sink path has capacity above eps.
func (f *flowNet) run(ctx context.Context) error {
	if f.off == nil {
		f.layout()
	}
	level := make([]int32, f.nodes)
	it := make([]int32, f.nodes)
	queue := make([]int32, 0, f.nodes)
	// levels: the breadth-first levels from the source over arcs with capacity,
	// up to the sink's (nodes at or past it cannot lie on a shortest path).
	levels := func() bool {
		for i := range level {
			level[i] = -1
		}
		level[0] = 0
		queue = append(queue[:0], 0)
		for i := 0; i < len(queue); i++ {
			u := queue[i]
			if level[1] >= 0 && level[u] >= level[1] {
				break
			}
			for k := f.off[u]; k < f.off[u+1]; k++ {
				if v := f.head[k]; f.cap[k] > f.eps && level[v] < 0 {
					level[v] = level[u] + 1
					queue = append(queue, v)
				}
			}
		}
		return level[1] >= 0
	}
	var push func(u int32, amount float64) float64
	push = func(u int32, amount float64) float64 {
		if u == 1 {
			return amount
		}
		for ; it[u] < f.off[u+1]; it[u]++ {
			k := it[u]
			v := f.head[k]
			if f.cap[k] <= f.eps || level[v] != level[u]+1 {
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
		copy(it, f.off[:f.nodes])
		for push(0, math.Inf(1)) > 0 {
		}
	}
	return nil
}
