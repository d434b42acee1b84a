package optimize

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/graphgen"
)

// Optimize under the frameworks other than (ε,δ) (docs/DESIGN.md §11.7). A privacy
// profile and a trade-off curve are linear constraints: their LP is exact and the
// tests compare with exactLP row for row. μ-GDP's U* is concave: the solve uses
// chords (inner) and the certificate tangents (outer), so the tests check
// OPT(inner) ≤ OPT(outer) ≤ Upper with exactLP on both, Utility ≤ OPT(outer), the
// mechanism against the exact μ-GDP audit, and the gap narrowing with more chords.

// exactLines is a line set as exact rationals for exactLP: (c, d) per line, the rows
// −d ≤ c·x_v − x_u ≤ c − 1 + d on both arcs of every edge (dpRows with e = c, δ = d).
func newExactLinesLP(in instance, lines [][2]*big.Rat) *exactLP {
	lp := newExactLP(in.p.G.N(), in.edges, in.p.Answer, in.weights, lines[0][0], lines[0][1])
	for _, l := range lines[1:] {
		lp.dpRows(in.p.G.N(), in.edges, l[0], l[1])
	}
	return lp
}

// randomProfile is 1–4 (ε, δ) pairs with rational e^ε (testE) and δ (testDelta), as
// exact lines and as the product's pair.
func randomProfile(t *testing.T, r *rand.Rand) (dp.Pair, [][2]*big.Rat) {
	t.Helper()
	k := 1 + r.IntN(4)
	var eps, delta []float64
	var lines [][2]*big.Rat
	seen := map[[2]int]bool{}
	for len(eps) < k {
		i, j := r.IntN(len(testE)), r.IntN(len(testDelta))
		if seen[[2]int{i, j}] {
			continue
		}
		seen[[2]int{i, j}] = true
		E, D := testE[i], testDelta[j]
		eps = append(eps, math.Log(float64(E[0])/float64(E[1])))
		delta = append(delta, float64(D[0])/float64(D[1]))
		lines = append(lines, [2]*big.Rat{big.NewRat(E[0], E[1]), big.NewRat(D[0], D[1])})
	}
	pair, err := dp.NewProfile(eps, delta)
	if err != nil {
		t.Fatal(err)
	}
	return pair, lines
}

// randomCurve is a convex trade-off curve on α = j/8 with dyadic slopes (exact in
// float64), as the product's pair and as exact lines written from the curve here:
// 1 − f on each piece and 1 − f⁻¹ on each falling piece.
func randomCurve(t *testing.T, r *rand.Rand) (dp.Pair, [][2]*big.Rat) {
	t.Helper()
	for {
		a := make([]int64, 8) // −slope·4 of each piece, non-increasing
		sum := int64(0)
		for i := range a {
			a[i] = r.Int64N(9)
			sum += a[i]
		}
		if sum > 32 || sum == 0 {
			continue
		}
		for i := range a { // sort descending: slopes non-decreasing
			for j := i + 1; j < len(a); j++ {
				if a[j] > a[i] {
					a[i], a[j] = a[j], a[i]
				}
			}
		}
		alpha, beta := make([]float64, 9), make([]float64, 9)
		for j := 7; j >= 0; j-- {
			beta[j] = beta[j+1] + float64(a[j])/32
		}
		for j := range alpha {
			alpha[j] = float64(j) / 8
		}
		pair, err := dp.NewTradeoff(alpha, beta)
		if err != nil {
			t.Fatalf("curve %v %v: %v", alpha, beta, err)
		}
		var lines [][2]*big.Rat
		one := big.NewRat(1, 1)
		for j := range 8 {
			s := big.NewRat(-a[j], 4)
			a0, b0 := new(big.Rat).SetFloat64(alpha[j]), new(big.Rat).SetFloat64(beta[j])
			// 1 − (b0 + s·(x − a0)) = −s·x + (1 − b0 + s·a0)
			d := new(big.Rat).Sub(one, b0)
			d.Add(d, new(big.Rat).Mul(s, a0))
			lines = append(lines, [2]*big.Rat{new(big.Rat).Neg(s), d})
			if a[j] > 0 { // f⁻¹(y) = a0 + (y − b0)/s: 1 − f⁻¹ = −y/s + 1 − a0 + b0/s
				c := new(big.Rat).Inv(s)
				c.Neg(c)
				di := new(big.Rat).Sub(one, a0)
				di.Add(di, new(big.Rat).Quo(b0, s))
				lines = append(lines, [2]*big.Rat{c, di})
			}
		}
		return pair, lines
	}
}

