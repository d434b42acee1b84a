package bfs

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	bigoracle "github.com/graphdp/graphdp/internal/oracle"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// The tails (DESIGN.md §8.3): generated instances of every framework, with hitting-set
// values deep in both tails on both answers, measured by the independent oracle
// (internal/oracle: math/big, its own Φ and Φ⁻¹, no float64 between steps) on every
// local engine (propagate, per-source, rounds with small shards). Per dataset
// outside the hitting set, p_true is at most the exact optimum and within 1e-12 of it,
// absolutely and relatively; on every dataset p_one is p_true for answer 1, and for
// answer 0 the smaller of the two columns is exact and the other its complement
// rounded to the safe side (p_true down, p_one up: docs/DESIGN.md §8.3); the hitting
// set's p_true come back bit for bit; the real mechanism those columns hold
// (realPTrue) is private on every edge; and the engines agree bit for bit. The worst misses are logged per framework
// family and answer, with those of the instances that a p_one reading holds without
// loss (every answer-0 value has a float64 complement) and those of the oracle's own
// float64 rounding (oracle.Rounded): what a correct engine can reach.
//
// The generator. Connected graphs of 4 to 40 datasets (trees long and bushy, trees
// with extra edges, grids); answers in Voronoi cells of 2 to 4 seeds, sometimes with
// a few flipped. A field ζ is drawn in the framework's coordinate — z = Φ⁻¹(Pr[M = 1])
// for μ-GDP, the log-odds of Pr[M = 1] otherwise — with |ζ(u) − ζ(v)| ≤ κ·λ on every
// edge (checked exactly), κ in [0.5, 0.9]: λ = μ makes it μ-GDP, λ = ε (the smallest ε
// of a profile) makes it (ε, 0)-DP, and each curve has a λ whose (λ, 0) curve lies
// above it (checked here), so the field is an exactly private mechanism. It is a
// moderate part — a constant plus multiples of distances to random datasets, κλ/2 a
// hop, clipped to |ζ| ≤ 20 (log-odds) or 5.5 (z) — plus, in each connected region of
// one answer, an excursion that is zero on the boundary and grows by up to κλ/2 a
// hop away from it, towards a target in one tail (p_true from about 1e-300 to
// 1 − 1e-300). The hitting set is one end of every boundary edge and some datasets
// inside regions; its values are the field's p_true, computed in math/big, rounded
// to the nearest float64 and clamped to [1e-300, 1 − 2^-53]. A third of the
// instances have one answer and sit, whole, at the deepest target of one tail,
// going through the four (answer, tail) pairs, so that every family reaches 1e-300
// and 1 − 2^-53 on both answers (asserted) whatever its λ; a third of the others
// round their answer-0 values to multiples of 2^-53 (the p_one-exact ones).
//
// Where the tails can go. A float64 p_true within ~1e-16 of 1 carries Pr[M ≠ answer]
// only to ±2^-53, so next to a dataset of the other answer whose p_true is far below
// 2^-53 no float64 p_true may be private at all (under δ = 0 or μ-GDP). So the deep
// tails are only inside regions of one answer: on the boundary the field is the
// moderate part alone, every p_true above 2e-9 (log-odds) or 1.9e-8 (z), and the
// excursion needs hops to get deep. Whatever the generator does, the oracle decides:
// an instance is used only if its rounded values are exactly feasible (the paper's
// lemma, Extension.Feasible) and representable (oracle.Rounded, one rounding down
// per hop in own-answer coordinates, is private); the others are counted, and at
// least three quarters must be used.

type tailFramework struct {
	family string // what the worst misses are reported by
	name   string
	pair   dp.Pair
	orc    bigoracle.Bounds
	probit bool    // the field's coordinate is z = Φ⁻¹(p_one), else log-odds
	lambda float64 // any field within λ a hop is private under the framework
	count  int     // instances
}

