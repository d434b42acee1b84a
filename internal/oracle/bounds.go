package oracle

import (
	"fmt"
	"math/big"
	"sort"
)

// Bounds is a framework's suitable pair on the real line (docs/DESIGN.md §11): for a
// neighbour of a dataset with Pr[M = c] = a, U(a) and L(a) bound Pr[M = c] from above
// and below. Every framework here has L(a) = 1 − U(1 − a), so the four inequalities
// of an edge are b ≤ U(a) and a ≤ U(b) for each output's probabilities a, b.
type Bounds interface {
	U(a *big.Float) *big.Float
	L(a *big.Float) *big.Float
}

// A Shift is Bounds that translate an increasing coordinate by a constant step:
// U(a) = Of(At(a) + Step), L(a) = Of(At(a) − Step), so U^d(a) = Of(At(a) + d·Step)
// exactly. μ-GDP is one, in z = Φ⁻¹(a) (docs/DESIGN.md §11.2). Optimum and Private
// use the coordinate instead of iterating U.
type Shift interface {
	Bounds
	At(a *big.Float) *big.Float // −Inf at 0, +Inf at 1
	Of(z *big.Float) *big.Float
	Step() *big.Float
}

// own is Pr[M(w) = c] for a mechanism given as p_true = Pr[M(w) = answer(w)]: p_true
// itself for c = answer(w), the real 1 − p_true otherwise.
func own(c bool, answer bool, ptrue *big.Float) *big.Float {
	if c == answer {
		return ptrue
	}
	return OneMinus(ptrue)
}

// Extension is the optimal extension of hitting-set values (the paper's main theorem,
// docs/DESIGN.md §3): G(c, w) = g_c(w) = min over h of U^dist(w,h)(a_c(h)) on
// Pr[M = c] (1 where no h is reachable), A[c][i] = a_c(Hit[i]), and PTrue[w] =
// g_answer(w)(w), the optimum's exact p_true.
type Extension struct {
	A     [2][]*big.Float
	Hit   []int32
	PTrue []*big.Float
	g     *colourFields
}

// G is g_c(w).
func (e *Extension) G(c int, w int32) *big.Float { return e.g.at(c, w) }

// Optimum is the paper's Algorithm 1 in own-answer coordinates: one breadth-first
// search per hitting-set vertex hit[i], whose p_true is ptrue[i] read as an exact
// binary fraction; Pr[M(h) = c] is ptrue[i] for c = answer(h) and the real
// 1 − ptrue[i] otherwise. U^d is iterated (for a Shift, taken in its coordinate) with
// no rounding to float64.
func Optimum(b Bounds, adj [][]int32, answer []bool, hit []int32, ptrue []float64) *Extension {
	e := &Extension{Hit: hit}
	for c := range 2 {
		e.A[c] = make([]*big.Float, len(hit))
		for i, h := range hit {
			e.A[c][i] = own(c == 1, answer[h], F(ptrue[i]))
		}
	}
	e.g = fields(b, adj, hit, e.A)
	e.PTrue = make([]*big.Float, len(adj))
	for w := range adj {
		e.PTrue[w] = e.G(b2i(answer[w]), int32(w))
	}
	return e
}

// Feasible reports the paper's feasibility lemma (docs/DESIGN.md §3.3): no hitting-set
// value is above the bound another imposes, g_c(h) = a_c(h) for both outputs. When it
// fails, the first violation is described.
func (e *Extension) Feasible() (bool, string) {
	for c := range 2 {
		for i, h := range e.Hit {
			if g := e.G(c, h); g.Cmp(e.A[c][i]) < 0 {
				return false, fmt.Sprintf("vertex %d, output %d: value %s above its bound %s", h, c,
					e.A[c][i].Text('g', 20), g.Text('g', 20))
			}
		}
	}
	return true, ""
}

// distances is the breadth-first distance from s in adj (-1 where unreachable).
func distances(adj [][]int32, s int32) []int32 {
	dist := make([]int32, len(adj))
	for v := range dist {
		dist[v] = -1
	}
	dist[s] = 0
	queue := []int32{s}
	for k := 0; k < len(queue); k++ {
		x := queue[k]
		for _, y := range adj[x] {
			if dist[y] < 0 {
				dist[y] = dist[x] + 1
				queue = append(queue, y)
			}
		}
	}
	return dist
}

// colourFields holds g_c for both outputs: the values, or for a Shift the least
// coordinate At(a) + d·Step, turned into a value (one Φ for μ-GDP) when asked for.
type colourFields struct {
	val   [2][]*big.Float
	z     [2][]*big.Float // Shift only; nil where no source reaches
	shift Shift
}

func (f *colourFields) at(c int, w int32) *big.Float {
	if f.val[c][w] == nil {
		f.val[c][w] = F(1)
		if z := f.z[c][w]; z != nil {
			f.val[c][w] = f.shift.Of(z)
		}
	}
	return f.val[c][w]
}

// fields is g_c for both outputs from the sources' values a[c][i] at hit[i].
func fields(b Bounds, adj [][]int32, hit []int32, a [2][]*big.Float) *colourFields {
	n := len(adj)
	dist := make([][]int32, len(hit))
	for i, h := range hit {
		dist[i] = distances(adj, h)
	}
	f := &colourFields{}
	for c := range 2 {
		f.val[c] = make([]*big.Float, n)
		if s, ok := b.(Shift); ok {
			// min over h of Of(At(a) + d·Step) is Of of the least coordinate.
			f.shift = s
			step := s.Step()
			f.z[c] = make([]*big.Float, n)
			for i := range hit {
				z := s.At(a[c][i])
				for w, d := range dist[i] {
					if d < 0 {
						continue
					}
					zd := z
					if !z.IsInf() {
						zd = Sum(z, Prod(step, new(big.Float).SetInt64(int64(d))))
					}
					if f.z[c][w] == nil || zd.Cmp(f.z[c][w]) < 0 {
						f.z[c][w] = zd
					}
				}
			}
			continue
		}
		for w := range n {
			f.val[c][w] = F(1)
		}
		for i := range hit {
			iter := []*big.Float{a[c][i]} // U^d(a) for d up to the largest distance, once
			for w, d := range dist[i] {
				if d < 0 {
					continue
				}
				for int32(len(iter)) <= d {
					iter = append(iter, b.U(iter[len(iter)-1]))
				}
				if iter[d].Cmp(f.val[c][w]) < 0 {
					f.val[c][w] = iter[d]
				}
			}
		}
	}
	return f
}

