package dp

import (
	"testing"
)

// TestRegistry holds every registered framework to the registry's contract: its
// name finds it, its keys and flags are nobody else's, its Values are Make's
// inverse (a pair rebuilt from them makes the same statement), and its statement
// parses back to the same pair. Pairs are the constructors' own (hand-picked
// parameters of each framework).
func TestRegistry(t *testing.T) {
	examples := map[Framework]func() (Pair, error){
		EpsilonDelta: func() (Pair, error) { return New(0.5, 1e-6) },
		GaussianDP:   func() (Pair, error) { return NewGDP(0.75) },
		Profile:      func() (Pair, error) { return NewProfile([]float64{0.5, 1}, []float64{1e-3, 1e-6}) },
		Tradeoff:     func() (Pair, error) { return NewTradeoff([]float64{0, 0.5, 1}, []float64{0.9, 0.2, 0}) },
	}
	keys, flags := map[string]Framework{}, map[string]Framework{}
	for i, s := range Frameworks() {
		if Lookup(s.Name) != s {
			t.Errorf("Lookup(%q) is not its spec", s.Name)
		}
		if (i == 0) != (s.Name == EpsilonDelta) {
			t.Errorf("%s at %d: (ε,δ) must come first (Others is the rest)", s.Name, i)
		}
		for _, pa := range s.Params {
			if fw, dup := keys[pa.Key]; dup {
				t.Errorf("key %s of %s is also %s's", pa.Key, s.Name, fw)
			}
			if fw, dup := flags[pa.Flag]; dup {
				t.Errorf("flag %s of %s is also %s's", pa.Flag, s.Name, fw)
			}
			keys[pa.Key], flags[pa.Flag] = s.Name, s.Name
			if i > 0 && pa.Usage == "" {
				t.Errorf("%s: parameter %s has no flag usage", s.Name, pa.Key)
			}
		}
		mk := examples[s.Name]
		if mk == nil {
			t.Errorf("%s: no example pair in this test", s.Name)
			continue
		}
		p, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		if p.Spec() != s {
			t.Errorf("%s: the pair's Spec is %v", s.Name, p.Spec().Name)
		}
		q, err := s.Make(s.Values(p))
		if err != nil || !q.Same(p) || q.String() != p.String() {
			t.Errorf("%s: Make(Values(p)) = %v, %v; want %v", s.Name, q, err, p)
		}
		r, err := ParseStatement(p.Statement())
		if err != nil || !r.Same(p) {
			t.Errorf("%s: ParseStatement(Statement) = %v, %v; want %v", s.Name, r, err, p)
		}
		if s.Lines == nil && s.Tangent == nil {
			t.Errorf("%s: neither LP lines nor tangents: optimize would refuse it", s.Name)
		}
		if s.Charge == nil && s.NoCharge == "" {
			t.Errorf("%s: no charge rule and no word on why", s.Name)
		}
	}
	if _, err := ParseStatement(map[string]string{"graphdp.framework": "zcdp"}); err == nil {
		t.Error("an unknown framework parsed")
	}
}

// TestChargeProfile: a profile is charged its smallest-ε row that fits, else its
// smallest-ε row (hand derivation on a two-row profile).
func TestChargeProfile(t *testing.T) {
	p, err := NewProfile([]float64{2, 0.5}, []float64{0, 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fits         func(e, d float64) bool
		wantE, wantD float64
	}{
		{func(e, d float64) bool { return true }, 0.5, 1e-3},
		{func(e, d float64) bool { return d == 0 }, 2, 0},
		{func(e, d float64) bool { return false }, 0.5, 1e-3},
	} {
		e, d, err := Lookup(Profile).Charge(p, Budget{Fits: c.fits})
		if err != nil || e != c.wantE || d != c.wantD {
			t.Errorf("charge = %v, %v, %v; want %v, %v", e, d, err, c.wantE, c.wantD)
		}
	}
}
