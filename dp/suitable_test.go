package dp

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
)

func mustGDP(t testing.TB, mu float64) Pair {
	t.Helper()
	p, err := NewGDP(mu)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustProfile(t testing.TB, eps, delta []float64) Pair {
	t.Helper()
	p, err := NewProfile(eps, delta)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustTradeoff(t testing.TB, alpha, beta []float64) Pair {
	t.Helper()
	p, err := NewTradeoff(alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// frameworkPairs is one pair or more of every framework, for the property tests.
func frameworkPairs(t testing.TB) map[string]Pair {
	return map[string]Pair{
		"eps-delta":  mustPair(t, 0.7, 1e-6),
		"gdp-0.3":    mustGDP(t, 0.3),
		"gdp-2":      mustGDP(t, 2),
		"profile":    mustProfile(t, []float64{0.2, 0.5, 1, 2, 4}, []float64{0.3, 0.1, 1e-3, 1e-6, 1e-12}),
		"profile-1":  mustProfile(t, []float64{1}, []float64{0}),
		"tradeoff-3": mustTradeoff(t, []float64{0, 0.2, 1}, []float64{0.5, 0.1, 0}),
		// a curve that is not symmetric: f⁻¹ is larger than f on part of [0, 1]
		"tradeoff-skew": mustTradeoff(t, []float64{0, 0.05, 0.5, 1}, []float64{0.9, 0.3, 0.05, 0}),
	}
}

// randomPoints are values in [0, 1]: uniform, near 0 and near 1, from a fixed LCG.
func randomPoints(n int, seed uint64) []float64 {
	x := seed
	pts := []float64{0, 1, 0.5, 1e-300, 1 - 0x1p-53}
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
		u := float64(x>>11) / (1 << 53)
		switch x % 3 {
		case 0:
			pts = append(pts, u)
		case 1:
			pts = append(pts, math.Ldexp(u, -int(x>>40%200)))
		default:
			pts = append(pts, 1-math.Ldexp(u, -int(x>>40%52)))
		}
	}
	return pts
}

// The suitable-pair conditions of the paper, on the float bounds: (1) L(a) ≤ a ≤ U(a);
// (2) L(U(a)) ≤ a ≤ U(L(a)); (3) U(a) ≤ 1 − L(1 − a), checked where 1 − a is exact
// (a ≥ 1/2) and with the real side 1 − L*(1 − a) ≥ 1 − Lower(1 − a) (Lower rounds up),
// so the float check is implied by the real one; for symmetric f, (3) is an
// equality, so U(a) is also at least 1 − L(1 − a) less an ulp. Monotonicity too.
func TestSuitablePairConditions(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	for name, p := range frameworkPairs(t) {
		pts := randomPoints(n, 7)
		var prevU, prevL float64
		for _, a := range pts {
			u, l := p.Upper(a), p.Lower(a)
			if !(l <= a && a <= u) {
				t.Errorf("%s: (1) fails at %v: L = %v, U = %v", name, a, l, u)
			}
			if lu := p.Lower(u); lu > a {
				t.Errorf("%s: (2) L(U(%v)) = %v > a", name, a, lu)
			}
			if ul := p.Upper(l); ul < a {
				t.Errorf("%s: (2) U(L(%v)) = %v < a", name, a, ul)
			}
			if a >= 0.5 {
				b := 1 - p.Lower(1-a) // exact: Lower(1 − a) ≤ 1/2
				if u > b {
					t.Errorf("%s: (3) U(%v) = %v > 1 − L(1 − a) = %v", name, a, u, b)
				}
				if name != "eps-delta" && u < math.Nextafter(b, 0) && b <= 1 {
					t.Errorf("%s: (3) is an equality for f-DP, but U(%v) = %v < 1 − L(1 − a) = %v", name, a, u, b)
				}
			}
		}
		// Monotone on sorted points.
		sorted := append([]float64(nil), pts...)
		for i := 1; i < len(sorted); i++ {
			for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
				sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
			}
		}
		prevU, prevL = 0, 0
		for _, a := range sorted {
			if u := p.Upper(a); u < prevU {
				t.Errorf("%s: Upper decreases at %v", name, a)
			} else {
				prevU = u
			}
			if l := p.Lower(a); l < prevL {
				t.Errorf("%s: Lower decreases at %v", name, a)
			} else {
				prevL = l
			}
		}
		// Allowed is symmetric and SafeBounds is inside the exact bounds.
		for i := 0; i+1 < len(pts); i += 2 {
			x, y := pts[i], pts[i+1]
			if p.Allowed(x, y) != p.Allowed(y, x) {
				t.Errorf("%s: Allowed(%v, %v) is not symmetric", name, x, y)
			}
			lo, up := p.SafeBounds(x)
			if lo < p.Lower(x) || up > p.Upper(x) {
				t.Errorf("%s: SafeBounds(%v) = [%v, %v] outside [%v, %v]", name, x, lo, up, p.Lower(x), p.Upper(x))
			}
		}
		// The balanced value is allowed next to its complement, and one float more is not.
		al := p.Balanced()
		if !p.Allowed(al, 1-al) {
			t.Errorf("%s: balanced α = %v not allowed next to 1 − α", name, al)
		}
		if al < 1 && p.Allowed(math.Nextafter(al, 2), 1-math.Nextafter(al, 2)) {
			t.Errorf("%s: balanced α = %v is not the largest", name, al)
		}
	}
}

// A privacy profile is exactly the conjunction of its (ε,δ) pairs: Allowed for the
// profile ⟺ Allowed for every pair, and its bounds are the min/max of theirs.
func TestProfileIsConjunction(t *testing.T) {
	eps, delta := []float64{0.1, 0.8, 3}, []float64{0.2, 1e-3, 1e-9}
	p := mustProfile(t, eps, delta)
	var pairs []Pair
	for i := range eps {
		pairs = append(pairs, mustPair(t, eps[i], delta[i]))
	}
	pts := randomPoints(200, 3)
	for i := 0; i+1 < len(pts); i++ {
		x, y := pts[i], pts[i+1]
		all := true
		for _, q := range pairs {
			all = all && q.Allowed(x, y)
		}
		if p.Allowed(x, y) != all {
			t.Errorf("profile Allowed(%v, %v) = %v, pairs say %v", x, y, p.Allowed(x, y), all)
		}
		if y := p.Upper(x); !p.Allowed(x, y) || (y < 1 && p.Allowed(x, math.Nextafter(y, 2))) {
			t.Errorf("Upper(%v) = %v is not the largest allowed value", x, y)
		}
	}
}

// A trade-off curve's bounds against a hand derivation: f through (0, 0.5), (0.2, 0.1),
// (1, 0) is symmetric under f⁻¹ only in part. At a = 0.1: f(0.1) = 0.3, f⁻¹(0.1) =
// 0.2 (f = 0.1 at 0.2), so f_s = 0.3 and U = 0.7; L(0.1) = f_s(0.9) = max(f(0.9),
// f⁻¹(0.9)) = max(0.0125, 0) = 0.0125.
func TestTradeoffHandValues(t *testing.T) {
	p := mustTradeoff(t, []float64{0, 0.2, 1}, []float64{0.5, 0.1, 0})
	x := new(big.Rat).SetFloat64(0.1)
	u := new(big.Rat).Sub(big.NewRat(1, 1), big.NewRat(3, 10))
	if x.Sign() == 0 {
		t.Fatal()
	}
	if got, want := p.Upper(0.1), RatDown(u); got != want {
		t.Errorf("Upper(0.1) = %v, want RD(0.7 − f's rounding) = %v", got, want)
	}
	// f(0.9) = 0.1 − 0.1·(0.7/0.8) = 0.0125 for the float 0.9 up to its rounding.
	if got := p.Lower(0.1); math.Abs(got-0.0125) > 1e-15 {
		t.Errorf("Lower(0.1) = %v, want ≈ 0.0125", got)
	}
	// Where f⁻¹ wins: f(0.4) = 0.075, f⁻¹(0.4) = 0.025 → f_s = 0.075; at a = 0.05,
	// f = 0.4, f⁻¹(0.05) = 0.6 → f_s = 0.6 and U(0.05) = 0.4.
	if got := p.Upper(0.05); math.Abs(got-0.4) > 1e-15 {
		t.Errorf("Upper(0.05) = %v, want ≈ 0.4 (from f⁻¹)", got)
	}
}

// At the ends: U*(0) = 1 − f_s(0) and L*(1) = f_s(0), with f_s(0) = max(f(0), f⁻¹(0)).
// For f(x) = max(0, 0.9 − x) (the curve of ε = 0, δ = 0.1), f(0) = 0.9 and f hits 0
// at 0.9, so U*(0) = 0.1 (a dataset with p_one = 0 may have a neighbour at 0.1, as
// under (0, 0.1)-DP) and L*(1) = 0.9; U*(1) = 1, L*(0) = 0.
func TestTradeoffEnds(t *testing.T) {
	p := mustTradeoff(t, []float64{0, 0.9, 1}, []float64{0.9, 0, 0})
	ed, err := New(0, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	// 1 − 0.9 with the float64 0.9 (a hair above 9/10): just below the float64 0.1.
	if got, want := p.Upper(0), RatDown(new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFloat64(0.9))); got != want || math.Abs(got-ed.Upper(0)) > 1e-16 {
		t.Errorf("Upper(0) = %v, want RD(1 − 0.9) = %v ≈ the (0, 0.1) pair's %v", got, want, ed.Upper(0))
	}
	if got := p.Lower(1); got != 0.9 || got != ed.Lower(1) {
		t.Errorf("Lower(1) = %v, want 0.9 = the (0, 0.1) pair's %v", got, ed.Lower(1))
	}
	if p.Upper(1) != 1 || p.Lower(0) != 0 {
		t.Errorf("Upper(1) = %v, Lower(0) = %v", p.Upper(1), p.Lower(0))
	}
	if !p.Allowed(0, p.Upper(0)) || p.Allowed(0, math.Nextafter(p.Upper(0), 1)) {
		t.Errorf("Allowed(0, ·) does not stop at Upper(0) = %v", p.Upper(0))
	}
}

// The trade-off curve of (ε,δ)-DP, f(x) = max(0, 1 − δ − e^ε x, e^−ε(1 − δ − x)),
// sampled at its two kinks, gives back the (ε,δ) bounds (up to the rounding of the
// kinks to float64): the f-DP reading of today's pair.
func TestTradeoffOfEpsDelta(t *testing.T) {
	eps, delta := math.Log(3), 0.05
	e := 3.0
	k1 := (1 - delta) / (1 + e) // where the two lines meet
	k2 := 1 - delta             // where the shallow line reaches 0
	p := mustTradeoff(t, []float64{0, k1, k2, 1}, []float64{1 - delta, 1 - delta - e*k1, 0, 0})
	q := mustPair(t, eps, delta)
	for _, a := range []float64{0.01, 0.1, 0.2, 0.5, 0.9} {
		if d := math.Abs(p.Upper(a) - q.Upper(a)); d > 1e-12 {
			t.Errorf("Upper(%v): curve %v, (ε,δ) %v", a, p.Upper(a), q.Upper(a))
		}
		if d := math.Abs(p.Lower(a) - q.Lower(a)); d > 1e-12 {
			t.Errorf("Lower(%v): curve %v, (ε,δ) %v", a, p.Lower(a), q.Lower(a))
		}
	}
}

// Bad curves and profiles are rejected with the row (and column) at fault named.
func TestBadCurvesAndProfilesRejected(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	curves := []struct {
		name        string
		alpha, beta []float64
		row         int
		want        string
	}{
		{"one point", []float64{0}, []float64{1}, 0, "at least two"},
		{"lengths", []float64{0, 1}, []float64{1}, 0, "alpha values but"},
		{"start", []float64{0.1, 1}, []float64{0.5, 0}, 1, "start at alpha = 0"},
		{"end", []float64{0, 0.9}, []float64{0.5, 0}, 2, "end at alpha = 1"},
		{"alpha NaN", []float64{0, nan, 1}, []float64{0.5, 0.2, 0}, 2, "alpha"},
		{"alpha negative", []float64{0, -0.1, 1}, []float64{0.5, 0.2, 0}, 2, "[0, 1]"},
		{"alpha above 1", []float64{0, 1.5, 1}, []float64{0.5, 0.2, 0}, 2, "[0, 1]"},
		{"beta NaN", []float64{0, 0.5, 1}, []float64{0.5, nan, 0}, 2, "beta"},
		{"beta inf", []float64{0, 0.5, 1}, []float64{0.5, inf, 0}, 2, "beta"},
		{"beta negative", []float64{0, 0.5, 1}, []float64{0.5, -0.1, 0}, 2, "[0, 1]"},
		{"alpha repeats", []float64{0, 0.5, 0.5, 1}, []float64{0.5, 0.2, 0.1, 0}, 3, "increase strictly"},
		{"alpha falls", []float64{0, 0.5, 0.4, 1}, []float64{0.5, 0.2, 0.1, 0}, 3, "increase strictly"},
		{"beta rises", []float64{0, 0.3, 0.6, 1}, []float64{0.5, 0.2, 0.3, 0}, 3, "non-increasing"},
		{"above diagonal", []float64{0, 0.5, 1}, []float64{0.6, 0.55, 0}, 2, "at most 1 − alpha"},
		{"f(0) above 1 − 0", []float64{0, 1}, []float64{1.0000001, 0}, 1, "[0, 1]"},
		{"f(1) not 0", []float64{0, 1}, []float64{0.5, 0.1}, 2, "at most 1 − alpha"},
		{"concave kink", []float64{0, 0.5, 1}, []float64{0.4, 0.3, 0}, 2, "not convex"},
		{"concave later", []float64{0, 0.1, 0.2, 0.6, 1}, []float64{0.8, 0.4, 0.2, 0.15, 0}, 4, "not convex"},
		{"diagonal crossing", []float64{0, 0.25, 0.75, 1}, []float64{0.6, 0.5, 0.26, 0}, 3, "at most 1 − alpha"},
	}
	for _, c := range curves {
		_, err := NewTradeoff(c.alpha, c.beta)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not say %q", c.name, err, c.want)
		}
		var re *RowError
		if c.row > 0 && (!errors.As(err, &re) || re.Row != c.row) {
			t.Errorf("%s: error %q does not name row %d", c.name, err, c.row)
		}
	}
	profiles := []struct {
		name       string
		eps, delta []float64
		row        int
		want       string
	}{
		{"empty", nil, nil, 0, "no rows"},
		{"lengths", []float64{1, 2}, []float64{0}, 0, "epsilon values but"},
		{"eps negative", []float64{1, -1}, []float64{0, 0}, 2, "epsilon"},
		{"eps NaN", []float64{nan}, []float64{0}, 1, "epsilon"},
		{"eps huge", []float64{1, 800}, []float64{0, 0}, 2, "epsilon"},
		{"delta one", []float64{1, 2}, []float64{0, 1}, 2, "delta"},
		{"delta negative", []float64{1, 2, 3}, []float64{0, 0, -1e-9}, 3, "delta"},
		{"delta NaN", []float64{1}, []float64{nan}, 1, "delta"},
		{"repeated", []float64{1, 2, 1}, []float64{0.1, 0, 0.1}, 3, "repeats row 1"},
	}
	for _, c := range profiles {
		_, err := NewProfile(c.eps, c.delta)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not say %q", c.name, err, c.want)
		}
		var re *RowError
		if c.row > 0 && (!errors.As(err, &re) || re.Row != c.row) {
			t.Errorf("%s: error %q does not name row %d", c.name, err, c.row)
		}
	}
	for _, mu := range []float64{-1, nan, inf, 101} {
		if _, err := NewGDP(mu); err == nil {
			t.Errorf("NewGDP(%v) accepted", mu)
		}
	}
}