func tailFrameworks(t *testing.T) []tailFramework {
	t.Helper()
	scale := func(full, short int) int { return testgraph.Instances(full, short) }
	var out []tailFramework
	for _, eps := range []float64{1e-6, 1e-3, 0.1, math.Nextafter(math.Ln2, 1), 1, 5, 20, 50, 300, 700} {
		for _, delta := range []float64{0, 1e-9, 1e-3, 0.3} {
			p, err := dp.New(eps, delta)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, tailFramework{"(ε,δ)", fmt.Sprintf("ε=%v δ=%v", eps, delta), p,
				bigoracle.Pair{Epsilon: eps, Delta: delta}, false, eps, scale(3, 1)})
		}
	}
	for _, mu := range []float64{0.05, 0.3, 1, 2.5, 6} {
		p, err := dp.NewGDP(mu)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tailFramework{"μ-GDP", fmt.Sprintf("μ=%v", mu), p, bigoracle.GDP{Mu: mu}, true, mu, scale(24, 6)})
	}
	for _, pr := range [][2][]float64{
		{{0.3, 1, 2}, {0.1, 1e-3, 1e-6}},
		{{0.5, 3, 10}, {0, 1e-9, 1e-4}},
	} {
		p, err := dp.NewProfile(pr[0], pr[1])
		if err != nil {
			t.Fatal(err)
		}
		var orc bigoracle.Profile
		for i := range pr[0] {
			orc = append(orc, bigoracle.Pair{Epsilon: pr[0][i], Delta: pr[1][i]})
		}
		out = append(out, tailFramework{"profile", fmt.Sprintf("ε=%v δ=%v", pr[0], pr[1]), p, orc, false, pr[0][0], scale(25, 8)})
	}
	for _, c := range []struct {
		alpha, beta []float64
		lambda      float64
	}{
		{[]float64{0, 0.05, 0.5, 1}, []float64{0.9, 0.3, 0.05, 0}, 1},
		{[]float64{0, 0.01, 0.1, 0.3, 0.6, 1}, []float64{1, 0.6, 0.25, 0.08, 0.01, 0}, 1.2},
		{[]float64{0, 0.02, 0.2, 0.6, 1}, []float64{0.95, 0.5, 0.1, 0, 0}, 1.2},
	} {
		p, err := dp.NewTradeoff(c.alpha, c.beta)
		if err != nil {
			t.Fatal(err)
		}
		orc := bigoracle.Curve{Alpha: c.alpha, Beta: c.beta}
		// The field's privacy: the curve lies below the (λ, 0) curve, that is its U is
		// at least (λ, 0)'s everywhere. Both are concave and piecewise linear, so the
		// breakpoints of both decide; these points include them and both tails.
		ed := bigoracle.Pair{Epsilon: c.lambda}
		pts := append([]float64{1e-300, 1e-12, 1 / (1 + math.Exp(c.lambda)), 1 / (1 + math.Exp(-c.lambda)), 1 - 1e-12, 1 - 0x1p-53}, c.alpha...)
		pts = append(pts, c.beta...)
		for k := 1; k < 100; k++ {
			pts = append(pts, float64(k)/100)
		}
		for _, a := range pts {
			if x := bigoracle.F(a); orc.U(x).Cmp(ed.U(x)) < 0 {
				t.Fatalf("curve %v: U(%v) below the (%v, 0) bound: the field would not be private", c.beta, a, c.lambda)
			}
		}
		out = append(out, tailFramework{"curve", fmt.Sprintf("β=%v", c.beta), p, orc, false, c.lambda, scale(20, 8)})
	}
	return out
}

