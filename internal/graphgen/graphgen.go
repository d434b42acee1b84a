package graphgen

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/graphdp/graphdp/dp"
)

// Kinds lists the graph families.
var Kinds = []string{"uniform", "rmat", "grid", "hypercube", "path"}

// Spec describes one synthetic instance.
type Spec struct {
	Kind    string  // one of Kinds
	N       int64   // vertices (uniform, path; grid rounds to a square; rmat rounds up to a power of two)
	M       int64   // edge rows (uniform, rmat)
	Dim     int     // hypercube: attributes (2^Dim vertices)
	K       int     // hypercube: query popcount ≥ K (0: Dim/2)
	Hit     int64   // path: hitting-set size (0: N/10)
	Frac    float64 // uniform, rmat: fraction of vertices answering 1 (0: 0.1)
	Seed    uint64  // random graphs
	Epsilon float64
	Delta   float64
}

// Gen generates one Spec's instance.
type Gen struct {
	Spec
	n        int64
	side     int64 // grid
	scale    int   // rmat
	boundary []bool
	pair     dp.Pair
}

// New validates spec and fills its defaults.
func New(spec Spec) (*Gen, error) {
	g := &Gen{Spec: spec}
	pair, err := dp.New(spec.Epsilon, spec.Delta)
	if err != nil {
		return nil, err
	}
	g.pair = pair
	if g.Frac == 0 {
		g.Frac = 0.1
	}
	switch spec.Kind {
	case "uniform":
		g.n = spec.N
	case "rmat":
		g.scale = bits.Len64(uint64(max(spec.N, 2) - 1))
		g.n = 1 << g.scale
	case "grid":
		g.side = int64(math.Ceil(math.Sqrt(float64(spec.N))))
		g.n = g.side * g.side
	case "hypercube":
		if spec.Dim < 1 || spec.Dim > 30 {
			return nil, fmt.Errorf("hypercube: dim %d outside [1, 30]", spec.Dim)
		}
		g.n = 1 << spec.Dim
		if g.K == 0 {
			g.K = spec.Dim / 2
		}
		if g.K < 1 || g.K > spec.Dim {
			return nil, fmt.Errorf("hypercube: threshold %d outside [1, %d]", g.K, spec.Dim)
		}
	case "path":
		g.n = spec.N
		if g.Hit == 0 {
			g.Hit = max(1, spec.N/10)
		}
		if g.Hit > g.n {
			return nil, fmt.Errorf("path: %d hitting-set vertices on %d vertices", g.Hit, g.n)
		}
	default:
		return nil, fmt.Errorf("unknown kind %q (one of %v)", spec.Kind, Kinds)
	}
	if g.n < 1 || g.n > math.MaxInt32 {
		return nil, fmt.Errorf("%d vertices outside [1, %d]", g.n, math.MaxInt32)
	}
	if (spec.Kind == "uniform" || spec.Kind == "rmat") && spec.M < 0 {
		return nil, fmt.Errorf("negative edge count %d", spec.M)
	}
	return g, nil
}

// N is the number of vertices.
func (g *Gen) N() int64 { return g.n }

// Rows is the number of edge rows Edges delivers.
func (g *Gen) Rows() int64 {
	switch g.Kind {
	case "grid":
		return 2 * g.side * (g.side - 1)
	case "hypercube":
		return int64(g.Dim) << (g.Dim - 1)
	case "path":
		return g.n - 1
	}
	return g.M
}

// Alpha is the balanced value α = (e^ε+δ)/(e^ε+1) of the paper's corollary.
func (g *Gen) Alpha() float64 {
	e := math.Exp(g.Epsilon)
	return (e + g.Delta) / (e + 1)
}

// mix is a bijection on uint64 (splitmix64's finaliser).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Answer is the query's true answer at position v.
func (g *Gen) Answer(v int64) bool {
	switch g.Kind {
	case "grid":
		return v%g.side < g.side/2 // left half answers 1: one long boundary, high diameter
	case "hypercube":
		return bits.OnesCount64(uint64(v)) >= g.K
	case "path":
		return true // no boundary edge: any set is a hitting set
	}
	return float64(mix(uint64(v)^g.Seed)>>11)/(1<<53) < g.Frac
}

