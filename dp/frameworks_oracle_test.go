package dp

import (
	"testing"

	"github.com/graphdp/graphdp/internal/oracle"
)

// Upper and Lower of μ-GDP, privacy profiles and trade-off curves are RD and RU of
// the real bounds of internal/oracle (its own Φ and Φ⁻¹, min/max of its (ε,δ)
// bounds, its own reading of a curve's symmetrisation), in both tails: the oracle
// the bfs tail tests measure the engines against agrees with dp where dp is exact.
func TestFrameworksMatchOracle(t *testing.T) {
	type fw struct {
		name string
		pair Pair
		orc  oracle.Bounds
	}
	var fws []fw
	for _, mu := range []float64{0.05, 1, 6} {
		p, err := NewGDP(mu)
		if err != nil {
			t.Fatal(err)
		}
		fws = append(fws, fw{"gdp", p, oracle.GDP{Mu: mu}})
	}
	for _, ed := range [][2]float64{{1, 0}, {0.1, 1e-9}, {5, 1e-3}, {1e-6, 0}} {
		p, err := New(ed[0], ed[1])
		if err != nil {
			t.Fatal(err)
		}
		fws = append(fws, fw{"epsilon-delta", p, oracle.Pair{Epsilon: ed[0], Delta: ed[1]}})
	}
	eps, delta := []float64{0.3, 1, 2}, []float64{0.1, 1e-3, 1e-6}
	p, err := NewProfile(eps, delta)
	if err != nil {
		t.Fatal(err)
	}
	var prof oracle.Profile
	for i := range eps {
		prof = append(prof, oracle.Pair{Epsilon: eps[i], Delta: delta[i]})
	}
	fws = append(fws, fw{"profile", p, prof})
	for _, c := range []struct{ a, b []float64 }{
		{[]float64{0, 0.05, 0.5, 1}, []float64{0.9, 0.3, 0.05, 0}},
		{[]float64{0, 0.01, 0.1, 0.3, 0.6, 1}, []float64{1, 0.6, 0.25, 0.08, 0.01, 0}},
		{[]float64{0, 0.1, 1}, []float64{1, 0.5, 0}},
	} {
		p, err := NewTradeoff(c.a, c.b)
		if err != nil {
			t.Fatal(err)
		}
		fws = append(fws, fw{"curve", p, oracle.Curve{Alpha: c.a, Beta: c.b}})
	}
	args := []float64{0, 5e-324, 1e-300, 1e-100, 1e-16, 1e-9, 0.01, 0.05, 0.1, 0.3, 0.5, 0.7, 0.95, 1 - 1e-9, 1 - 0x1p-52, 1 - 0x1p-53, 1}
	if testing.Short() {
		args = []float64{1e-300, 1e-16, 0.3, 0.7, 1 - 1e-9, 1 - 0x1p-53}
	}
	for _, f := range fws {
		for _, a := range args {
			x := oracle.F(a)
			if got, want := f.pair.Upper(a), oracle.RoundDown(f.orc.U(x)); got != want {
				t.Errorf("%s: Upper(%v) = %v, oracle RD(U*) = %v", f.pair, a, got, want)
			}
			if got, want := f.pair.Lower(a), oracle.RoundUp(f.orc.L(x)); got != want {
				t.Errorf("%s: Lower(%v) = %v, oracle RU(L*) = %v", f.pair, a, got, want)
			}
		}
		// Across, where 1 − x is no float64 (else it is Lower and Upper at 1 − x, above)
		// and where it is: RU(1 − U*(x)) and RD(1 − L*(x)), and AcrossLower its lo.
		for _, a := range append(args, 0.1+0x1p-56, 0.3+0x1p-55, 1e-5, 3.19e-14) {
			x := oracle.F(a)
			lo, hi := f.pair.Across(a)
			if want := oracle.RoundUp(oracle.OneMinus(f.orc.U(x))); lo != want || f.pair.AcrossLower(a) != want {
				t.Errorf("%s: Across(%v) lo %v, AcrossLower %v, oracle RU(1 − U*) = %v", f.pair, a, lo, f.pair.AcrossLower(a), want)
			}
			if want := oracle.RoundDown(oracle.OneMinus(f.orc.L(x))); hi != want {
				t.Errorf("%s: Across(%v) hi %v, oracle RD(1 − L*) = %v", f.pair, a, hi, want)
			}
		}
	}
}
