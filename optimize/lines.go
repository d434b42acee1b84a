package optimize

import (
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/graphdp/graphdp/dp"
)

// line is one family of the LP's rows (docs/DESIGN.md §11.7): a line c·a + d above
// (or, for the solve of μ-GDP, below) the framework's upper bound U*, which gives on
// every arc u→v the two rows
//
//	x_u ≤ c·x_v + d   and   1 − x_u ≤ c·(1 − x_v) + d,   i.e.   −d ≤ c·x_v − x_u ≤ c − 1 + d.
//
// The second is the first at 1 − x (L*(a) = 1 − U*(1 − a) for every framework), so
// a set of lines whose minimum is U* (with x ≤ 1) states the framework exactly: for
// (ε,δ) the one line e^ε·a + δ; for a privacy profile one per (ε_i, δ_i); for a
// trade-off curve one per piece of the symmetrised curve (U* is concave piecewise
// linear: the minimum of its pieces' lines). μ-GDP's U* is concave but not linear:
// the solve uses chords (below U*: an inner polytope, every point of which is
// μ-GDP) and the certificate the tangents parallel to them (above U*: an outer one
// that every μ-GDP mechanism meets), so the certified gap covers both.
type line struct {
	e, lo, hi float64 // the solve's row: slope rounded to nearest, −d and e − 1 + d
	eLo, eHi  float64 // the certificate: eLo ≤ c ≤ eHi, the real slope
	dUp       float64 // the certificate's intercept: the real line's d, or more
}

// newLine is the line of slope c and intercept d, both exact, with the certificate
// slope enclosure [eLo, eHi] and intercept dUp.
func newLine(e, d, eLo, eHi, dUp float64) line {
	return line{e: e, lo: -d, hi: e - 1 + d, eLo: eLo, eHi: eHi, dUp: dUp}
}

// DefaultChords is the number of chords of μ-GDP's U* when Options.Chords is 0.
const DefaultChords = 64

// frameworkLines is the LP's lines for pair (chords for μ-GDP).
func frameworkLines(pair dp.Pair, chords int) ([]line, error) {
	switch pair.Framework() {
	case dp.EpsilonDelta:
		lo, hi := pair.EBounds()
		return []line{newLine(pair.E(), pair.Delta, lo, hi, pair.Delta)}, nil
	case dp.Profile:
		eps, delta := pair.Profile()
		var out []line
		for i := range eps {
			ed, err := dp.New(eps[i], delta[i])
			if err != nil {
				return nil, err
			}
			lo, hi := ed.EBounds()
			out = append(out, newLine(ed.E(), delta[i], lo, hi, delta[i]))
		}
		return out, nil
	case dp.Tradeoff:
		return tradeoffLines(pair.Tradeoff())
	case dp.GaussianDP:
		if chords <= 0 {
			chords = DefaultChords
		}
		return gdpLines(pair, chords)
	}
	return nil, fmt.Errorf("optimize: unknown framework %q", pair.Framework())
}

