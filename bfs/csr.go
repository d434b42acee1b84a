package bfs

// Graph is an undirected graph in compressed sparse row form (doc.go, invariant 1).
type Graph struct {
	Off []int64 // n+1 offsets into Adj
	Adj []int32 // concatenated sorted neighbour lists
}

// BuildStats counts what Build kept and dropped from the input rows.
type BuildStats struct {
	Rows       int64 // input edge rows
	SelfLoops  int64 // rows with src == dst, ignored
	Duplicates int64 // rows repeating an earlier edge (either direction), ignored
	Kept       int64 // distinct undirected edges in the graph
}

// N is the number of vertices.
func (g *Graph) N() int { return len(g.Off) - 1 }

// M is the number of undirected edges.
func (g *Graph) M() int64 { return int64(len(g.Adj)) / 2 }

// Neighbours returns v's sorted neighbour list (shared storage: do not modify).
func (g *Graph) Neighbours(v int32) []int32 { return g.Adj[g.Off[v]:g.Off[v+1]] }

// Build makes the CSR graph on n vertices from edge rows (src[i], dst[i]), which must
// be positions in [0, n). It ignores self-loops, merges duplicates and both
// directions, and runs in O(n + rows) with two counting-sort passes, so neighbour
// lists come out sorted without a comparison sort.
func Build(n int, src, dst []int32) (*Graph, BuildStats) {
	st := BuildStats{Rows: int64(len(src))}
	deg := make([]int64, n+1)
	for i, u := range src {
		v := dst[i]
		if u == v {
			st.SelfLoops++
			continue
		}
		deg[u]++
		deg[v]++
	}
	// off[v] = start of v's arcs; deg becomes a running cursor.
	off := make([]int64, n+1)
	for v := 0; v < n; v++ {
		off[v+1] = off[v] + deg[v]
	}
	arcs := off[n]
	// Pass 1: bucket arc tails by head.
	tails := make([]int32, arcs)
	copy(deg, off[:n])
	for i, u := range src {
		v := dst[i]
		if u == v {
			continue
		}
		tails[deg[v]] = u
		deg[v]++
		tails[deg[u]] = v
		deg[u]++
	}
	// Pass 2: scan heads in increasing order and append each head to its tail's list,
	// so every list is filled in ascending order.
	adj := make([]int32, arcs)
	copy(deg, off[:n])
	for h := 0; h < n; h++ {
		for _, t := range tails[off[h]:off[h+1]] {
			adj[deg[t]] = int32(h)
			deg[t]++
		}
	}
	tails = nil
	// Deduplicate in place: writes never overtake reads.
	w := int64(0)
	start := int64(0)
	for v := 0; v < n; v++ {
		end := off[v+1]
		off[v] = w
		prev := int32(-1)
		for _, x := range adj[start:end] {
			if x != prev {
				adj[w] = x
				w++
				prev = x
			}
		}
		start = end
	}
	off[n] = w
	st.Kept = w / 2
	st.Duplicates = st.Rows - st.SelfLoops - st.Kept
	return &Graph{Off: off, Adj: adj[:w:w]}, st
}

// Components labels connected components 0..k−1 in order of their smallest vertex
// and returns the labels and k.
func (g *Graph) Components() ([]int32, int) {
	n := g.N()
	label := make([]int32, n)
	for i := range label {
		label[i] = -1
	}
	queue := make([]int32, 0, 64)
	k := 0
	for s := 0; s < n; s++ {
		if label[s] >= 0 {
			continue
		}
		label[s] = int32(k)
		queue = append(queue[:0], int32(s))
		for head := 0; head < len(queue); head++ {
			for _, y := range g.Neighbours(queue[head]) {
				if label[y] < 0 {
					label[y] = int32(k)
					queue = append(queue, y)
				}
			}
		}
		k++
	}
	return label, k
}
