package optimize

import (
	"context"
	"math"
	"sort"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"

	"github.com/graphdp/graphdp/internal/words"
)

// Homogeneous is the two-parameter family of the paper's boundary-homogeneous
// corollary (docs/DESIGN.md §3.6): p_true = α₀ on every answer-0 and α₁ on every
// answer-1 hitting-set dataset, and the best pair for the utility.
type Homogeneous struct {
	// Distance is the smallest hop distance between hitting-set datasets of
	// different answers (−1: none in one component, every pair is feasible). The
	// feasible region is exactly {α₁ ≤ U^D(1−α₀), 1−α₀ ≤ U^D(α₁), α₀ ≤ U^D(1−α₁),
	// 1−α₁ ≤ U^D(α₀)} with D = Distance (the paper's feasibility lemma: pairs of the
	// same answer always hold, U^d(a) ≥ a, and U^d grows with d).
	Distance int  `json:"distance"`
	Feasible bool `json:"feasible"` // some pair was found (the balanced one always is)
	// Hit0, Hit1 count the hitting-set datasets of each answer: with none of one
	// answer, that answer's α changes nothing.
	Hit0    int     `json:"hitting_set_answer_0"`
	Hit1    int     `json:"hitting_set_answer_1"`
	Alpha0  float64 `json:"alpha0"`
	Alpha1  float64 `json:"alpha1"`
	Utility float64 `json:"utility"` // of the extension of the best pair, rounded down (bfs.Solve)
	// BalancedUtility is the family's value at (α, α), the balanced corollary.
	BalancedUtility float64 `json:"balanced_utility"`

	fam   *family
	sol   *bfs.Solution
	ptrue []float64
}

// family evaluates the utility of any pair fast: with homogeneous values a vertex's
// colour fields depend only on its distances d0, d1 to the nearest answer-0 and
// answer-1 hitting-set datasets (docs/DESIGN.md §3.1: g_1(w) = min(U^{d1}(α₁),
// U^{d0}(1−α₀)), g_0(w) = min(U^{d0}(α₀), U^{d1}(1−α₁))), so the weights are
// bucketed by (answer, d0, d1) once, by two multi-source BFS.
type family struct {
	pair    dp.Pair
	ext     *pairs // the extensions of pairs on the family's hitting set
	buckets []bucket
	dist    int // Distance
	far     int // the buckets' largest distance
	// near[c][k] is the smallest distance from an answer-c dataset (any weight) to an
	// answer-k hitting-set dataset, −1 if none reaches; has[c]: some answer-c dataset.
	// They give each answer's smallest p_true, for the floors (meets).
	near   [2][2]int32
	has    [2]bool
	floors Floors
	// orbits is utility's scratch: U^d of its four starting values for every d
	// (a family is not for concurrent use).
	orbits [4][]float64
}

type bucket struct {
	answer bool
	d0, d1 int32 // −1: unreachable
	w      float64
}