// tailGraph is a connected graph of 4 to 40 datasets: a long tree, a bushy tree, a
// tree with extra edges, or a grid.
func tailGraph(r *rand.Rand) (int, [][2]int32, string) {
	n := 4 + r.IntN(37)
	var e [][2]int32
	switch k := r.IntN(4); k {
	case 3:
		w := 2 + r.IntN(4)
		h := max(2, n/w)
		for y := range h {
			for x := range w {
				v := int32(y*w + x)
				if x+1 < w {
					e = append(e, [2]int32{v, v + 1})
				}
				if y+1 < h {
					e = append(e, [2]int32{v, v + int32(w)})
				}
			}
		}
		return w * h, e, "grid"
	default:
		for i := 1; i < n; i++ {
			parent := r.IntN(i) // bushy
			if k == 0 {
				parent = i - 1 - r.IntN(min(i, 3)) // long
			}
			e = append(e, [2]int32{int32(parent), int32(i)})
		}
		name := []string{"long tree", "tree", "tree+edges"}[k]
		if k == 2 {
			for range r.IntN(2 * n) {
				e = append(e, [2]int32{int32(r.IntN(n)), int32(r.IntN(n))})
			}
		}
		return n, e, name
	}
}

// multiBFS is the distance from the nearest of srcs (1<<20 where none reaches).
func multiBFS(adj [][]int32, srcs []int32) []int {
	d := make([]int, len(adj))
	for v := range d {
		d[v] = 1 << 20
	}
	q := append([]int32(nil), srcs...)
	for _, s := range srcs {
		d[s] = 0
	}
	for k := 0; k < len(q); k++ {
		for _, y := range adj[q[k]] {
			if d[y] > d[q[k]]+1 {
				d[y] = d[q[k]] + 1
				q = append(q, y)
			}
		}
	}
	return d
}

// tailInstance draws one instance of fw (see the comment at the top of the file).
type tailDraw struct {
	g      *graph.Graph
	adj    [][]int32
	answer []bool
	hit    []int32
	ptrue  []float64
	zeta   []float64
	// oneExact: every answer-0 value has a float64 complement, 1 − (1 − p) = p, so a
	// p_one reading of the instance loses nothing: its misses are the engines' own.
	oneExact bool
	desc     string
}

// A tailShape forces an instance to one answer, all of it deep in one tail (the
// deepest target): a third of the instances, going through the four (answer, tail)
// pairs, so that every family reaches p_true 1e-300 and 1 − 2^-53 on both answers
// whatever its λ.
type tailShape struct {
	forced, answer, accurate bool
}

// tailShapeOf is the shape of framework fi's instance k.
func tailShapeOf(fi, k int) tailShape {
	if k%3 != 0 {
		return tailShape{}
	}
	c := k/3 + fi
	return tailShape{true, c%2 == 1, (c/2)%2 == 1}
}

