package bfs

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

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
// directions, and runs in O(n + rows): see BuildOwned.
func Build(n int, src, dst []int32) (*Graph, BuildStats) {
	return BuildOwned(n, &src, &dst)
}

// BuildOwned is Build that takes ownership of the edge rows: it sets *src and *dst
// to nil as soon as it no longer reads them, so that their memory can be reclaimed
// while the neighbour lists are sorted (peak memory: the rows and Adj, never a third
// array of E entries).
//
// Steps, each parallel over GOMAXPROCS workers: count degrees (atomic adds), scatter
// every arc to its tail's range of Adj (atomic cursors), then sort and deduplicate
// each neighbour list on its own. Lists of up to sortDirect entries are sorted by
// insertion or pdqsort (a bounded cost per entry), longer ones by an LSD radix sort,
// so the whole build stays linear in n + rows, and the result — sorted, deduplicated
// lists — does not depend on the scatter's order.
func BuildOwned(n int, srcp, dstp *[]int32) (*Graph, BuildStats) {
	src, dst := *srcp, *dstp
	rows := len(src)
	st := BuildStats{Rows: int64(rows)}
	w := workersFor(rows)
	// off[v+1] counts v's arcs, then becomes its start, then (as the scatter's cursor)
	// its end, which is v+1's start.
	off := make([]int64, n+1)
	loops := make([]int64, w)
	parallel(w, rows, func(k, lo, hi int) {
		var l int64
		if w == 1 {
			for i, u := range src[lo:hi] {
				v := dst[lo+i]
				if u == v {
					l++
					continue
				}
				off[u+1]++
				off[v+1]++
			}
		} else {
			for i, u := range src[lo:hi] {
				v := dst[lo+i]
				if u == v {
					l++
					continue
				}
				atomic.AddInt64(&off[u+1], 1)
				atomic.AddInt64(&off[v+1], 1)
			}
		}
		loops[k] = l
	})
	for _, l := range loops {
		st.SelfLoops += l
	}
	// Exclusive prefix sum into off[1:]: off[v+1] = start of v.
	sum := int64(0)
	for v := 1; v <= n; v++ {
		d := off[v]
		off[v] = sum
		sum += d
	}
	arcs := sum
	adj := make([]int32, arcs)
	parallel(w, rows, func(_, lo, hi int) {
		if w == 1 {
			for i, u := range src[lo:hi] {
				v := dst[lo+i]
				if u == v {
					continue
				}
				adj[off[u+1]] = v
				off[u+1]++
				adj[off[v+1]] = u
				off[v+1]++
			}
			return
		}
		for i, u := range src[lo:hi] {
			v := dst[lo+i]
			if u == v {
				continue
			}
			adj[atomic.AddInt64(&off[u+1], 1)-1] = v
			adj[atomic.AddInt64(&off[v+1], 1)-1] = u
		}
	})
	*srcp, *dstp = nil, nil
	src, dst = nil, nil

	// Sort and deduplicate each list in place; deg[v] is its deduplicated length.
	deg := make([]int32, n)
	kept := sortLists(off, adj, deg)
	if kept != arcs {
		// Close the gaps left by duplicates, left to right (writes never overtake reads).
		wpos := int64(0)
		for v := 0; v < n; v++ {
			start := off[v]
			off[v] = wpos
			wpos += int64(copy(adj[wpos:], adj[start:start+int64(deg[v])]))
		}
		off[n] = wpos
		adj = adj[:wpos:wpos]
	}
	st.Kept = kept / 2
	st.Duplicates = st.Rows - st.SelfLoops - st.Kept
	return &Graph{Off: off, Adj: adj}, st
}

// sortDirect is the longest list sorted by comparison; longer ones are radix sorted.
const sortDirect = 1024

// sortLists sorts and deduplicates every neighbour list adj[off[v]:off[v+1]] in
// place, writing its new length to deg[v], and returns the total, in parallel over
// blocks of vertices.
func sortLists(off []int64, adj []int32, deg []int32) int64 {
	n := len(deg)
	const block = 1 << 12
	blocks := (n + block - 1) / block
	w := workersFor(len(adj))
	totals := make([]int64, w)
	var next atomic.Int64
	parallel(w, w, func(k, _, _ int) {
		var scratch []int32
		var total int64
		for {
			b := int(next.Add(1) - 1)
			if b >= blocks {
				break
			}
			for v := b * block; v < min(n, (b+1)*block); v++ {
				list := adj[off[v]:off[v+1]]
				switch {
				case len(list) <= 1 || slices.IsSorted(list): // rows sorted by source give sorted lists
				case len(list) <= 16:
					insertionSort(list)
				case len(list) <= sortDirect:
					slices.Sort(list)
				default:
					if cap(scratch) < len(list) {
						scratch = make([]int32, len(list))
					}
					radixSort(list, scratch[:len(list)])
				}
				d := dedupe(list)
				deg[v] = int32(d)
				total += int64(d)
			}
		}
		totals[k] = total
	})
	sum := int64(0)
	for _, t := range totals {
		sum += t
	}
	return sum
}

