package optimize

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/cover"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/graphgen"
)

// TestGridIsAt: the page's heat map (Grid, its orbits shared between cells) is At
// at every pair, bit for bit, NaN where At finds no extension; the grid has both,
// and some pair whose two answers' values differ (a grid mixing up α₀ and α₁, or
// a value with its complement, would differ there).
func TestGridIsAt(t *testing.T) {
	for _, spec := range []graphgen.Spec{
		{Kind: "grid", N: 400, Seed: 3, Frac: 0.3, Epsilon: 0.5, Delta: 1e-6},
		{Kind: "uniform", N: 300, M: 900, Seed: 5, Frac: 0.6, Epsilon: 1, Delta: 1e-3},
	} {
		p := genProblem(t, spec, 3)
		h, err := BestHomogeneous(context.Background(), p, cover.BoundaryVertices(p.G, p.Answer))
		if err != nil {
			t.Fatal(err)
		}
		const k = 21
		g := h.Grid(k)
		var nan, asym int
		for i := range k {
			for j := range k {
				want, ok := h.At(float64(i)/(k-1), float64(j)/(k-1))
				if got := g[i][j]; math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("%s: Grid[%d][%d] = %v, At = %v", spec.Kind, i, j, got, want)
				}
				if !ok {
					nan++
				} else if w, ok := h.At(float64(j)/(k-1), float64(i)/(k-1)); ok && w != want {
					asym++
				}
			}
		}
		if nan == 0 || nan == k*k || asym == 0 {
			t.Errorf("%s: %d of %d pairs infeasible, %d asymmetric: the test shows nothing", spec.Kind, nan, k*k, asym)
		}
	}
}

// Under the default floors the best homogeneous pair is the balanced one (α, α)
// where the answers meet (Distance 1), and its extension is the balanced α's, made
// once (pairs): the same solution, not a second bfs.Solve of the same values.
func TestDefaultFloorExtendsTheBalancedPairOnce(t *testing.T) {
	p := genProblem(t, graphgen.Spec{Kind: "uniform", N: 2000, M: 8000, Seed: 9, Frac: 0.2, Epsilon: 0.5, Delta: 1e-6}, 3)
	r, err := Optimize(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := r.Homogeneous
	if h.Distance != 1 || h.Alpha0 != r.Alpha || h.Alpha1 != r.Alpha {
		t.Fatalf("homogeneous pair (%v, %v) at distance %d, want the balanced α %v at 1", h.Alpha0, h.Alpha1, h.Distance, r.Alpha)
	}
	if h.sol != r.BalancedSolution {
		t.Errorf("the pair (α, α) was extended again: its solution is not the balanced α's")
	}
}

// candidates extends a floor seed only when the family's utility of its pair beats
// the kept candidate's by seedMargin: the family must give the seed's utility far
// within that margin. It does, for both seeds, at random floors
// up to α, on graphs with and without datasets far from the boundary, with skewed
// weights (a family bucketing by the wrong distances, or a seed's values swapped
// between the answers, is off by percents here).
func TestFamilyUtilityOfFloorSeeds(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	for trial := range 24 {
		spec := graphgen.Spec{Kind: "uniform", N: 500, M: 1200, Seed: uint64(trial), Frac: 0.3, Epsilon: 0.3 + r.Float64(), Delta: 1e-4}
		if trial%2 == 1 {
			spec = graphgen.Spec{Kind: "grid", N: 900, Seed: uint64(trial), Frac: 0.2, Epsilon: 0.3 + r.Float64(), Delta: 1e-4}
		}
		p := genProblem(t, spec, 1+4*r.Float64())
		var err error
		switch trial % 3 { // every framework's U: μ-GDP's curve, a profile's rows
		case 1:
			p.Pair, err = dp.NewGDP(0.3 + r.Float64())
		case 2:
			p.Pair, err = dp.NewProfile([]float64{0.2, 0.6 + r.Float64()}, []float64{0.05, 1e-4})
		}
		if err != nil {
			t.Fatal(err)
		}
		ext := newPairs(p, cover.BoundaryVertices(p.G, p.Answer))
		fam, err := newFamily(context.Background(), ext)
		if err != nil {
			t.Fatal(err)
		}
		alpha := p.Pair.Balanced()
		floors := Floors{alpha * r.Float64(), alpha * r.Float64()}
		for k, s := range floorSeeds(p.Pair, floors) {
			sol, _, err := ext.extend(context.Background(), s[0], s[1])
			if err != nil {
				t.Fatal(err)
			}
			u, est := certifiedUtility(p, sol.POne), fam.utility(s[0], s[1])
			if math.Abs(est-u) > 1e-3*seedMargin*u {
				t.Fatalf("trial %d (%s, floors %v), seed %d (%v): family utility %v, extension's %v", trial, spec.Kind, floors, k, s, est, u)
			}
		}
	}
}
