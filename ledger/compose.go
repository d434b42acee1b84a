package ledger

import (
	"math"
	"math/big"
	"sort"
	"sync"

	"github.com/graphdp/graphdp/dp"
)

// This file is the composition arithmetic: what k releases of one dataset have
// spent together. Every figure is an upper bound of the true real number, so that
// rounding can only make the ledger charge more, never less (doc.go, invariant 6).

// Slack is the relative tolerance of every comparison with the budget, so that
// decimal figures rounded to binary (3 × 0.1 is a little above 0.3 in float64)
// do not refuse a release that fits exactly as the operator wrote it. It is far
// below any meaningful difference in ε or δ.
const Slack = 1e-9

// within reports whether x fits the budget figure b (with Slack).
func within(x, b float64) bool { return x <= b+b*Slack }

// MaxKOV is the largest number of releases of one dataset accounted with the
// optimal composition theorem; beyond it (or for ε above MaxKOVEpsilon) the ledger
// uses basic composition alone, which is always sound. The theorem costs O(k)
// high-precision operations per (k, ε, δ).
const MaxKOV = 1000

// MaxKOVEpsilon bounds the per-release ε accounted with the optimal composition
// theorem (e^{kε} must stay within big.Float's exponent range).
const MaxKOVEpsilon = 700

// Point is one (ε, δ) guarantee of a composition.
type Point struct {
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
}

// Basic is basic composition (Dwork & Roth, Theorem 3.16) of two guarantees:
// (ε₁ + ε₂, δ₁ + δ₂), each sum rounded up.
func Basic(a, b Point) Point { return Point{addUp(a.Epsilon, b.Epsilon), addUp(a.Delta, b.Delta)} }

// addUp is a + b rounded towards +∞ (a, b finite ≥ 0).
func addUp(a, b float64) float64 {
	s := a + b
	if math.IsInf(s, 0) {
		return s
	}
	// Knuth's two-sum: s + e = a + b exactly.
	bb := s - a
	e := (a - (s - bb)) + (b - bb)
	if e > 0 {
		s = math.Nextafter(s, math.Inf(1))
	}
	return s
}

// mulUp is n·x rounded towards +∞ (n ≥ 0, x finite ≥ 0).
func mulUp(n int, x float64) float64 {
	a := float64(n) // exact: n < 2^53
	p := a * x
	if math.IsInf(p, 0) {
		return p
	}
	if math.FMA(a, x, -p) > 0 {
		p = math.Nextafter(p, math.Inf(1))
	}
	return p
}

// KOV is the optimal composition of k releases, each (ε, δ)-DP (Kairouz, Oh &
// Viswanath, "The Composition Theorem for Differential Privacy", 2015, Theorem
// 3.3): for i = 0, …, ⌊k/2⌋ the composition is (ε_i, δ_i)-DP with
//
//	ε_i = (k − 2i)·ε,
//	δ_i = 1 − (1 − δ)^k·(1 − g_i),
//	g_i = Σ_{l=0}^{i−1} C(k, l)·(e^{(k−l)ε} − e^{(k−2i+l)ε}) / (1 + e^ε)^k.
//
// Point i of the result is (ε_i, δ_i), both rounded up; δ_i is an upper bound of the
// real value, computed with e^ε enclosed by dp.ExpBounds and every operation of
// math/big rounded in the direction that keeps it one (compose.go's kovDeltas).
// ε_i falls and δ_i rises with i. k must be in [1, MaxKOV] and ε in
// [0, MaxKOVEpsilon], δ in [0, 1).
func KOV(k int, epsilon, delta float64) []Point {
	if k < 1 || k > MaxKOV || !(epsilon >= 0 && epsilon <= MaxKOVEpsilon) || !(delta >= 0 && delta < 1) {
		panic("ledger: KOV outside its domain")
	}
	ds := cachedDeltas(k, epsilon, delta)
	pts := make([]Point, len(ds))
	for i, d := range ds {
		pts[i] = Point{mulUp(k-2*i, epsilon), d}
	}
	return pts
}

// kovKey is one (k, ε, δ) whose δ_i the cache holds.
type kovKey struct {
	k              int
	epsilon, delta float64
}

var (
	kovMu    sync.Mutex
	kovCache = map[kovKey][]float64{}
)