// TestProfileAndCurveMatchExactLP: on random small instances under a random privacy
// profile or trade-off curve, the optimised utility equals the exact LP optimum
// within 1e-9 of the total weight, the certified bounds enclose it, and the
// mechanism passes the framework's exact audit and re-solves bit for bit.
func TestProfileAndCurveMatchExactLP(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	count := 40
	if testing.Short() {
		count = 12
	}
	for i := range count {
		in := randomInstance(t, r, 2+r.IntN(8))
		var lines [][2]*big.Rat
		if i%2 == 0 {
			in.p.Pair, lines = randomProfile(t, r)
		} else {
			in.p.Pair, lines = randomCurve(t, r)
		}
		exact, _ := newExactLinesLP(in, lines).solve()
		opt := ratFloat(exact)
		res, err := Optimize(context.Background(), in.p, Options{Gap: 1e-11, Explicit: lowered})
		if err != nil {
			t.Fatalf("instance %d (%v): %v", i, in.p.Pair, err)
		}
		scale := max(1, res.TotalWeight)
		if math.Abs(res.Utility-opt) > 1e-9*scale {
			t.Errorf("instance %d (n=%d, %v): utility %.15g, exact optimum %.15g (method %s, gap %g)",
				i, in.p.G.N(), in.p.Pair, res.Utility, opt, res.Method, res.Gap)
		}
		if res.Upper < opt-1e-12*scale || res.Utility > opt+1e-12*scale {
			t.Errorf("instance %d (%v): certified [%.17g, %.17g] does not enclose the exact optimum %.17g", i, in.p.Pair, res.Utility, res.Upper, opt)
		}
		checkMechanism(t, in.p, res)
	}
}

// gdpExactLines is μ-GDP's inner (chords, the solve's lines) and outer (tangents,
// the certificate's) line sets of the product's lines ls, as rationals.
func gdpExactLines(t *testing.T, ls []line) (inner, outer [][2]*big.Rat) {
	t.Helper()
	for _, l := range ls {
		if l.eLo != l.e || l.eHi != l.e {
			t.Fatalf("a chord's slope %v is not exact in the certificate [%v, %v]", l.e, l.eLo, l.eHi)
		}
		c := new(big.Rat).SetFloat64(l.e)
		inner = append(inner, [2]*big.Rat{c, new(big.Rat).SetFloat64(-l.lo)})
		outer = append(outer, [2]*big.Rat{c, new(big.Rat).SetFloat64(l.dUp)})
	}
	return inner, outer
}

// phiTest is Φ in float64 from math.Erfc: an independent, approximate check.
func phiTest(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// TestGDPLinesEncloseU: the chords' lines lie below U*(a) = Φ(Φ⁻¹(a) + μ) and the
// tangents' above it, at thousands of points, against Φ from math.Erfc (an
// independent float64 computation, hence the 1e-12 allowance); and the tangents
// touch: at z* = −(ln c + μ²/2)/μ, where U*′ = c, each is within 1e-11 of U*.
func TestGDPLinesEncloseU(t *testing.T) {
	for _, mu := range []float64{0.05, 0.5, 1, 2, 5} {
		pair, err := dp.NewGDP(mu)
		if err != nil {
			t.Fatal(err)
		}
		ls, err := frameworkLines(pair, 32, []float64{0.3, 0.9})
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k <= 4000; k++ {
			z := -9 + 18*float64(k)/4000
			a, u := phiTest(z), phiTest(z+mu)
			in := math.Inf(1)
			for i, l := range ls {
				in = min(in, l.e*a-l.lo)
				if out := l.e*a + l.dUp; out < u-1e-12 {
					t.Fatalf("μ = %v: tangent %d (slope %v) is %v at a = %v, below U* = %v", mu, i, l.e, out, a, u)
				}
			}
			if in > u+1e-12 {
				t.Fatalf("μ = %v: the chords' minimum %v is above U* = %v at a = %v", mu, in, u, a)
			}
		}
		for i, l := range ls {
			z := -(math.Log(l.e) + mu*mu/2) / mu
			a := phiTest(z)
			if d := l.e*a + l.dUp - phiTest(z+mu); d > 1e-11 {
				t.Errorf("μ = %v: tangent %d (slope %v) is %v above U* where it should touch", mu, i, l.e, d)
			}
		}
	}
}

// TestGDPInnerOuterExactLP: on random small instances under μ-GDP (8 chords, so
// that exactLP stays small), with exactLP on the product's own line sets:
// OPT(inner) ≤ OPT(outer) ≤ Upper, and OPT(inner) − 1e-9 ≤ Utility ≤ OPT(outer)
// (the written mechanism is μ-GDP, hence outer-feasible, and it dominates the inner
// optimum's extension); the mechanism passes the exact μ-GDP audit.
func TestGDPInnerOuterExactLP(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 2))
	count := 8
	if testing.Short() {
		count = 3
	}
	for i := range count {
		in := randomInstance(t, r, 2+r.IntN(4))
		mu := []float64{0.1, 0.5, 1, 2}[r.IntN(4)]
		var err error
		if in.p.Pair, err = dp.NewGDP(mu); err != nil {
			t.Fatal(err)
		}
		res, err := Optimize(context.Background(), in.p, Options{Gap: 1e-11, Chords: 8, MaxIterations: 1 << 16, Explicit: lowered})
		if err != nil {
			t.Fatalf("instance %d (μ = %v): %v", i, mu, err)
		}
		if res.lines == nil {
			continue // solved by a candidate within the gap: no LP
		}
		inner, outer := gdpExactLines(t, res.lines)
		oi, _ := newExactLinesLP(in, inner).solve()
		oo, _ := newExactLinesLP(in, outer).solve()
		optIn, optOut := ratFloat(oi), ratFloat(oo)
		scale := max(1, res.TotalWeight)
		if oi.Cmp(oo) > 0 {
			t.Errorf("instance %d: inner optimum %v above the outer %v", i, optIn, optOut)
		}
		if res.Upper < optOut-1e-12*scale {
			t.Errorf("instance %d (μ = %v): certified upper %.17g below the outer optimum %.17g", i, mu, res.Upper, optOut)
		}
		if res.Utility > optOut+1e-12*scale || res.Utility < optIn-1e-9*scale {
			t.Errorf("instance %d (μ = %v): utility %.17g outside [inner %.17g, outer %.17g]", i, mu, res.Utility, optIn, optOut)
		}
		checkMechanism(t, in.p, res)
	}
}