// chunkRows is how many edge rows one generated chunk holds.
const chunkRows = 1 << 20

// Edges calls fn with consecutive chunks of edge rows (positions), in a
// deterministic order, and records boundary vertices for HittingSet. fn must
// not retain the slices.
func (g *Gen) Edges(fn func(src, dst []int32) error) error {
	rows := g.Rows()
	chunks := int((rows + chunkRows - 1) / chunkRows)
	if g.Kind == "uniform" || g.Kind == "rmat" {
		g.boundary = make([]bool, g.n)
	}
	type chunk struct{ src, dst []int32 }
	workers := max(1, runtime.GOMAXPROCS(0))
	out := make([]chan chunk, chunks)
	for i := range out {
		out[i] = make(chan chunk, 1)
	}
	pool := sync.Pool{New: func() any { return &chunk{make([]int32, chunkRows), make([]int32, chunkRows)} }}
	sem := make(chan struct{}, workers+1) // bounds chunks in flight
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := range chunks {
			select {
			case sem <- struct{}{}:
			case <-stop:
				return
			}
			go func() {
				c := pool.Get().(*chunk)
				lo := int64(i) * chunkRows
				k := int(min(rows-lo, chunkRows))
				g.fill(i, lo, c.src[:k], c.dst[:k])
				out[i] <- chunk{c.src[:k], c.dst[:k]}
			}()
		}
	}()
	for i := range chunks {
		c := <-out[i]
		if g.boundary != nil {
			for j, u := range c.src {
				v := c.dst[j]
				if au, av := g.Answer(int64(u)), g.Answer(int64(v)); au != av {
					if au {
						g.boundary[u] = true
					} else {
						g.boundary[v] = true
					}
				}
			}
		}
		err := fn(c.src, c.dst)
		pool.Put(&chunk{c.src[:cap(c.src)], c.dst[:cap(c.dst)]})
		<-sem
		if err != nil {
			return err
		}
	}
	return nil
}

// fill generates edge rows lo.. into src, dst (chunk number i).
func (g *Gen) fill(i int, lo int64, src, dst []int32) {
	r := rand.New(rand.NewPCG(g.Seed, uint64(i)+1))
	switch g.Kind {
	case "uniform":
		n := uint64(g.n)
		for j := range src {
			src[j] = int32(r.Uint64N(n))
			dst[j] = int32(r.Uint64N(n))
		}
	case "rmat":
		mask := uint64(g.n - 1)
		for j := range src {
			u, v := g.rmatEdge(r)
			// Scramble ids (a bijection mod 2^scale) so degree does not follow id order.
			src[j] = int32(scramble(u, mask, g.Seed))
			dst[j] = int32(scramble(v, mask, g.Seed))
		}
	case "grid":
		// Row r of the grid holds side−1 horizontal then side vertical edges (the last
		// row only horizontal ones); row-major, so rows can start anywhere.
		s := g.side
		per := 2*s - 1
		for j := range src {
			k := lo + int64(j)
			row, col := k/per, k%per
			if col < s-1 {
				v := row*s + col
				src[j], dst[j] = int32(v), int32(v+1)
			} else {
				v := row*s + col - (s - 1)
				src[j], dst[j] = int32(v), int32(v+s)
			}
		}
	case "hypercube":
		// Edge k joins v and v | 1<<b for the k-th (v, b) with bit b of v clear,
		// enumerated as b-major: 2^(Dim−1) edges per bit.
		half := int64(1) << (g.Dim - 1)
		for j := range src {
			k := lo + int64(j)
			b, w := uint(k/half), uint64(k%half)
			// Insert a 0 at bit b of w.
			v := (w>>b)<<(b+1) | w&(1<<b-1)
			src[j], dst[j] = int32(v), int32(v|1<<b)
		}
	case "path":
		for j := range src {
			v := lo + int64(j)
			src[j], dst[j] = int32(v), int32(v+1)
		}
	}
}