// cachedDeltas is kovDeltas, remembered: a ledger's datasets share few (k, ε, δ).
func cachedDeltas(k int, epsilon, delta float64) []float64 {
	key := kovKey{k, epsilon, delta}
	kovMu.Lock()
	ds, ok := kovCache[key]
	kovMu.Unlock()
	if ok {
		return ds
	}
	ds = kovDeltas(k, epsilon, delta, kovPrec)
	kovMu.Lock()
	if len(kovCache) > 1<<12 {
		clear(kovCache)
	}
	kovCache[key] = ds
	kovMu.Unlock()
	return ds
}

// kovPrec is the working precision of kovDeltas. Its rounding errors are relative
// to terms no larger than (1 + e^ε)^k, so δ_i exceeds the true value by less than
// k·2^−(kovPrec−8): for k ≤ MaxKOV, less than 2^−230 (tested), far below any δ a
// budget names.
const kovPrec = 256

// kovDeltas is δ_i for i = 0, …, ⌊k/2⌋, each an upper bound rounded up to float64.
// With x = e^ε, g_i·(1 + x)^k = P_i − x^{k−2i}·Q_i, where P_i = Σ_{l<i} C(k,l)·x^{k−l}
// and Q_i = Σ_{l<i} C(k,l)·x^l are running sums of positive terms: an upper bound
// of g_i takes P_i rounded up (x from above), x^{k−2i}·Q_i rounded down (x from
// below) and (1 + x)^k rounded down.
func kovDeltas(k int, epsilon, delta float64, prec uint) []float64 {
	up := func() *big.Float { return new(big.Float).SetPrec(prec).SetMode(big.ToPositiveInf) }
	down := func() *big.Float { return new(big.Float).SetPrec(prec).SetMode(big.ToNegativeInf) }
	one := big.NewFloat(1)
	xlo, xhi := dp.ExpBounds(epsilon, prec)

	// Powers x^n from above and below, n = 0..k.
	hiPow, loPow := make([]*big.Float, k+1), make([]*big.Float, k+1)
	hiPow[0], loPow[0] = up().SetInt64(1), down().SetInt64(1)
	for n := 1; n <= k; n++ {
		hiPow[n] = up().Mul(hiPow[n-1], xhi)
		loPow[n] = down().Mul(loPow[n-1], xlo)
	}
	// (1 + x)^k and (1 − δ)^k from below.
	den := down().Add(one, xlo)
	den = powDown(den, k, prec)
	keep := down().Sub(one, new(big.Float).SetFloat64(delta))
	keep = powDown(keep, k, prec)

	out := make([]float64, k/2+1)
	out[0] = totalDelta(keep, down(), prec) // g_0 = 0
	P, Q := up(), down()
	binom := big.NewInt(1) // C(k, l), exact
	for i := 1; i <= k/2; i++ {
		l := i - 1
		P.Add(P, up().Mul(up().SetInt(binom), hiPow[k-l]))
		Q.Add(Q, down().Mul(down().SetInt(binom), loPow[l]))
		num := up().Sub(P, down().Mul(loPow[k-2*i], Q))
		if num.Sign() < 0 {
			num.SetInt64(0) // cannot happen: P_i ≥ x^{k−2i}·Q_i term by term
		}
		g := up().Quo(num, den)
		if g.Cmp(one) > 0 {
			g.SetInt64(1)
		}
		out[i] = totalDelta(keep, g, prec)
		binom.Mul(binom, big.NewInt(int64(k-l)))
		binom.Quo(binom, big.NewInt(int64(l+1))) // exact: C(k, l+1)
	}
	return out
}

// totalDelta is an upper bound of 1 − keep·(1 − g) rounded up to float64, for keep
// a lower bound of (1 − δ)^k and g an upper bound of g_i.
func totalDelta(keep, g *big.Float, prec uint) float64 {
	one := big.NewFloat(1)
	rest := new(big.Float).SetPrec(prec).SetMode(big.ToNegativeInf).Sub(one, g)
	prod := new(big.Float).SetPrec(prec).SetMode(big.ToNegativeInf).Mul(keep, rest)
	tot := new(big.Float).SetPrec(prec).SetMode(big.ToPositiveInf).Sub(one, prod)
	return dp.BigUp(tot)
}

// powDown is b^n rounded down (b ≥ 0), by repeated squaring.
func powDown(b *big.Float, n int, prec uint) *big.Float {
	r := new(big.Float).SetPrec(prec).SetMode(big.ToNegativeInf).SetInt64(1)
	sq := new(big.Float).SetPrec(prec).SetMode(big.ToNegativeInf).Set(b)
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r.Mul(r, sq)
		}
		if n > 1 {
			sq.Mul(sq, sq)
		}
	}
	return r
}

