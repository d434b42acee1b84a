package bfs

import (
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/hugepage"
)

// Instance is one problem: a graph, the query's true answer on every vertex, and the
// partial mechanism on a hitting set.
type Instance struct {
	G      *graph.Graph
	Answer []bool    // answer(v); true means 1
	Hit    []int32   // hitting-set vertices, input order, no repeats
	PTrue  []float64 // given Pr[M(Hit[i]) = answer(Hit[i])]
	Pair   dp.Pair

	hv []float64 // the hitting set's exact values (dp.ExactOfPTrue) once repaired (Solve), else nil

	// The rounds engine's shard cuts, numbered by its first pass and reused by the
	// other colour and the passes after a repair (set by NewInstance; copies of the
	// instance share it, so it is keyed by graph and layout).
	cuts *cutCache
	// Its renaming for the rounds engine's shards (relabel.go), shared likewise.
	relabel *relabelCache
}

// HitValue is hitting-set vertex Hit[i]'s exact value (dp.ExactOfPTrue: the
// canonical form of a mechanism, doc.go invariant 7) as solved: from its given
// p_true, until a repair moves it onto its bound.
func (in *Instance) HitValue(i int) float64 {
	if in.hv != nil {
		return in.hv[i]
	}
	return in.givenValue(i)
}

// givenValue is HitValue before any repair.
func (in *Instance) givenValue(i int) float64 {
	return dp.ExactOfPTrue(in.Answer[in.Hit[i]], in.PTrue[i])
}

// SolvedPTrue is the p_true of Hit[i] as solved (the given one unless repaired).
func (in *Instance) SolvedPTrue(i int) float64 {
	_, pt := dp.ExactColumns(in.Answer[in.Hit[i]], in.HitValue(i))
	return pt
}

// HitIndex returns, for every vertex, its index in in.Hit or -1.
func (in *Instance) HitIndex() []int32 {
	idx := hugepage.Alloc[int32](in.G.N()) // the hitting check reads it at random per edge
	for i := range idx {
		idx[i] = -1
	}
	for i, h := range in.Hit {
		idx[h] = int32(i)
	}
	return idx
}

// source is one hitting-set vertex with its value for the pass being computed.
type source struct {
	v int32
	a float64
}

// sources returns the hitting set with its pass values, sorted by (value, position).
func (in *Instance) sources(c Pass) []source {
	src := make([]source, len(in.Hit))
	for i, h := range in.Hit {
		src[i] = source{h, c.Seed(in.HitValue(i))}
	}
	sortSources(src)
	return src
}

// Field is the result of one pass (doc.go, invariant 2): for every vertex w,
// Value[w] = g_c(w) in the pass's values, and Bind[w], Dist[w] the binding
// hitting-set vertex and its distance (-1, -1 where none binds).
type Field struct {
	Value []float64
	Bind  []int32
	Dist  []int32
	Scans int64 // adjacency entries the engine read: its relaxations

}

func newField(n int, top float64) *Field {
	// Huge pages (package hugepage): Propagate writes each at random once per settled
	// vertex, and the audit reads Value (p_one) at random once per edge.
	f := &Field{Value: hugepage.Alloc[float64](n), Bind: hugepage.Alloc[int32](n), Dist: hugepage.Alloc[int32](n)}
	for i := range f.Value {
		f.Value[i] = top
		f.Bind[i] = -1
		f.Dist[i] = -1
	}
	return f
}

// keys compares candidate bindings in the order of doc.go, invariant 3 (docs/DESIGN.md
// §3.4 says why histories and not distances). A candidate is a hitting-set vertex h
// with pass value a reaching w over a shortest path of length d, with value
// Step^d(a). Candidates are ordered by their value history read from w back to h —
// Step^d(a), Step^(d−1)(a), …, a — lexicographically, a proper prefix first, then by
// h. This is the order the propagation's FIFO pops in, and unlike (value, distance, h)
// it stays consistent when float64 rounding makes Step map two different values to
// one: extending two histories by the same step preserves their order. It also makes a
// minimal candidate's path a shortest path to its vertex.
type keys struct {
	c      Pass
	srcA   []float64 // pass value of each hitting-set vertex, by position
	b1, b2 []float64 // scratch for value histories
}

func newKeys(in *Instance, c Pass, src []source) *keys {
	k := &keys{c: c, srcA: make([]float64, in.G.N())}
	for _, s := range src {
		k.srcA[s.v] = s.a
	}
	return k
}

// less reports whether candidate (v1 = value, d1 = distance, h1 = vertex) precedes
// candidate (v2, d2, h2).
func (k *keys) less(v1 float64, d1, h1 int32, v2 float64, d2, h2 int32) bool {
	if v1 != v2 {
		return v1 < v2
	}
	a1, a2 := k.srcA[h1], k.srcA[h2]
	if a1 != a2 && d1 > 0 && d2 > 0 {
		// Equal values from different starting values: compare the histories.
		k.b1 = k.history(a1, d1, k.b1)
		k.b2 = k.history(a2, d2, k.b2)
		for i := 1; i <= int(min(d1, d2)); i++ {
			x, y := k.b1[int(d1)-i], k.b2[int(d2)-i]
			if x != y {
				return x < y
			}
		}
	}
	// Same starting value (so the same history function) or one history ends: the
	// shorter one is a prefix of the longer.
	if d1 != d2 {
		return d1 < d2
	}
	return h1 < h2
}

// history fills buf with Step^0(a), …, Step^d(a).
func (k *keys) history(a float64, d int32, buf []float64) []float64 {
	buf = append(buf[:0], a)
	for i := int32(0); i < d; i++ {
		a = k.c.Step(a)
		buf = append(buf, a)
	}
	return buf
}