func tailInstance(r *rand.Rand, fw tailFramework, shape tailShape) tailDraw {
	n, edges, graphName := tailGraph(r)
	g := testgraph.FromEdges(n, edges)
	adj := adjacency(g)
	// Answers: the Voronoi cells of 2 to 4 seeds with random answers, sometimes with
	// a few flipped datasets; a fifth of the other instances have one answer only,
	// where the field can sit deep in a tail everywhere whatever λ.
	answer := make([]bool, n)
	seeds := make([]int32, 2+r.IntN(3))
	ans := make([]bool, len(seeds))
	single := shape.forced || r.IntN(5) == 0
	for i := range seeds {
		seeds[i], ans[i] = int32(r.IntN(n)), r.IntN(2) == 0
		if shape.forced {
			ans[i] = shape.answer
		} else if single {
			ans[i] = ans[0]
		}
	}
	owner := make([]int, n)
	for v := range owner {
		owner[v] = -1
	}
	q := []int32{}
	for i, s := range seeds {
		if owner[s] < 0 {
			owner[s] = i
			q = append(q, s)
		}
	}
	for k := 0; k < len(q); k++ {
		for _, y := range adj[q[k]] {
			if owner[y] < 0 {
				owner[y] = owner[q[k]]
				q = append(q, y)
			}
		}
	}
	for v := range answer {
		answer[v] = ans[owner[v]]
	}
	if !single && r.IntN(5) == 0 {
		for range 1 + n/10 {
			v := r.IntN(n)
			answer[v] = !answer[v]
		}
	}
	// Boundary vertices, regions of one answer, and the distance to the boundary.
	var boundary []int32
	for v := range adj {
		for _, y := range adj[v] {
			if answer[y] != answer[v] {
				boundary = append(boundary, int32(v))
				break
			}
		}
	}
	bdist := multiBFS(adj, boundary)
	region := make([]int, n)
	for v := range region {
		region[v] = -1
	}
	regions := 0
	for s := range adj {
		if region[s] >= 0 {
			continue
		}
		region[s] = regions
		q := []int32{int32(s)}
		for k := 0; k < len(q); k++ {
			for _, y := range adj[q[k]] {
				if region[y] < 0 && answer[y] == answer[s] {
					region[y] = regions
					q = append(q, y)
				}
			}
		}
		regions++
	}
	// The field: a moderate part plus each region's excursion, each κλ/2 a hop.
	kappa := 0.5 + 0.4*r.Float64()
	half := kappa * fw.lambda / 2
	clip, targets := 20.0, []float64{5, 20, 30, 33, 36, 37.5, 40, 100, 300, 690, 745}
	if fw.probit {
		clip, targets = 5.5, []float64{3, 5, 6, 7, 7.5, 8, 8.3, 9, 12, 20, 37, 44}
	}
	zeta := make([]float64, n)
	c0 := clip * (2*r.Float64() - 1)
	for v := range zeta {
		zeta[v] = c0
	}
	left := half
	for k := range 3 {
		c := left
		if k < 2 {
			c = left * r.Float64()
		}
		left -= c
		if r.IntN(2) == 0 {
			c = -c
		}
		d := multiBFS(adj, []int32{int32(r.IntN(n))})
		for v := range zeta {
			zeta[v] += c * float64(d[v])
		}
	}
	dir := make([]float64, regions)
	target := make([]float64, regions)
	for i := range dir {
		dir[i] = float64(r.IntN(5)/2 - 1) // −1, 0, +1 with weights 2, 2, 1: the tails twice as often
		if r.IntN(2) == 0 {
			dir[i] = -dir[i]
		}
		target[i] = targets[r.IntN(len(targets))]
		if shape.forced {
			// Towards the tail asked for, in the own coordinate of the answer.
			dir[i], target[i] = -1, targets[len(targets)-1]
			if shape.accurate == shape.answer {
				dir[i] = 1
			}
		}
	}
	for v := range zeta {
		zeta[v] = max(-clip, min(clip, zeta[v]))
		if dir[region[v]] != 0 {
			zeta[v] += dir[region[v]] * min(target[region[v]], half*float64(bdist[v]))
		}
	}
	// The hitting set: one end of every boundary edge and some datasets inside regions.
	hit := testgraph.BoundaryHittingSet(r, g, answer)
	inH := make([]bool, n)
	for _, h := range hit {
		inH[h] = true
	}
	extra := []float64{0.1, 0.3, 0.6}[r.IntN(3)]
	for v := range adj {
		if !inH[v] && bdist[v] > 0 && r.Float64() < extra {
			hit, inH[v] = append(hit, int32(v)), true
		}
	}
	if len(hit) == 0 {
		hit = append(hit, int32(r.IntN(n)))
	}
	ptrue := make([]float64, len(hit))
	oneExact := !shape.forced && r.IntN(3) == 0
	for i, h := range hit {
		p, _ := ownProb(zeta[h], answer[h], fw.probit).Float64()
		ptrue[i] = max(1e-300, min(1-0x1p-53, p))
		if oneExact && !answer[h] {
			ptrue[i] = max(0x1p-53, 1-(1-ptrue[i])) // exact (Sterbenz), a multiple of 2^-53
		}
	}
	desc := fmt.Sprintf("%s %s n=%d |H|=%d regions=%d κ=%.2f", fw.name, graphName, n, len(hit), regions, kappa)
	if oneExact {
		desc += " p_one-exact"
	}
	return tailDraw{g, adj, answer, hit, ptrue, zeta, oneExact, desc}
}

