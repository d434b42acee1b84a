package optimize

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"

	"github.com/graphdp/graphdp/internal/words"
)

// Problem is one instance: the dataset graph, every dataset's true answer, the
// utility's weights and the privacy pair.
type Problem struct {
	G      *graph.Graph
	Answer []bool    // true = answer 1
	Weight []float64 // w(v) ≥ 0, finite: the utility is Σ w(v)·p_true(v)
	Pair   dp.Pair
}

// check reports a broken precondition (sizes, weights); input validation with file
// positions belongs to the caller.
func (p *Problem) check() error {
	n := p.G.N()
	if len(p.Answer) != n || len(p.Weight) != n {
		return fmt.Errorf("optimize: %d answers and %d weights for %d vertices", len(p.Answer), len(p.Weight), n)
	}
	for v, w := range p.Weight {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("optimize: weight %v of vertex %d is not a finite number ≥ 0", w, v)
		}
	}
	return nil
}

// lp is the linear program of doc.go in the form the solver iterates on. Row
// j·arcs + p is line j's row (lines.go) on the arc at CSR position p, from u (its
// owner) to v = Adj[p]:
//
//	lo_j ≤ e_j·x_v − x_u ≤ hi_j,   for (ε,δ): lo = −δ, hi = e − 1 + δ,
//
// which holds for both arcs of an edge iff the four (ε,δ)-DP inequalities of the
// edge hold (for the other frameworks: iff the edge meets the lines' pair). The
// objective is maximise c0 + Σ s_v·x_v with s_v = ±w(v).
type lp struct {
	g     *graph.Graph
	rev   []uint32  // rev[p]: position of the reverse arc (v→u) of arc p (u→v)
	s     []float64 // objective coefficient of x_v
	c0    float64   // Σ of the answer-0 weights: p_true = 1 − x there
	lines []line    // the row families (lines.go); (ε,δ) has one
	tau   []float64 // diagonal primal steps 1/Σ_i |K_iv| = 1/(deg(v)·Σ_j (a_j + b_j)); 0 if isolated
	sigma []float64 // dual step of line j's rows, 1/Σ_v |K_pv| = 1/(a_j + b_j) (line.a, line.b)
	parts [][2]int32

	// The box of x_v by v's answer c (Floors): [boxLo[c], boxHi[c]], [0, 1] without
	// floors; certHi[0] is RU(1 − Floor[0]), the real box's end rounded outward, for
	// the certificate (boxHi[0] is RD of it: the float64 values that meet the floor).
	ans          []bool
	boxLo, boxHi [2]float64
	certHi0      float64
	// arcs[a][b]: some arc runs from an answer-a to an answer-b dataset (mix.go).
	arcs [2][2]bool
}

// box is x_v's range.
func (m *lp) box(v int32) (lo, hi float64) {
	c := words.Bit(m.ans[v])
	return m.boxLo[c], m.boxHi[c]
}

func newLP(ctx context.Context, p *Problem, lines []line, f Floors, workers int) (*lp, error) {
	g := p.G
	n := g.N()
	if int64(len(g.Adj)) > math.MaxUint32 {
		return nil, fmt.Errorf("optimize: %d arcs; at most %d are supported", len(g.Adj), uint64(math.MaxUint32))
	}
	if int64(len(g.Adj))*int64(len(lines)) > math.MaxInt32*8 {
		return nil, fmt.Errorf("optimize: %d arcs × %d lines of the framework: too many rows", len(g.Adj), len(lines))
	}
	m := &lp{g: g, s: make([]float64, n), lines: lines,
		tau: make([]float64, n), rev: make([]uint32, len(g.Adj)),
		ans: p.Answer, boxLo: [2]float64{0, f[1]}, boxHi: [2]float64{f.hi0(), 1}, certHi0: f.hi0Up()}
	sum := 0.0
	for _, l := range lines {
		m.sigma = append(m.sigma, 1/(l.a+l.b))
		sum += l.a + l.b
	}
	for v, w := range p.Weight {
		if p.Answer[v] {
			m.s[v] = w
		} else {
			m.s[v] = -w
			m.c0 += w
		}
		if d := g.Off[v+1] - g.Off[v]; d > 0 {
			m.tau[v] = 1 / (float64(d) * sum)
		}
	}
	m.parts = partition(g, workers)
	if err := m.reverse(ctx, g.Workers()); err != nil {
		return nil, err
	}
	return m, nil
}

