package testgraph

import (
	"math"
	"math/rand/v2"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// MustDP is dp.New for parameters known to be valid.
func MustDP(eps, delta float64) dp.Pair {
	p, err := dp.New(eps, delta)
	if err != nil {
		panic(err)
	}
	return p
}

// FromEdges builds the CSR of n vertices from edge rows.
func FromEdges(n int, e [][2]int32) *graph.Graph {
	src := make([]int32, len(e))
	dst := make([]int32, len(e))
	for i, x := range e {
		src[i], dst[i] = x[0], x[1]
	}
	g, _ := graph.Build(n, src, dst)
	return g
}

// A Family makes a graph of about n vertices: Make returns the vertex count and the
// edge rows (duplicates, both directions and self-loops allowed, as Build takes them).
type Family struct {
	Name string
	Make func(r *rand.Rand, n int) (int, [][2]int32)
}

// Families are the small graph families the property tests draw from (Families[6]
// is the random multigraph).
var Families = []Family{
	{"path", func(r *rand.Rand, n int) (int, [][2]int32) {
		var e [][2]int32
		for i := 1; i < n; i++ {
			e = append(e, [2]int32{int32(i - 1), int32(i)})
		}
		return n, e
	}},
	{"cycle", func(r *rand.Rand, n int) (int, [][2]int32) {
		var e [][2]int32
		for i := 0; i < n; i++ {
			e = append(e, [2]int32{int32(i), int32((i + 1) % n)})
		}
		return n, e
	}},
	{"grid", func(r *rand.Rand, n int) (int, [][2]int32) {
		w := 1 + r.IntN(6)
		h := max(1, n/w)
		var e [][2]int32
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := int32(y*w + x)
				if x+1 < w {
					e = append(e, [2]int32{v, v + 1})
				}
				if y+1 < h {
					e = append(e, [2]int32{v, v + int32(w)})
				}
			}
		}
		return w * h, e
	}},
	{"tree", func(r *rand.Rand, n int) (int, [][2]int32) {
		var e [][2]int32
		for i := 1; i < n; i++ {
			e = append(e, [2]int32{int32(r.IntN(i)), int32(i)})
		}
		return n, e
	}},
	{"star", func(r *rand.Rand, n int) (int, [][2]int32) {
		var e [][2]int32
		for i := 1; i < n; i++ {
			e = append(e, [2]int32{0, int32(i)})
		}
		return n, e
	}},
	{"complete", func(r *rand.Rand, n int) (int, [][2]int32) {
		n = min(n, 9)
		var e [][2]int32
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				e = append(e, [2]int32{int32(i), int32(j)})
			}
		}
		return n, e
	}},
	{"random-multi", func(r *rand.Rand, n int) (int, [][2]int32) {
		// duplicates, both directions, self-loops, several components, isolated vertices
		var e [][2]int32
		m := r.IntN(2*n + 1)
		for i := 0; i < m; i++ {
			u, v := int32(r.IntN(n)), int32(r.IntN(n))
			e = append(e, [2]int32{u, v})
			if r.IntN(4) == 0 {
				e = append(e, [2]int32{v, u})
			}
		}
		return n, e
	}},
	{"hypercube", func(r *rand.Rand, n int) (int, [][2]int32) {
		k := 1 + r.IntN(5)
		var e [][2]int32
		for v := 0; v < 1<<k; v++ {
			for b := 0; b < k; b++ {
				if u := v ^ 1<<b; u > v {
					e = append(e, [2]int32{int32(v), int32(u)})
				}
			}
		}
		return 1 << k, e
	}},
}

// Named is the family of Families called name; it panics on an unknown name.
func Named(name string) Family {
	for _, f := range Families {
		if f.Name == name {
			return f
		}
	}
	panic("testgraph: no family " + name)
}

// Pairs spans the parameter range, including ε = 0 and δ = 0.
var Pairs = []dp.Pair{
	MustDP(math.Ln2, 0), MustDP(0.5, 1e-6), MustDP(0, 0), MustDP(0, 0.05), MustDP(0.1, 0),
	MustDP(1, 0.1), MustDP(3, 0.01), MustDP(1e-3, 0), MustDP(0.7, 0.3),
}

// BoundaryHittingSet returns a random boundary-hitting set: one random end of every
// boundary edge, plus a few random extra vertices.
func BoundaryHittingSet(r *rand.Rand, g *graph.Graph, answer []bool) []int32 {
	in := make([]bool, g.N())
	for u := int32(0); int(u) < g.N(); u++ {
		for _, v := range g.Neighbours(u) {
			if v > u && answer[u] != answer[v] && !in[u] && !in[v] {
				if r.IntN(2) == 0 {
					in[u] = true
				} else {
					in[v] = true
				}
			}
		}
	}
	for k := r.IntN(3); k > 0 && g.N() > 0; k-- {
		in[r.IntN(g.N())] = true
	}
	var h []int32
	for v, ok := range in {
		if ok {
			h = append(h, int32(v))
		}
	}
	r.Shuffle(len(h), func(i, j int) { h[i], h[j] = h[j], h[i] })
	return h
}

// Gibbs takes random coordinate steps inside the DP set: each step redraws one free
// vertex's p_one uniformly in the interval its neighbours allow, [L(p(u)), U(p(u))]
// for every neighbour u. Starting from a DP mechanism it stays one, exactly (package dp).
func Gibbs(r *rand.Rand, g *graph.Graph, p dp.Pair, pone []float64, fixed []bool, steps int) {
	GibbsSteps(r, g, p, pone, fixed, steps, false)
}