// Framework-specific accessors say which framework a pair is.
func TestFrameworkAccessors(t *testing.T) {
	ps := frameworkPairs(t)
	if ps["eps-delta"].Framework() != EpsilonDelta || ps["gdp-2"].Framework() != GaussianDP ||
		ps["profile"].Framework() != Profile || ps["tradeoff-3"].Framework() != Tradeoff {
		t.Fatal("wrong frameworks")
	}
	if ps["gdp-2"].Mu() != 2 || !math.IsNaN(ps["profile"].Mu()) {
		t.Error("Mu")
	}
	if e, _ := ps["profile"].Profile(); len(e) != 5 {
		t.Error("Profile")
	}
	if a, _ := ps["tradeoff-3"].Tradeoff(); len(a) != 3 {
		t.Error("Tradeoff")
	}
	if _, ok := ps["gdp-2"].EpsDelta(); ok {
		t.Error("EpsDelta of a GDP pair")
	}
}

// A pair's statement round-trips for every framework: ParseStatement of Statement
// is the same pair (Same), and its text is the same; a statement that names
// another framework, or a parameter that is not a number, is an error naming the key.
func TestStatementRoundTrip(t *testing.T) {
	ed, _ := New(0.1+0.2, 1e-7)
	gdp, _ := NewGDP(0.3)
	prof, _ := NewProfile([]float64{0.5, 1}, []float64{0.01, 1e-4})
	curve, _ := NewTradeoff([]float64{0, 0.3, 1}, []float64{1, 0.2, 0})
	for _, p := range []Pair{ed, gdp, prof, curve} {
		st := p.Statement()
		q, err := ParseStatement(st)
		if err != nil || !p.Same(q) || q.String() != p.String() {
			t.Errorf("%v: %v → %v (%v)", p, st, q, err)
		}
	}
	if ed.Same(gdp) {
		t.Error("pairs of two frameworks are the same")
	}
	for st, want := range map[string]map[string]string{
		"graphdp.framework":       {"graphdp.framework": "zcdp"},
		"graphdp.gdp_mu":          {"graphdp.framework": "gdp", "graphdp.gdp_mu": "x"},
		"graphdp.privacy_profile": {"graphdp.framework": "privacy-profile", "graphdp.privacy_profile": "0.5"},
	} {
		if _, err := ParseStatement(want); err == nil || !strings.Contains(err.Error(), st) {
			t.Errorf("%v: %v", want, err)
		}
	}
}