// EdgeError is an edge on which a mechanism breaks an inequality: Pr[M(To) = Output]
// above U(Pr[M(From) = Output]).
type EdgeError struct {
	From, To int32
	Output   int
	A, B     *big.Float // Pr[M(From) = Output], Pr[M(To) = Output]
}

func (e *EdgeError) Error() string {
	return fmt.Sprintf("edge %d→%d, output %d: Pr %s next to %s is above the bound", e.From, e.To, e.Output,
		e.B.Text('g', 20), e.A.Text('g', 20))
}

// Private decides, exactly, whether the mechanism with p_true = ptrue[w] (an exact
// binary fraction; Pr[M(w) ≠ answer(w)] the real 1 − ptrue[w]) satisfies the
// framework on every edge of adj: both outputs, both directions. It returns the first
// broken inequality as an *EdgeError, nil when there is none.
func Private(b Bounds, adj [][]int32, answer []bool, ptrue []float64) error {
	exact := make([]*big.Float, len(ptrue))
	for w, p := range ptrue {
		exact[w] = F(p)
	}
	return PrivateReal(b, adj, answer, exact)
}

// PrivateReal is Private for a mechanism given by real p_true values.
func PrivateReal(b Bounds, adj [][]int32, answer []bool, ptrue []*big.Float) error {
	var pr [2][]*big.Float
	for c := range 2 {
		pr[c] = make([]*big.Float, len(adj))
		for w := range adj {
			pr[c][w] = own(c == 1, answer[w], ptrue[w])
		}
	}
	s, shift := b.(Shift)
	var z [2][]*big.Float
	if shift {
		for c := range 2 {
			z[c] = make([]*big.Float, len(adj))
			for w := range adj {
				z[c][w] = s.At(pr[c][w])
			}
		}
	}
	for u := range adj {
		for _, v := range adj[u] {
			for c := range 2 {
				var ok bool
				if shift {
					// b ≤ Of(At(a) + Step) ⟺ At(b) ≤ At(a) + Step (Of is increasing).
					zu := z[c][u]
					if !zu.IsInf() {
						zu = Sum(zu, s.Step())
					}
					ok = z[c][v].Cmp(zu) <= 0
				} else {
					ok = pr[c][v].Cmp(b.U(pr[c][u])) <= 0
				}
				if !ok {
					return &EdgeError{From: int32(u), To: v, Output: c, A: pr[c][u], B: pr[c][v]}
				}
			}
		}
	}
	return nil
}

// Rounded is the optimal extension computed the way a float64 engine can: for each
// output c, g̃_c(w) = min over h of Ũ^dist(w,h)(a_c(h)) with Ũ(y) = RD(U(y)), one
// rounding down per hop from the exact hitting-set values; every dataset w outside
// the hitting set gets p_true = g̃_answer(w)(w) and the hitting set keeps its given
// values. It is the oracle's witness that an instance's optimum is representable:
// when Private accepts it, a float64 mechanism exists on the safe side of the
// optimum and as close to it as these roundings.
//
// Ũ^k(a) does not decrease with k ≥ 1 (Ũ(y) ≥ y for a float64 y, U being at least
// the identity), so a source's chain stops at the depth where it can no longer
// improve any dataset at that distance or beyond, as in Algorithm 1 (docs/DESIGN.md
// §5), and sources are taken smallest first so that it stops early.
func Rounded(b Bounds, adj [][]int32, answer []bool, hit []int32, ptrue []float64) []float64 {
	n := len(adj)
	out := make([]float64, n)
	inH := make([]bool, n)
	for w := range out {
		out[w] = 1
	}
	for i, h := range hit {
		out[h], inH[h] = ptrue[i], true
	}
	for c := range 2 {
		a := make([]*big.Float, len(hit))
		order := make([]int, len(hit))
		for i, h := range hit {
			a[i], order[i] = own(c == 1, answer[h], F(ptrue[i])), i
		}
		sort.Slice(order, func(x, y int) bool { return a[order[x]].Cmp(a[order[y]]) < 0 })
		for _, i := range order {
			dist := distances(adj, hit[i])
			// best[d]: the largest value at distance d or more that the chain could lower.
			var best []float64
			for w, d := range dist {
				if d <= 0 || inH[w] || b2i(answer[w]) != c {
					continue
				}
				for len(best) <= int(d) {
					best = append(best, 0)
				}
				best[d] = max(best[d], out[w])
			}
			for d := len(best) - 2; d >= 0; d-- {
				best[d] = max(best[d], best[d+1])
			}
			chain := []float64{0} // chain[k] = Ũ^k(a), k ≥ 1
			y := a[i]
			for k := 1; k < len(best); k++ {
				next := RoundDown(b.U(y))
				if next >= best[k] {
					break
				}
				chain = append(chain, next)
				y = F(next)
			}
			for w, d := range dist {
				if d > 0 && int(d) < len(chain) && !inH[w] && b2i(answer[w]) == c {
					out[w] = min(out[w], chain[d])
				}
			}
		}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