// GibbsSteps is Gibbs; with edge, half the steps jump to an end of the interval.
func GibbsSteps(r *rand.Rand, g *graph.Graph, p dp.Pair, pone []float64, fixed []bool, steps int, edge bool) {
	n := g.N()
	if n == 0 {
		return
	}
	for s := 0; s < steps; s++ {
		v := int32(r.IntN(n))
		if fixed != nil && fixed[v] {
			continue
		}
		lo, hi := 0.0, 1.0
		for _, u := range g.Neighbours(v) {
			lo = max(lo, p.Lower(pone[u]))
			hi = min(hi, p.Upper(pone[u]))
		}
		if lo > hi {
			continue
		}
		switch {
		case edge && r.IntN(4) == 0:
			pone[v] = lo
		case edge && r.IntN(3) == 0:
			pone[v] = hi
		default:
			pone[v] = min(hi, lo+r.Float64()*(hi-lo)) // rounding must not leave [lo, hi]
		}
	}
}

// Problem is an instance's data without the engine's types: a graph, the answers,
// the hitting set and its given p_true values.
type Problem struct {
	G      *graph.Graph
	Answer []bool
	Hit    []int32
	PTrue  []float64
}

// RandomHitting draws the k-th graph of a property test: family k mod
// len(Families) with 2..31 vertices, random answers and a random boundary-hitting
// set (the caller gives the values).
func RandomHitting(r *rand.Rand, k int) (g *graph.Graph, answer []bool, hit []int32) {
	f := Families[k%len(Families)]
	n, e := f.Make(r, 2+r.IntN(30))
	g = FromEdges(n, e)
	answer = make([]bool, n)
	for v := range answer {
		answer[v] = r.IntN(2) == 0
	}
	return g, answer, BoundaryHittingSet(r, g, answer)
}

// RandomProblem draws a feasible instance: its hitting-set values are the restriction
// of a random DP mechanism (so an extension exists); sometimes values are the
// balanced α (exactly on the feasibility edge) or 0 / 1.
func RandomProblem(r *rand.Rand, f Family, n int, pair dp.Pair) Problem {
	n, e := f.Make(r, n)
	g := FromEdges(n, e)
	answer := make([]bool, n)
	switch r.IntN(3) {
	case 0:
		for v := range answer {
			answer[v] = r.IntN(2) == 0
		}
	case 1: // threshold on position: a single boundary region
		t := r.IntN(n + 1)
		for v := range answer {
			answer[v] = v >= t
		}
	default:
		for v := range answer {
			answer[v] = r.IntN(5) == 0
		}
	}
	hit := BoundaryHittingSet(r, g, answer)
	ptrue := make([]float64, len(hit))
	switch r.IntN(4) {
	case 0: // balanced α on every hitting-set vertex: the paper's corollary
		alpha := (pair.E() + pair.Delta) / (pair.E() + 1)
		if pair.Framework() != dp.EpsilonDelta {
			alpha = pair.Balanced()
		}
		for i := range ptrue {
			ptrue[i] = alpha
		}
	case 1: // tight: Gibbs steps that jump to interval ends give values exactly on the
		// feasibility edge, and 0 or 1 where U and L reach them
		FillFromGibbs(r, g, pair, answer, hit, ptrue, true)
	default:
		FillFromGibbs(r, g, pair, answer, hit, ptrue, false)
	}
	return Problem{G: g, Answer: answer, Hit: hit, PTrue: ptrue}
}

// FillFromGibbs sets ptrue on the hitting set from a random DP mechanism (Gibbs steps
// from a constant one; with edge, steps that land on interval ends).
func FillFromGibbs(r *rand.Rand, g *graph.Graph, pair dp.Pair, answer []bool, hit []int32, ptrue []float64, edge bool) {
	// Start from a constant mechanism (always DP): 0.5, or 0 or 1, which leaves exact
	// 0/1 values (p_true 1, and 0 on the other answer) where few steps move them.
	start, steps := 0.5, 20*g.N()
	if r.IntN(3) == 0 {
		start, steps = float64(r.IntN(2)), r.IntN(g.N()+1)
	}
	pone := make([]float64, g.N())
	for v := range pone {
		pone[v] = start
	}
	GibbsSteps(r, g, pair, pone, nil, steps, edge)
	for i, h := range hit {
		if answer[h] {
			ptrue[i] = pone[h]
		} else {
			ptrue[i] = 1 - pone[h]
		}
	}
}

// Figure1 is test vector 4 (docs/DESIGN.md §10.4): the paper's Figure 1, its vertices
// named a..v by position, with the answers the paper shades.
func Figure1() (names string, g *graph.Graph, answer []bool) {
	names = "abcdefghijklmnopqrstuv"
	idx := func(c byte) int32 { return int32(c - 'a') }
	var e [][2]int32
	for _, s := range []string{"ab", "bg", "ga", "gc", "ch", "hn", "nq", "ql", "lk", "qm", "no", "oj", "jf", "fe",
		"ej", "jd", "di", "ih", "op", "or", "rs", "rt", "uv", "fu"} {
		e = append(e, [2]int32{idx(s[0]), idx(s[1])})
	}
	g = FromEdges(len(names), e)
	answer = make([]bool, len(names))
	for _, c := range "abcghklstuv" {
		answer[idx(byte(c))] = true
	}
	return names, g, answer
}
