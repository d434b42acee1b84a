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

	// The row as PDHG iterates on it, scaled by b = 1/max(1, e) so that no
	// coefficient exceeds 1 (μ-GDP's first chords have slopes near 10^9, which
	// would stall the diagonal preconditioning): a·x_v − b·x_u in [slo, shi]. The
	// (ε,δ) line is not scaled (b = 1), as before the frameworks.
	a, b, slo, shi float64
}

// newLine is the line of slope c and intercept d, both exact, with the certificate
// slope enclosure [eLo, eHi] and intercept dUp; scale says whether PDHG's row is
// scaled (line.b).
func newLine(e, d, eLo, eHi, dUp float64, scale bool) line {
	l := line{e: e, lo: -d, hi: e - 1 + d, eLo: eLo, eHi: eHi, dUp: dUp, b: 1}
	if scale && e > 1 {
		l.b = 1 / e
	}
	l.a, l.slo, l.shi = e*l.b, l.lo*l.b, l.hi*l.b
	return l
}

// DefaultChords is the number of chords of μ-GDP's U* when Options.Chords is 0.
const DefaultChords = 64

// frameworkLines is the LP's lines for pair, from its framework's registry entry
// (dp.Spec): its exact lines when it has them, else chords of U* (refined near the
// p_one values focus) with the tangents its Spec.Tangent bounds.
func frameworkLines(pair dp.Pair, chords int, focus []float64) ([]line, error) {
	spec := pair.Spec()
	if spec != nil && spec.Lines != nil {
		ls, err := spec.Lines(pair)
		if err != nil || len(ls) > 0 {
			out := make([]line, len(ls))
			for i, l := range ls {
				out[i] = newLine(l.C, l.D, l.CLo, l.CHi, l.DUp, l.Scale)
			}
			return out, err
		}
	}
	if spec == nil || spec.Tangent == nil {
		return nil, fmt.Errorf("optimize: unknown framework %q", pair.Framework())
	}
	if chords <= 0 {
		chords = DefaultChords
	}
	return chordLines(pair, spec.Tangent, chords, focus)
}

// gdpGridZ bounds the chords' grid in z = Φ⁻¹(a): past |z| = 8 the values are
// within 10^−15 of 0 or 1, where the first and last chords (to a = 0 and a = 1)
// take over.
const gdpGridZ = 8

// gdpGrid is the chords' grid in z: the fine grid of spacing h = 2·gdpGridZ/chords
// on [−gdpGridZ, gdpGridZ], kept where it matters — within two steps of Φ⁻¹ of a
// focus value or of 1 minus one (the p_one values of the best mechanism so far:
// the rows of an arc evaluate U* at x_v and at 1 − x_v) — and every fourth point
// elsewhere. Fewer lines keep PDHG's steps long (its diagonal preconditioning
// divides each vertex's step by the number of lines); any subset of grid points
// still gives chords below U* and tangents above it, so only the gap depends on
// the choice.
func gdpGrid(chords int, focus []float64) []float64 {
	h := 2 * gdpGridZ / float64(chords)
	keep := make([]bool, chords+1)
	for k := 0; k <= chords; k += 4 {
		keep[k] = true
	}
	keep[chords] = true
	mark := func(a float64) {
		if !(a > 0 && a < 1) {
			return
		}
		z := -math.Sqrt2 * math.Erfcinv(2*a) // a float64 estimate: it only picks grid points
		k := int(math.Round((z + gdpGridZ) / h))
		for i := max(k-2, 0); i <= min(k+2, chords); i++ {
			keep[i] = true
		}
	}
	seen := make(map[float64]bool)
	for _, x := range focus {
		if !seen[x] {
			seen[x] = true
			mark(x)
			mark(1 - x)
		}
	}
	var zs []float64
	for k, ok := range keep {
		if ok {
			zs = append(zs, -gdpGridZ+h*float64(k))
		}
	}
	return zs
}

// chordLines is the chords of a concave U* and, for the certificate, the tangents
// parallel to them (μ-GDP's lines). The grid a_0 = 0 < a_1 < … < a_m = 1 is Φ of
// gdpGrid's points, with 0 and 1, and the points (a_k, RD(U*(a_k))) lie below U*; so
// does their upper concave hull (U* is concave; upperHull), whose edges are the
// chords. Rounding U* down can break the concavity of the points themselves where
// U* is within a few ulps of 1 — a chord there would dip far below U* when
// extended — and the hull drops such points. Each line's intercept is rounded down
// at both ends of its edge, so the line stays below the edge there: the minimum of
// the lines is at most the hull, at most U*. Its slope c (a float64, exact) is the
// tangent's too, and tangent (dp.Spec.Tangent; for μ-GDP dp.GDPTangent) bounds the
// tangent's intercept above: the line c·a + dUp is above U*.
func chordLines(pair dp.Pair, tangent func(dp.Pair, float64) (float64, error), chords int, focus []float64) ([]line, error) {
	chords = max(chords, 4)
	grid := []float64{0}
	for _, z := range gdpGrid(chords, focus) {
		a := 0.5 * math.Erfc(-z/math.Sqrt2) // any float64 in (0, 1) will do: a grid point
		if a > grid[len(grid)-1] && a < 1 {
			grid = append(grid, a)
		}
	}
	grid = append(grid, 1)
	sort.Float64s(grid)
	pts := [][2]float64{{0, 0}}
	for _, a := range grid[1 : len(grid)-1] {
		u := pair.Upper(a)
		if u >= 1 {
			break // U* = 1 from here: x ≤ 1 says it
		}
		pts = append(pts, [2]float64{a, u})
	}
	pts = upperHull(append(pts, [2]float64{1, 1}))
	var out []line
	for k := 0; k+1 < len(pts); k++ {
		a0, u0, a1, u1 := pts[k][0], pts[k][1], pts[k+1][0], pts[k+1][1]
		c := (u1 - u0) / (a1 - a0)
		if !(c > 0) || math.IsInf(c, 0) {
			continue
		}
		// d below u − c·a at both ends: the line is below the hull's edge between them.
		d := min(subDown(u0, mulUp(c, a0)), subDown(u1, mulUp(c, a1)))
		dUp, err := tangent(pair, c)
		if err != nil {
			return nil, err
		}
		out = append(out, newLine(c, d, c, c, max(dUp, d), true))
	}
	return out, nil
}

// upperHull is the upper concave hull of points sorted by x (distinct x), from the
// first to the last: points on or below a chord of their neighbours are dropped.
// The turn test is exact (big.Rat): the points are float64.
func upperHull(pts [][2]float64) [][2]float64 {
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	// above reports whether q lies strictly above the line from p to r.
	above := func(p, q, r [2]float64) bool {
		l := new(big.Rat).Mul(new(big.Rat).Sub(rat(q[1]), rat(p[1])), new(big.Rat).Sub(rat(r[0]), rat(p[0])))
		rr := new(big.Rat).Mul(new(big.Rat).Sub(rat(r[1]), rat(p[1])), new(big.Rat).Sub(rat(q[0]), rat(p[0])))
		return l.Cmp(rr) > 0
	}
	var h [][2]float64
	for _, q := range pts {
		for len(h) >= 2 && !above(h[len(h)-2], h[len(h)-1], q) {
			h = h[:len(h)-1]
		}
		h = append(h, q)
	}
	return h
}