// newFamily buckets e's problem's weights by their distances to e's hitting set
// (family).
func newFamily(ctx context.Context, e *pairs) (*family, error) {
	p, hit := e.p, e.hit
	n := p.G.N()
	src := [2][]int32{{}, {}} // not nil: an answer without hitting-set datasets is at −1 everywhere
	for _, h := range hit {
		src[words.Bit(p.Answer[h])] = append(src[words.Bit(p.Answer[h])], h)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d := p.G.DistancesFrom(src[0], src[1])
	f := &family{pair: p.Pair, ext: e, dist: -1}
	for _, h := range src[1] {
		if x := d[0][h]; x >= 0 && (f.dist < 0 || int(x) < f.dist) {
			f.dist = int(x)
		}
	}
	type key struct {
		a      bool
		d0, d1 int32
	}
	sum := map[key]float64{}
	f.near = [2][2]int32{{-1, -1}, {-1, -1}}
	for v := range n {
		c := words.Bit(p.Answer[v])
		f.has[c] = true
		for k := range 2 {
			if x := d[k][v]; x >= 0 && (f.near[c][k] < 0 || x < f.near[c][k]) {
				f.near[c][k] = x
			}
		}
		if w := p.Weight[v]; w > 0 {
			sum[key{p.Answer[v], d[0][v], d[1][v]}] += w
		}
	}
	for k, w := range sum {
		f.buckets = append(f.buckets, bucket{k.a, k.d0, k.d1, w})
		f.far = max(f.far, int(k.d0), int(k.d1))
	}
	sort.Slice(f.buckets, func(i, j int) bool { // a deterministic order of summation
		a, b := f.buckets[i], f.buckets[j]
		if a.answer != b.answer {
			return !a.answer
		}
		if a.d0 != b.d0 {
			return a.d0 < b.d0
		}
		return a.d1 < b.d1
	})
	return f, nil
}

// bound is U^d(a), or 1 (no bound) for d < 0.
func (f *family) bound(d int32, a float64) float64 {
	if d < 0 {
		return 1
	}
	return f.pair.Iterate(int(d), a)
}

// Feasible reports whether (α₀, α₁) admits an extension (Homogeneous.Distance).
func (f *family) feasible(a0, a1 float64) bool {
	if !(a0 >= 0 && a0 <= 1 && a1 >= 0 && a1 <= 1) || !f.meets(a0, a1) {
		return false
	}
	if f.dist < 0 {
		return true
	}
	d := int32(f.dist)
	const tol = bfs.Tolerance
	return a1 <= f.bound(d, 1-a0)+tol && 1-a0 <= f.bound(d, a1)+tol &&
		a0 <= f.bound(d, 1-a1)+tol && 1-a1 <= f.bound(d, a0)+tol
}

// meets reports whether the pair's extension meets the floors: an answer-c
// dataset's p_true is min(U^{d_c}(α_c), U^{d_k}(1 − α_k)) (k the other answer), and
// U^d grows with d, so each answer's smallest p_true is this at the nearest
// distances (float64, like the search; the chosen pair's mechanism is checked
// exactly by Optimize).
func (f *family) meets(a0, a1 float64) bool {
	if !f.floors.any() {
		return true
	}
	a := [2]float64{a0, a1}
	for c := range 2 {
		if !f.has[c] || f.floors[c] == 0 {
			continue
		}
		if f.near[c][c] >= 0 && f.bound(f.near[c][c], a[c]) < f.floors[c] ||
			f.near[c][1-c] >= 0 && f.bound(f.near[c][1-c], 1-a[1-c]) < f.floors[c] {
			return false
		}
	}
	return true
}

// utility is Σ w·p_true of the extension of (α₀, α₁) (float64, for the search and
// the plot; the reported best is recomputed by bfs.Solve). The buckets need U^d of
// only four values, a1, 1 − a0, a0 and 1 − a1: each is iterated once, as far as
// the buckets' distances or until it reaches 1 (the same values as bound's), so an
// evaluation costs four orbits and a lookup per bucket, not an orbit per bucket.
func (f *family) utility(a0, a1 float64) float64 {
	for i, a := range [4]float64{a1, 1 - a0, a0, 1 - a1} {
		f.orbits[i] = f.orbit(f.orbits[i][:0], a)
	}
	return f.sum(&f.orbits)
}

// orbit appends a, U(a), U²(a), … to o, as far as the buckets' distances or until
// it reaches 1.
func (f *family) orbit(o []float64, a float64) []float64 {
	o = append(o, a)
	for d := 0; d < f.far && a < 1; d++ {
		a = f.pair.Upper(a)
		o = append(o, a)
	}
	return o
}

// sum is utility's Σ w·p_true from the orbits of a1, 1 − a0, a0 and 1 − a1.
func (f *family) sum(orbits *[4][]float64) float64 {
	at := func(i int, d int32) float64 {
		if d < 0 {
			return 1
		}
		o := orbits[i]
		return o[min(int(d), len(o)-1)]
	}
	u := 0.0
	for _, b := range f.buckets {
		var pt float64
		if b.answer {
			pt = min(at(0, b.d1), at(1, b.d0))
		} else {
			pt = min(at(2, b.d0), at(3, b.d1))
		}
		u += b.w * pt
	}
	return u
}

// At is the family's utility at (α₀, α₁) and whether the pair is feasible. It
// reuses the family's scratch: not for concurrent use.
func (h *Homogeneous) At(a0, a1 float64) (float64, bool) {
	if h.fam == nil || !h.fam.feasible(a0, a1) {
		return math.NaN(), false
	}
	return h.fam.utility(a0, a1), true
}

// directions are the pattern search's moves: 32 angles, so that it can follow the
// region's boundary curves (slopes e^{±εD} and −1) rather than stall at a kink.
var directions = func() [][2]float64 {
	out := make([][2]float64, 32)
	for k := range out {
		a := 2 * math.Pi * float64(k) / 32
		out[k] = [2]float64{math.Cos(a), math.Sin(a)}
	}
	return out
}()

// Grid is the family's utility on a k×k grid: [i][j] at α₀ = i/(k−1), α₁ = j/(k−1),
// NaN where infeasible (for report.RegionHTML): At at each pair.
func (h *Homogeneous) Grid(k int) [][]float64 {
	// The grid's values take k forms, i/(k−1), and their complements k more: the
	// orbits are computed once each, not four per cell (At's values, the same bytes).
	var up, down [][]float64
	if h.fam != nil {
		for i := range k {
			a := float64(i) / float64(k-1)
			up, down = append(up, h.fam.orbit(nil, a)), append(down, h.fam.orbit(nil, 1-a))
		}
	}
	out := make([][]float64, k)
	for i := range out {
		out[i] = make([]float64, k)
		for j := range out[i] {
			a0, a1 := float64(i)/float64(k-1), float64(j)/float64(k-1)
			out[i][j] = math.NaN()
			if h.fam != nil && h.fam.feasible(a0, a1) {
				out[i][j] = h.fam.sum(&[4][]float64{up[j], down[i], up[i], down[j]})
			}
		}
	}
	return out
}

// BestHomogeneous finds the best boundary-homogeneous pair on the hitting set hit.
// The utility is concave in (α₀, α₁) (a sum of minima of compositions of concave
// non-decreasing maps) on a convex region, so a grid followed by a pattern search
// with shrinking steps finds its maximum (up to the search's resolution; the
// reported utility is that of the pair found, computed by bfs.Solve).
func BestHomogeneous(ctx context.Context, p *Problem, hit []int32) (*Homogeneous, error) {
	f, err := newFamily(ctx, newPairs(p, hit))
	if err != nil {
		return nil, err
	}
	return f.best(ctx, p, Floors{})
}

// floored is a copy of the family whose pairs must meet floors (family.meets), with
// orbits of its own; fam is not changed.
func (fam *family) floored(floors Floors) *family {
	c := *fam
	c.floors, c.orbits = floors, [4][]float64{}
	return &c
}

// best is BestHomogeneous on the family's buckets over the pairs whose extension
// meets the floors (family.meets; the region stays convex: each condition is an
// upper set of a non-decreasing function), the utility it reports p's (the
// family's buckets may weigh another objective's way: the trade-off curve's).
// Feasible is false when the search finds none (the floors at their limit leave a
// region too thin for it). f's floors are not changed: the search has its own copy.
func (fam *family) best(ctx context.Context, p *Problem, floors Floors) (*Homogeneous, error) {
	hit := fam.ext.hit
	f := fam.floored(floors)
	h := &Homogeneous{Distance: f.dist, fam: f}
	for _, v := range hit {
		if p.Answer[v] {
			h.Hit1++
		} else {
			h.Hit0++
		}
	}
	alpha := p.Pair.Balanced()
	h.BalancedUtility = f.utility(alpha, alpha)
	best, b0, b1 := math.Inf(-1), alpha, alpha
	try := func(a0, a1 float64) bool {
		if !f.feasible(a0, a1) {
			return false
		}
		if u := f.utility(a0, a1); u > best {
			best, b0, b1 = u, a0, a1
			return true
		}
		return false
	}
	try(alpha, alpha)
	if floors.any() { // the floors' own pair, and the corner of the box above them
		try(1-floors.hi0(), floors[1])
		try(1-floors.hi0(), p.Pair.Upper(floors.hi0()))
	}
	const grid = 64
	for i := 0; i <= grid; i++ {
		for j := 0; j <= grid; j++ {
			try(float64(i)/grid, float64(j)/grid)
		}
	}
	for step := 1.0 / grid; step > 1e-13; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		moved := false
		for _, dv := range directions {
			if try(b0+dv[0]*step, b1+dv[1]*step) {
				moved = true
			}
		}
		if !moved {
			step /= 2
		}
	}
	if math.IsInf(best, -1) {
		return h, nil // no pair meets the floors
	}
	h.Feasible, h.Alpha0, h.Alpha1 = true, b0, b1
	// The reported utility is the mechanism run computes for the pair: bfs.Solve on
	// the hitting set (repaired onto its bounds where the search stopped within the
	// tolerance), rounded down like every utility optimize reports.
	sol, pt, err := f.ext.extend(ctx, b0, b1)
	if err != nil {
		return nil, err
	}
	h.Utility, h.sol, h.ptrue = certifiedUtility(p, sol.POne), sol, pt
	return h, nil
}