// tradeoffLines is one line per piece of U* = 1 − max(f, f⁻¹) for the curve
// through (alpha[j], beta[j]) (validated by dp.NewTradeoff): on f's piece j of slope
// s_j, 1 − f(a) = −s_j·a + 1 − β_j + s_j·α_j; on f⁻¹'s piece (the same segment
// reflected, s_j < 0), 1 − f⁻¹(a) = −a/s_j + 1 − α_j + β_j/s_j. Lines that never
// bind below 1 (d ≥ 1) are left out. Slopes and intercepts are rationals, rounded
// to nearest for the solve and outward for the certificate.
func tradeoffLines(alpha, beta []float64) ([]line, error) {
	one := big.NewRat(1, 1)
	var out []line
	add := func(c, d *big.Rat) {
		if d.Cmp(one) >= 0 {
			return
		}
		e, _ := c.Float64()
		df, _ := d.Float64()
		out = append(out, newLine(e, df, ratDown(c), ratUp(c), ratUp(d)))
	}
	for j := 0; j+1 < len(alpha); j++ {
		a0, b0 := new(big.Rat).SetFloat64(alpha[j]), new(big.Rat).SetFloat64(beta[j])
		a1, b1 := new(big.Rat).SetFloat64(alpha[j+1]), new(big.Rat).SetFloat64(beta[j+1])
		s := new(big.Rat).Sub(b1, b0)
		s.Quo(s, new(big.Rat).Sub(a1, a0)) // ≤ 0
		c := new(big.Rat).Neg(s)
		d := new(big.Rat).Mul(s, a0)
		d.Add(d, one).Sub(d, b0)
		add(c, d)
		if s.Sign() < 0 {
			ci := new(big.Rat).Inv(s)
			ci.Neg(ci)
			di := new(big.Rat).Quo(b0, s)
			di.Add(di, one).Sub(di, a0)
			add(ci, di)
		}
	}
	if len(out) == 0 { // f ≡ 1 − a: no information, U*(a) = a
		out = append(out, newLine(1, 0, 1, 1, 0))
	}
	return out, nil
}

// ratDown and ratUp round a rational down and up to a float64.
func ratDown(r *big.Rat) float64 {
	f, _ := r.Float64()
	if new(big.Rat).SetFloat64(f).Cmp(r) > 0 {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

func ratUp(r *big.Rat) float64 {
	f, _ := r.Float64()
	if new(big.Rat).SetFloat64(f).Cmp(r) < 0 {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

// gdpGridZ bounds the chords' grid in z = Φ⁻¹(a): past |z| = 8 the values are
// within 10^−15 of 0 or 1, where the first and last chords (to a = 0 and a = 1)
// take over.
const gdpGridZ = 8

// gdpLines is μ-GDP's chords and, for the certificate, the tangents parallel to
// them. The grid a_0 = 0 < a_1 < … < a_chords = 1 is uniform in z on [−8, 8]; the
// chord of [a_k, a_k+1] joins (a_k, RD(U*(a_k))) and (a_k+1, RD(U*(a_k+1))), below
// U* (U* is concave), and its line's intercept is rounded down at both ends, so it
// stays below the chord on its interval: the minimum of the lines is at most the
// interpolant, at most U*. Its slope c (a float64, exact) is the tangent's too, and
// dp.GDPTangent bounds the tangent's intercept above: the line c·a + dUp is above U*.
func gdpLines(pair dp.Pair, chords int) ([]line, error) {
	mu := pair.Mu()
	if mu == 0 {
		return []line{newLine(1, 0, 1, 1, 0)}, nil
	}
	chords = max(chords, 2)
	grid := make([]float64, 0, chords+1)
	grid = append(grid, 0)
	for k := 1; k < chords; k++ {
		z := -gdpGridZ + 2*gdpGridZ*float64(k-1)/float64(max(chords-2, 1))
		a := 0.5 * math.Erfc(-z/math.Sqrt2) // any float64 in (0, 1) will do: a grid point
		if a > grid[len(grid)-1] && a < 1 {
			grid = append(grid, a)
		}
	}
	grid = append(grid, 1)
	sort.Float64s(grid)
	var out []line
	for k := 0; k+1 < len(grid); k++ {
		a0, a1 := grid[k], grid[k+1]
		u0, u1 := pair.Upper(a0), pair.Upper(a1)
		if u0 >= 1 {
			break // U* = 1 from here: x ≤ 1 says it
		}
		c := (u1 - u0) / (a1 - a0)
		if !(c > 0) || math.IsInf(c, 0) {
			continue
		}
		// d below u − c·a at both ends: the line is below the chord between them.
		d := min(subDown(u0, mulUp(c, a0)), subDown(u1, mulUp(c, a1)))
		dUp, err := dp.GDPTangent(mu, c)
		if err != nil {
			return nil, err
		}
		out = append(out, newLine(c, d, c, c, max(dUp, d)))
	}
	return out, nil
}