// reverse fills m.rev (arc q = u→v's partner, v→u) and m.arcs. Lists are sorted
// (graph invariant 1), so the datasets u whose lists hold v come in u's order, and
// the k-th of them is the k-th entry of v's list: a pass over the arcs with a
// cursor per dataset. The pass is split into k ranges of u (newLP: g.Workers(), one per
// core on large graphs) run concurrently, each with its own cursors, started where the
// range's first u falls in each list (a binary search of each list, read in
// order); rev does not depend on the split.
func (m *lp) reverse(ctx context.Context, k int) error {
	g, n := m.g, m.g.N()
	ranges := byArcs(g, k)
	seen := make([][2][2]bool, len(ranges))
	var eg errgroup.Group
	for i, r := range ranges {
		eg.Go(func() error {
			next := make([]uint32, n)
			for v := range n {
				next[v] = uint32(g.Off[v])
				if r[0] > 0 {
					at, _ := slices.BinarySearch(g.Neighbours(int32(v)), r[0])
					next[v] += uint32(at)
				}
			}
			for u := r[0]; u < r[1]; u++ {
				if u%(1<<16) == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				au := words.Bit(m.ans[u])
				for q := g.Off[u]; q < g.Off[u+1]; q++ {
					v := g.Adj[q]
					m.rev[q] = next[v]
					next[v]++
					seen[i][au][words.Bit(m.ans[v])] = true
				}
			}
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return err
	}
	for _, s := range seen {
		for a := range 2 {
			for b := range 2 {
				m.arcs[a][b] = m.arcs[a][b] || s[a][b]
			}
		}
	}
	return nil
}

// partition splits the vertices into contiguous ranges of about equal arc counts,
// a few per worker so an uneven range does not idle a core.
func partition(g *graph.Graph, workers int) [][2]int32 {
	n := g.N()
	k := 1
	if g.Off[n]+int64(n) >= 1<<15 {
		k = 4 * max(1, workers)
	}
	return byArcs(g, k)
}

// byArcs splits the vertices into at most k contiguous ranges of about equal arc
// counts (empty ones left out).
func byArcs(g *graph.Graph, k int) [][2]int32 {
	n := g.N()
	arcs := g.Off[n]
	var out [][2]int32
	start := 0
	for i := 1; i <= k; i++ {
		end := n
		if i < k {
			want := arcs * int64(i) / int64(k)
			end = sort.Search(n, func(v int) bool { return g.Off[v] >= want })
		}
		if end > start {
			out = append(out, [2]int32{int32(start), int32(end)})
			start = end
		}
	}
	return out
}

// each runs fn on every vertex range, concurrently, and waits; fn(k, …) may write
// slot k of a per-range result so that sums are added in range order (deterministic).
func (m *lp) each(ctx context.Context, fn func(k int, lo, hi int32)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(m.parts) == 1 {
		fn(0, m.parts[0][0], m.parts[0][1])
		return nil
	}
	var wg sync.WaitGroup
	for k, r := range m.parts {
		wg.Go(func() { fn(k, r[0], r[1]) })
	}
	wg.Wait()
	return nil
}

// objective is c0 + s·x in float64 (progress and restarts only).
func (m *lp) objective(x []float64) float64 {
	f := m.c0
	for v, sv := range m.s {
		f += sv * x[v]
	}
	return f
}

// violation is how far arc p's rows are outside their ranges at x (0 when inside).
func (m *lp) violation(x []float64, u int32, p int64) float64 {
	xv, xu, w := x[m.g.Adj[p]], x[u], 0.0
	for _, l := range m.lines {
		a := l.e*xv - xu
		w = max(w, l.lo-a, a-l.hi)
	}
	return w
}

// rows is the number of rows: one per arc and line.
func (m *lp) rows() int { return len(m.g.Adj) * len(m.lines) }