func insertionSort(a []int32) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for j > 0 && a[j-1] > x {
			a[j] = a[j-1]
			j--
		}
		a[j] = x
	}
}

// radixSort sorts non-negative a with an LSD radix sort on 11-bit digits, using
// tmp (len(a)) as scratch; passes above the largest value's digits are skipped.
func radixSort(a, tmp []int32) {
	hi := int32(0)
	for _, x := range a {
		hi = max(hi, x)
	}
	from, to := a, tmp
	for shift := uint(0); shift < 32 && hi>>shift > 0; shift += 11 {
		var count [1 << 11]int
		for _, x := range from {
			count[(x>>shift)&(1<<11-1)]++
		}
		s := 0
		for i, c := range count {
			count[i] = s
			s += c
		}
		for _, x := range from {
			d := (x >> shift) & (1<<11 - 1)
			to[count[d]] = x
			count[d]++
		}
		from, to = to, from
	}
	if &from[0] != &a[0] {
		copy(a, from)
	}
}

// dedupe removes repeats from sorted a in place and returns the new length.
func dedupe(a []int32) int {
	if len(a) == 0 {
		return 0
	}
	w := 1
	for _, x := range a[1:] {
		if x != a[w-1] {
			a[w] = x
			w++
		}
	}
	return w
}

// minParallel is the smallest amount of work worth splitting across goroutines.
const minParallel = 1 << 16

// workersFor is how many goroutines to use for work of size units.
func workersFor(units int) int {
	if units < minParallel {
		return 1
	}
	return max(1, min(runtime.GOMAXPROCS(0), units/minParallel))
}

// parallel calls fn(k, lo, hi) for w contiguous shares of [0, total), concurrently
// when w > 1, and returns when all are done.
func parallel(w, total int, fn func(k, lo, hi int)) {
	if w <= 1 {
		fn(0, 0, total)
		return
	}
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := total*k/w, total*(k+1)/w
		wg.Go(func() { fn(k, lo, hi) })
	}
	wg.Wait()
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

// CountComponents is the number of connected components, without labels: GAP's
// Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018) run on one core. Union-find (link
// by smaller index, path halving) first joins every vertex to its first two
// neighbours in one sequential sweep of the CSR; the component the most sampled
// vertices then belong to — the giant one, if any — is skipped in the sweep over
// the remaining neighbours, which is sound because every edge is stored in both
// directions, so an edge leaving that component is still seen from its other end.
// A BFS would touch every vertex's list in queue order, a cache miss per vertex;
// this reads the CSR front to back. Cost: O(n + arcs outside the giant component)
// union-find steps, O(log) amortised each in the worst case.
func (g *Graph) CountComponents() int {
	n := g.N()
	comp := make([]int32, n)
	for i := range comp {
		comp[i] = int32(i)
	}
	find := func(x int32) int32 {
		for comp[x] != x {
			comp[x] = comp[comp[x]]
			x = comp[x]
		}
		return x
	}
	link := func(u, v int32) {
		ru, rv := find(u), find(v)
		if ru < rv {
			comp[rv] = ru
		} else if rv < ru {
			comp[ru] = rv
		}
	}
	const rounds = 2
	for r := int64(0); r < rounds; r++ {
		for u := range int32(n) {
			if i := g.Off[u] + r; i < g.Off[u+1] {
				link(u, g.Adj[i])
			}
		}
	}
	for u := range int32(n) {
		comp[u] = find(u)
	}
	// The most frequent root among evenly spaced samples.
	c := int32(-1)
	if n > 0 {
		counts := map[int32]int{}
		stride := max(1, n/1024)
		best := 0
		for i := 0; i < n; i += stride {
			r := comp[i]
			counts[r]++
			if counts[r] > best || (counts[r] == best && r < c) {
				best, c = counts[r], r
			}
		}
	}
	for u := range int32(n) {
		if comp[u] == c {
			continue
		}
		for _, v := range g.Adj[g.Off[u]+min(rounds, g.Off[u+1]-g.Off[u]) : g.Off[u+1]] {
			link(u, v)
		}
	}
	k := 0
	for u, r := range comp {
		if int(r) == u {
			k++
		}
	}
	return k
}