// Charge is what one dataset's releases have spent, under the accounting the
// ledger applies to it.
type Charge struct {
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	// Method is "basic" (sums of ε and of δ) or "optimal" (the KOV theorem at the
	// budget's δ: all releases equal).
	Method string `json:"method"`
	// Mu is, on a μ-GDP ledger (Method MethodGDP), the spent μ: √(Σ μᵢ²) rounded up.
	Mu float64 `json:"mu,omitempty"`
}

// Charge methods.
const (
	MethodBasic   = "basic"
	MethodOptimal = "optimal"
	MethodGDP     = "gdp" // √(Σ μᵢ²) of μ-GDP releases (gdp.go)
)

// spend is one dataset's releases: how many, the basic-composition sums (rounded
// up), and the common (ε, δ) while all are equal.
type spend struct {
	k     int
	sum   Point
	first Point
	equal bool
	sumSq float64 // μ-GDP ledgers: Σ μᵢ², each square and sum rounded up
}

// with is s after one more release spending p.
func (s spend) with(p Point) spend {
	if s.k == 0 {
		s.first, s.equal = p, true
	} else if p != s.first {
		s.equal = false
	}
	s.k++
	s.sum = Basic(s.sum, p)
	return s
}

// charge is what s has spent under budget b: of basic composition and, when every
// release spent the same (ε, δ), each point of the KOV family, the one with the
// smallest ε among those whose δ fits the budget (the one with the smaller δ on a
// tie, basic composition on a tie of both); if none fits, basic composition. It is
// never more than basic composition: the family's i = 0 is (kε, 1 − (1 − δ)^k),
// with 1 − (1 − δ)^k ≤ kδ.
func (s spend) charge(b Budget) Charge {
	if b.Mu > 0 {
		return Charge{Method: MethodGDP, Mu: sqrtUp(s.sumSq)}
	}
	best := Charge{Epsilon: s.sum.Epsilon, Delta: s.sum.Delta, Method: MethodBasic}
	if s.k == 0 {
		return best
	}
	if s.equal {
		// k equal terms: one rounding of kε instead of k of the running sum.
		best.Epsilon, best.Delta = mulUp(s.k, s.first.Epsilon), mulUp(s.k, s.first.Delta)
	}
	if !s.equal || s.k < 2 || s.k > MaxKOV || s.first.Epsilon > MaxKOVEpsilon {
		return best
	}
	// δ_i only rises with i (and ε_i falls): the last point within the budget's δ
	// has the smallest ε of those that fit.
	pts := KOV(s.k, s.first.Epsilon, s.first.Delta)
	n := sort.Search(len(pts), func(i int) bool { return !within(pts[i].Delta, b.Delta) })
	if n == 0 {
		return best // not even point 0 fits δ (nor, then, basic composition)
	}
	p := pts[n-1]
	if !within(best.Delta, b.Delta) || p.Epsilon < best.Epsilon || (p.Epsilon == best.Epsilon && p.Delta < best.Delta) {
		best = Charge{Epsilon: p.Epsilon, Delta: p.Delta, Method: MethodOptimal}
	}
	return best
}

// fits reports whether s is within budget b: basic composition first, which
// decides most cases without the optimal composition's arithmetic.
func (s spend) fits(b Budget) bool {
	if b.Mu > 0 {
		return within(sqrtUp(s.sumSq), b.Mu)
	}
	if within(s.sum.Epsilon, b.Epsilon) && within(s.sum.Delta, b.Delta) {
		return true
	}
	return s.charge(b).Fits(b)
}

// Fits reports whether c is within the budget (with Slack).
func (c Charge) Fits(b Budget) bool {
	if b.Mu > 0 {
		return within(c.Mu, b.Mu)
	}
	return within(c.Epsilon, b.Epsilon) && within(c.Delta, b.Delta)
}

// check is Check and CheckGDP: add is one more release's spend.
func (l *Ledger) check(ids []string, max int, add func(spend) spend) (over []Over, total int) {
	for _, id := range ids {
		s := l.spent[id]
		after := add(s.spend)
		if after.fits(l.Budget) {
			continue
		}
		total++
		if len(over) < max {
			over = append(over, Over{ID: id, Before: s.spend.charge(l.Budget), After: after.charge(l.Budget), Releases: s.k})
		}
	}
	return over, total
}