// ownProb is the field's Pr[M = answer] = Φ(±ζ) or 1/(1 + e^(∓ζ)), in math/big.
func ownProb(zeta float64, answer, probit bool) *big.Float {
	s := zeta
	if !answer {
		s = -s
	}
	if probit {
		return bigoracle.Phi(bigoracle.F(s))
	}
	e := bigoracle.ExpBig(bigoracle.F(-s), 128)
	return new(big.Float).SetPrec(128).Quo(bigoracle.F(1), bigoracle.Sum(bigoracle.F(1), e))
}

// tailMiss is the largest miss seen, with where.
type tailMiss struct {
	rel, abs float64
	relAt    string
	absAt    string
}

func (m *tailMiss) add(rel, abs float64, at func() string) {
	if rel > m.rel {
		m.rel, m.relAt = rel, at()
	}
	if abs > m.abs {
		m.abs, m.absAt = abs, at()
	}
}

type tailStats struct {
	drawn, used, infeasible, unrepresentable int
	vertices, over, unsafe                   [2]int
	worst, excess, witness                   [2]tailMiss // below the optimum, above it, the oracle's rounding
	oneExact                                 [2]tailMiss // below the optimum, over the instances exact as p_one
	hitLo, hitHi                             [2]float64
}

// tailFailures prints the first few failures of each kind and counts the rest.
type tailFailures struct {
	t     *testing.T
	kinds map[string]int
}

func (f *tailFailures) add(kind, format string, args ...any) {
	f.kinds[kind]++
	if f.kinds[kind] <= 4 {
		f.t.Errorf(kind+": "+format, args...)
	}
}

