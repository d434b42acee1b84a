package dp

import (
	"fmt"
	"math"
	"math/big"
	"sync/atomic"
)

// MaxMu bounds the μ accepted for μ-GDP: at μ = 100 every bound already sits within
// 10^−2000 of 0 or 1 away from the extremes; larger μ only costs precision.
const MaxMu = 100

// gdp is μ-Gaussian DP as a suitable pair (docs/DESIGN.md §11.2): U*(a) = Φ(Φ⁻¹(a) + μ),
// L*(a) = Φ(Φ⁻¹(a) − μ). Both are computed from certified enclosures: first
// double-double balls (gdpdd.go, normaldd.go), which decide all but a few bounds in
// the extreme tails; else math/big (normal.go), where the real bound is enclosed by Φ
// at both ends of an enclosure of Φ⁻¹(a) ± μ, and the precision doubles until both
// ends round to the same float64. That float64 is RD(U*(a)) (or RU(L*(a))). Results are memoised by exact input: the engines ask for
// few distinct values (values run along hop chains from the hitting set).
type gdp struct {
	mu   float64
	up   *memo
	down *memo
	grid *gridBounds
}

// gdpStartBits and gdpMaxBits bound the precision of the enclosures: a bound is
// decided as soon as the enclosure is narrower than its distance to the nearest
// float64 boundary, which 128 bits almost always are; past gdpMaxBits (below π's
// digits, maxPiBits) the safe end is returned.
const (
	gdpStartBits = 128
	gdpMaxBits   = 512
)

// NewGDP is the μ-GDP pair, 0 ≤ μ ≤ MaxMu.
func NewGDP(mu float64) (Pair, error) {
	if math.IsNaN(mu) || mu < 0 || mu > MaxMu {
		return Pair{}, fmt.Errorf("gdp-mu must be a number in [0, %v], got %v", MaxMu, mu)
	}
	return Pair{fw: &gdp{mu: mu, up: newMemo(), down: newMemo(), grid: &gridBounds{}}}, nil
}

// Mu is μ for a μ-GDP pair, NaN for the other frameworks.
func (p Pair) Mu() float64 {
	if g, ok := p.fw.(*gdp); ok {
		return g.mu
	}
	return math.NaN()
}

func (g *gdp) framework() Framework { return GaussianDP }
func (g *gdp) describe() string     { return fmt.Sprintf("μ-GDP with μ = %v", g.mu) }

func (g *gdp) upper(a float64) float64 {
	if !(a > 0 && a < 1) || g.mu == 0 {
		return a // U(0) = 0, U(1) = 1, μ = 0: U(a) = a; NaN stays NaN
	}
	if b, ok := g.up.get(a); ok {
		return b
	}
	b := max(g.shifted(a, g.mu, true), a)
	g.up.put(a, b)
	return b
}

func (g *gdp) lower(a float64) float64 {
	if !(a > 0 && a < 1) || g.mu == 0 {
		return a
	}
	if b, ok := g.down.get(a); ok {
		return b
	}
	b := min(g.shifted(a, -g.mu, false), a)
	g.down.put(a, b)
	return b
}

// shifted is RD(Φ(Φ⁻¹(a) + s)) (down) or RU of it, for a in (0, 1): from the
// double-double balls when they decide it (gdpdd.go), else from math/big
// (shiftedBig). Both are exact, so they agree wherever the first decides.
func (g *gdp) shifted(a, s float64, down bool) float64 {
	if b, ok := shiftedDD(a, s, down); ok {
		return b
	}
	ddFallbacks.Add(1)
	return g.shiftedBig(a, s, down, false)
}

// ddFallbacks counts the bounds the double-double path left to math/big (for the
// tests and benchmarks' figures).
var ddFallbacks atomic.Int64

// shiftedBig is shifted from math/big enclosures at growing precision; reflect: of
// Φ(−Φ⁻¹(a) + s) instead (reflectedDD's, across.go).
func (g *gdp) shiftedBig(a, s float64, down, reflect bool) float64 {
	fs := new(big.Float).SetFloat64(s)
	round := BigUp
	if down {
		round = rd
	}
	for prec := uint(gdpStartBits); ; prec *= 2 {
		zl, zh := quantileBounds(a, prec)
		if reflect { // −z lies in [−zh, −zl]
			zl, zh = zh.Neg(zh), zl.Neg(zl)
		}
		w := prec + 32
		lo, _ := phiBounds(bf(w, big.ToNegativeInf).Add(zl, fs), prec)
		_, hi := phiBounds(bf(w, big.ToPositiveInf).Add(zh, fs), prec)
		rl, rh := round(lo), round(hi)
		switch {
		case rl == rh:
			return rl
		case prec < gdpMaxBits:
			continue
		case down:
			return rl // undecided: the safe end, below the real bound
		default:
			return rh
		}
	}
}

// balanced is RD(Φ(μ/2)): the fixed point of α = U*(1 − α) is Φ⁻¹(α) = μ/2, since
// Φ⁻¹(1 − α) = −Φ⁻¹(α).
func (g *gdp) balanced() float64 {
	if v, _, ok := phiDD(exact(g.mu / 2)); ok { // μ/2 is exact
		if b, ok := v.floor(); ok {
			return b
		}
	}
	h := new(big.Float).SetFloat64(g.mu)
	h.SetMantExp(h, -1)
	for prec := uint(gdpStartBits); ; prec *= 2 {
		lo, hi := phiBounds(h, prec)
		if rl := rd(lo); rl == rd(hi) || prec >= gdpMaxBits {
			return rl
		}
	}
}

// safe bounds a's neighbours from the exact bounds at grid points around a: U* and
// L* are non-decreasing, so U*(a) ≥ U*(g) for a grid point g ≤ a and L*(a) ≤ L*(g')
// for g' ≥ a. The grid values are kept in a lock-free table (gridBounds).
func (g *gdp) safe(a float64) (lo, up float64) {
	return g.grid.safe(a, g.lower, g.upper)
}