// TestGDPSingleEdge: one boundary edge, weight 1 on each dataset. The optimum is
// independent of any code here: p_one = α on the answer-1 dataset and 1 − α on the
// other with α ≤ U*(1 − α), best at α = Φ(μ/2) (Φ⁻¹(1 − α) = −Φ⁻¹(α)), utility
// 2Φ(μ/2) (from math.Erfc). The certificate must enclose it, and with 256 chords
// the gap be below 1e-3.
func TestGDPSingleEdge(t *testing.T) {
	for _, mu := range []float64{0.3, 1, 3} {
		pair, err := dp.NewGDP(mu)
		if err != nil {
			t.Fatal(err)
		}
		in := pathInstance(t, []bool{true, false}, pair)
		res, err := Optimize(context.Background(), in, Options{Gap: 1e-12, Chords: 256, Explicit: lowered})
		if err != nil {
			t.Fatal(err)
		}
		want := 2 * phiTest(mu/2)
		if res.Utility > want+1e-12 || res.Upper < want-1e-12 {
			t.Errorf("μ = %v: certified [%.17g, %.17g] does not enclose 2Φ(μ/2) = %.17g", mu, res.Utility, res.Upper, want)
		}
		if res.Gap > 1e-3 {
			t.Errorf("μ = %v: gap %v", mu, res.Gap)
		}
		checkMechanism(t, in, res)
	}
}

// pathInstance is the path 0 − 1 − … with the given answers and unit weights.
func pathInstance(t *testing.T, answer []bool, pair dp.Pair) *Problem {
	t.Helper()
	n := len(answer)
	src, dst := make([]int32, n-1), make([]int32, n-1)
	for i := range n - 1 {
		src[i], dst[i] = int32(i), int32(i+1)
	}
	g, _ := graph.Build(n, src, dst)
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return &Problem{G: g, Answer: answer, Weight: w, Pair: pair}
}

// TestGDPGapShrinksWithChords: on generated graphs under μ-GDP, the certified gap
// (outer bound − μ-GDP mechanism's utility) falls as the chords are refined
// (8, 32, 128), every mechanism passing the exact audit.
func TestGDPGapShrinksWithChords(t *testing.T) {
	for _, c := range []struct {
		kind string
		mu   float64
	}{{"uniform", 0.5}, {"hypercube", 2}} {
		spec := graphgen.Spec{Kind: c.kind, N: 32, M: 80, Dim: 5, Seed: 7, Frac: 0.4, Epsilon: 1}
		p := genProblem(t, spec, 0)
		var err error
		if p.Pair, err = dp.NewGDP(c.mu); err != nil {
			t.Fatal(err)
		}
		prev := math.Inf(1)
		for _, chords := range []int{8, 32, 128} {
			res, err := Optimize(context.Background(), p, Options{Gap: 1e-12, Chords: chords, MaxIterations: 1 << 13, Explicit: lowered})
			if err != nil {
				t.Fatal(err)
			}
			checkMechanism(t, p, res)
			if !(res.Gap < prev) {
				t.Errorf("%s μ = %v: gap %v with %d chords, not below %v with fewer", c.kind, c.mu, res.Gap, chords, prev)
			}
			prev = res.Gap
		}
	}
}