// GAP's R-MAT parameters.
const rmatA, rmatB, rmatC = 0.57, 0.19, 0.19

func (g *Gen) rmatEdge(r *rand.Rand) (uint64, uint64) {
	var u, v uint64
	for range g.scale {
		x := r.Float64()
		u, v = u<<1, v<<1
		switch {
		case x < rmatA:
		case x < rmatA+rmatB:
			v |= 1
		case x < rmatA+rmatB+rmatC:
			u |= 1
		default:
			u |= 1
			v |= 1
		}
	}
	return u, v
}

// scramble is a bijection on [0, mask] (mask = 2^k − 1): odd multiply and
// xor-shifts, each invertible mod 2^k.
func scramble(x, mask, seed uint64) uint64 {
	k := bits.Len64(mask)
	if k == 0 {
		return 0
	}
	x = (x*(seed|1)*0x9E3779B97F4A7C15 + seed) & mask
	x ^= x >> (k/2 + 1)
	x = (x * 0xbf58476d1ce4e5b9) & mask
	x ^= x >> (k/2 + 1)
	return x
}

// HittingSet returns a boundary-hitting set with feasible p_true values
// (invariant 2). For uniform and rmat it needs a completed Edges pass.
func (g *Gen) HittingSet() (vertex []int32, ptrue []float64, err error) {
	alpha := g.Alpha()
	switch g.Kind {
	case "uniform", "rmat":
		if g.boundary == nil {
			return nil, nil, fmt.Errorf("graphgen: HittingSet before Edges")
		}
		// The answer-1 end of every boundary edge: a subset of the corollary's set,
		// so the balanced α stays feasible.
		for v, b := range g.boundary {
			if b {
				vertex = append(vertex, int32(v))
			}
		}
	case "grid":
		// The column on the answer-1 side of the boundary.
		if c := g.side/2 - 1; c >= 0 && c+1 < g.side {
			for row := range g.side {
				vertex = append(vertex, int32(row*g.side+c))
			}
		}
	case "hypercube":
		// The boundary: popcount K−1 and K (the corollary of docs/DESIGN.md §10.3).
		for v := range g.n {
			if c := bits.OnesCount64(uint64(v)); c == g.K-1 || c == g.K {
				vertex = append(vertex, int32(v))
			}
		}
	case "path":
		return g.pathHittingSet()
	}
	ptrue = make([]float64, len(vertex))
	for i := range ptrue {
		ptrue[i] = alpha
	}
	return vertex, ptrue, nil
}

// pathHittingSet spaces Hit vertices evenly along the path with p_true (all
// answers are 1, so p_true = p_one) growing slowly from 0.5 towards 0.9 — as
// slowly as the feasibility lemma (docs/DESIGN.md §3.3) requires between
// neighbours in the set. The per-source engine then searches from almost every one
// of them to its full depth bound.
func (g *Gen) pathHittingSet() ([]int32, []float64, error) {
	step := g.n / g.Hit
	vertex := make([]int32, g.Hit)
	ptrue := make([]float64, g.Hit)
	lo, hi := 0.5, 0.9
	inc := (hi - lo) / float64(g.Hit)
	for i := range vertex {
		vertex[i] = int32(int64(i) * step)
		ptrue[i] = lo + inc*float64(i)
		if i == 0 {
			continue
		}
		// Keep consecutive values feasible for both colours: a_i ≤ U^step(a_{i−1}) and
		// 1 − a_{i−1} ≤ U^step(1 − a_i).
		prev := ptrue[i-1]
		up := g.pair.Iterate(int(step), prev)
		ptrue[i] = min(ptrue[i], up)
		for 1-prev > g.pair.Iterate(int(step), 1-ptrue[i]) && ptrue[i] > prev {
			ptrue[i] = prev + (ptrue[i]-prev)/2
		}
	}
	return vertex, ptrue, nil
}