func TestTailsAgainstExactOracle(t *testing.T) {
	ctx := context.Background()
	fails := &tailFailures{t: t, kinds: map[string]int{}}
	stats := map[string]*tailStats{}
	var families []string
	for fi, fw := range tailFrameworks(t) {
		st := stats[fw.family]
		if st == nil {
			st = &tailStats{hitLo: [2]float64{1, 1}}
			stats[fw.family] = st
			families = append(families, fw.family)
		}
		for k := range fw.count {
			r := rand.New(rand.NewPCG(uint64(fi), uint64(k))) // each instance on its own: #fi.k reproduces it
			d := tailInstance(r, fw, tailShapeOf(fi, k))
			name := fmt.Sprintf("#%d.%d %s", fi, k, d.desc)
			st.drawn++
			for u := range d.adj { // the field is private: within λ a hop, exactly
				for _, v := range d.adj[u] {
					if diff := bigoracle.Diff(bigoracle.F(d.zeta[u]), bigoracle.F(d.zeta[v])); new(big.Float).Abs(diff).Cmp(bigoracle.F(fw.lambda)) > 0 {
						t.Fatalf("%s: the field moves by %v on edge %d–%d, more than λ = %v", name, diff, u, v, fw.lambda)
					}
				}
			}
			opt := bigoracle.Optimum(fw.orc, d.adj, d.answer, d.hit, d.ptrue)
			if ok, _ := opt.Feasible(); !ok {
				st.infeasible++
				continue
			}
			witness := bigoracle.Rounded(fw.orc, d.adj, d.answer, d.hit, d.ptrue)
			if bigoracle.Private(fw.orc, d.adj, d.answer, witness) != nil {
				st.unrepresentable++
				continue
			}
			st.used++
			inH := make([]bool, len(d.adj))
			for i, h := range d.hit {
				inH[h] = true
				c := b2i(d.answer[h])
				st.hitLo[c], st.hitHi[c] = min(st.hitLo[c], d.ptrue[i]), max(st.hitHi[c], d.ptrue[i])
			}
			for w := range d.adj {
				if !inH[w] {
					rel, abs, above := tailMissOf(opt.PTrue[w], witness[w])
					if above {
						t.Fatalf("%s: the oracle's rounding %v is above its optimum %s at %d", name, witness[w], opt.PTrue[w].Text('g', 20), w)
					}
					st.witness[b2i(d.answer[w])].add(rel, abs, func() string { return fmt.Sprintf("%s, dataset %d", name, w) })
				}
			}
			in, err := NewInstance(d.g, d.answer, d.hit, d.ptrue, fw.pair)
			if err != nil {
				t.Fatal(err)
			}
			var first *Solution
			for _, eng := range []Engine{Propagate{}, PerSource{Workers: 2}, Rounds{Workers: 2, ShardSize: 1 + r.IntN(6)}} {
				sol, err := Solve(ctx, in, eng, 3)
				if err != nil {
					t.Fatalf("%s %s: %v", name, eng.Name(), err)
				}
				at := name + " " + eng.Name()
				if sol.Infeasible > 0 {
					fails.add("rejected", "%s: the exactly feasible instance is rejected: %+v", at, sol.Violations)
					continue
				}
				if first != nil && sameSolution(first, sol) {
					continue // checked already
				}
				checkTails(fails, st, at, d, opt, sol, first == nil)
				if err := bigoracle.PrivateReal(fw.orc, d.adj, d.answer, realPTrue(d.answer, sol)); err != nil {
					fails.add("not private", "%s: %v", at, err)
				}
				if first != nil {
					fails.add("engines differ", "%s: the mechanism differs from %s's", at, Propagate{}.Name())
				}
				if first == nil {
					first = sol
				}
			}
		}
	}
	for _, fam := range families {
		st := stats[fam]
		t.Logf("%s: %d instances drawn, %d used (%d infeasible, %d not representable); hitting-set p_true in [%.3g, 1 − %.3g] on answer 0, [%.3g, 1 − %.3g] on answer 1",
			fam, st.drawn, st.used, st.infeasible, st.unrepresentable, st.hitLo[0], 1-st.hitHi[0], st.hitLo[1], 1-st.hitHi[1])
		for c := range 2 {
			w := st.worst[c]
			t.Logf("  answer %d: %d datasets, %d beyond 1e-12 below the optimum, %d above it; worst relative miss %.3g (%s), worst absolute %.3g (%s)",
				c, st.vertices[c], st.over[c], st.unsafe[c], w.rel, w.relAt, w.abs, w.absAt)
			if x := st.excess[c]; st.unsafe[c] > 0 {
				t.Logf("    above the optimum by up to %.3g relative (%s), %.3g absolute (%s)", x.rel, x.relAt, x.abs, x.absAt)
			}
			o := st.oneExact[c]
			t.Logf("    instances exact as p_one: worst relative %.3g (%s), absolute %.3g (%s); the oracle's own rounding: %.3g relative, %.3g absolute",
				o.rel, o.relAt, o.abs, o.absAt, st.witness[c].rel, st.witness[c].abs)
		}
		for c := range 2 {
			if st.hitLo[c] > 1e-290 || st.hitHi[c] < 1-0x1p-53 {
				t.Errorf("%s: the hitting-set values of answer %d span only [%g, %g], not both tails", fam, c, st.hitLo[c], st.hitHi[c])
			}
		}
		if st.used*4 < st.drawn*3 {
			t.Errorf("%s: only %d of %d instances used: the generator makes too many infeasible or unrepresentable ones", fam, st.used, st.drawn)
		}
	}
	if len(fails.kinds) > 0 {
		var ks []string
		for k, n := range fails.kinds {
			ks = append(ks, fmt.Sprintf("%s %d", k, n))
		}
		sort.Strings(ks)
		t.Errorf("failures: %s", strings.Join(ks, ", "))
	}
}

// tailMissOf is (opt − p)/opt and opt − p as float64, and whether p is above opt
// (decided exactly: a miss below the float64 range still counts).
func tailMissOf(opt *big.Float, p float64) (rel, abs float64, above bool) {
	d := bigoracle.Diff(opt, bigoracle.F(p))
	abs, _ = d.Float64()
	if opt.Sign() != 0 {
		rel, _ = new(big.Float).Quo(d, opt).Float64()
	}
	return rel, abs, d.Sign() < 0
}

func sameSolution(a, b *Solution) bool {
	for v := range a.PTrue {
		if math.Float64bits(a.PTrue[v]) != math.Float64bits(b.PTrue[v]) || math.Float64bits(a.POne[v]) != math.Float64bits(b.POne[v]) ||
			a.Bind[v] != b.Bind[v] || a.Dist[v] != b.Dist[v] {
			return false
		}
	}
	return true
}

// checkTails asserts one engine's mechanism against the oracle (count: add its misses
// to the statistics).
func checkTails(fails *tailFailures, st *tailStats, at string, d tailDraw, opt *bigoracle.Extension, sol *Solution, count bool) {
	inH := make([]bool, len(d.adj))
	for i, h := range d.hit {
		inH[h] = true
		if math.Float64bits(sol.PTrue[h]) != math.Float64bits(d.ptrue[i]) {
			fails.add("hitting-set value changed", "%s: dataset %d (answer %v) given p_true %v, written %v", at, h, d.answer[h], d.ptrue[i], sol.PTrue[h])
		}
	}
	for w := range d.adj {
		p := sol.PTrue[w]
		switch one := sol.POne[w]; {
		case d.answer[w] && math.Float64bits(one) != math.Float64bits(p):
			fails.add("p_one", "%s: dataset %d (answer 1): p_true %v, p_one %v", at, w, p, one)
		case !d.answer[w] && p <= one && math.Float64bits(one) != math.Float64bits(bigoracle.RoundUp(bigoracle.OneMinus(bigoracle.F(p)))):
			fails.add("p_one", "%s: dataset %d (answer 0): p_true %v exact, p_one %v is not 1 − p_true rounded up", at, w, p, one)
		case !d.answer[w] && p > one && math.Float64bits(p) != math.Float64bits(bigoracle.RoundDown(bigoracle.OneMinus(bigoracle.F(one)))):
			fails.add("p_one", "%s: dataset %d (answer 0): p_one %v exact, p_true %v is not 1 − p_one rounded down", at, w, one, p)
		}
		if inH[w] {
			continue
		}
		c := b2i(d.answer[w])
		rel, abs, above := tailMissOf(opt.PTrue[w], p)
		if count {
			st.vertices[c]++
			where := func() string {
				return fmt.Sprintf("%s, dataset %d: p_true %v, optimum %s", at, w, p, opt.PTrue[w].Text('g', 20))
			}
			if above {
				st.excess[c].add(-rel, -abs, where)
			} else {
				st.worst[c].add(rel, abs, where)
			}
			if d.oneExact && !above {
				st.oneExact[c].add(rel, abs, where)
			}
		}
		switch {
		case above:
			if count {
				st.unsafe[c]++
			}
			fails.add("above the optimum", "%s: dataset %d (answer %d): p_true %v above the exact optimum %s", at, w, c, p, opt.PTrue[w].Text('g', 20))
		case abs > 1e-12 || rel > 1e-12:
			if count {
				st.over[c]++
			}
			fails.add("beyond 1e-12", "%s: dataset %d (answer %d): p_true %v, exact optimum %s (miss %.3g, relative %.3g)", at, w, c, p, opt.PTrue[w].Text('g', 20), abs, rel)
		}
	}
}

// realPTrue is the real p_true of every dataset that sol's columns hold: p_true for
// answer 1; for answer 0 the smaller column is exact, so p_true, or 1 − p_one.
func realPTrue(answer []bool, sol *Solution) []*big.Float {
	out := make([]*big.Float, len(answer))
	for w, a := range answer {
		if p, one := sol.PTrue[w], sol.POne[w]; a || p <= one {
			out[w] = bigoracle.F(p)
		} else {
			out[w] = bigoracle.OneMinus(bigoracle.F(one))
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
