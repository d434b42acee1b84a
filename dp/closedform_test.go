package dp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The paper's closed form p(d, a) is a claim; iterated U is the reference (docs/DESIGN.md §2.3).
func TestClosedFormMatchesIteration(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	epsilons := []float64{0, 1e-4, 0.01, 0.1, 0.5, math.Ln2, 1, 2, 5, 12}
	deltas := []float64{0, 1e-9, 1e-6, 0.01, 0.2, 0.5, 0.9}
	for _, eps := range epsilons {
		for _, delta := range deltas {
			p := mustPair(t, eps, delta)
			s := (1 - delta) / (p.E() + 1)
			as := []float64{0, 1, s, math.Nextafter(s, 0), math.Nextafter(s, 1), s / 2, (1 + s) / 2, 1e-300, 1 - 1e-16}
			for i := 0; i < 40; i++ {
				as = append(as, r.Float64())
			}
			for _, a := range as {
				it := a
				for d := 0; d <= 400; d++ {
					if cf := p.UpperPow(d, a); math.Abs(cf-it) > 1e-9*max(1, float64(d)/50) {
						t.Fatalf("ε=%v δ=%v a=%v d=%d: closed form %v, iterated %v", eps, delta, a, d, cf, it)
					}
					it = p.Upper(it)
				}
			}
		}
	}
}

func TestNewRejects(t *testing.T) {
	for _, c := range [][2]float64{{-1, 0}, {math.NaN(), 0}, {math.Inf(1), 0}, {1, -0.1}, {1, 1}, {1, math.NaN()}, {709.79, 0}, {710, 0}} {
		if _, err := New(c[0], c[1]); err == nil {
			t.Errorf("New(%v, %v) accepted", c[0], c[1])
		}
	}
}

func TestEBoundsEncloseE(t *testing.T) {
	for _, eps := range []float64{0, 1e-9, 0.01, math.Ln2, 0.5, 1, 3, 50, 700} {
		p, err := New(eps, 0)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := p.EBounds()
		// An independent reference: math.Exp is within an ulp of e^ε, so a true
		// enclosure meets that window and is at most a few ulps wide.
		e := math.Exp(eps)
		if !(lo <= hi && hi-lo <= 4*(math.Nextafter(e, math.Inf(1))-e)) {
			t.Errorf("ε=%v: enclosure [%v, %v] wider than a few ulps of %v", eps, lo, hi, e)
		}
		if !(lo <= math.Nextafter(e, math.Inf(1)) && hi >= math.Nextafter(e, math.Inf(-1))) {
			t.Errorf("ε=%v: enclosure [%v, %v] misses math.Exp %v by more than an ulp", eps, lo, hi, e)
		}
		if eps == 0 && (lo != 1 || hi != 1) {
			t.Errorf("ε=0: enclosure [%v, %v], want exactly 1", lo, hi)
		}
	}
}

// MaxEpsilon is the float64 nearest ln(MaxFloat64): the largest ε New must refuse,
// with every smaller float64 accepted (e^ε finite).
func TestMaxEpsilon(t *testing.T) {
	if got, want := float64(MaxEpsilon), math.Log(math.MaxFloat64); got != want {
		t.Fatalf("MaxEpsilon = %v, want math.Log(MaxFloat64) = %v", got, want)
	}
	if _, err := New(MaxEpsilon, 0); err == nil {
		t.Errorf("New(MaxEpsilon, 0) accepted; e^ε overflows")
	}
	below := math.Nextafter(MaxEpsilon, 0)
	if p, err := New(below, 0); err != nil || math.IsInf(p.E(), 0) {
		t.Errorf("New(%v, 0) = %v, %v; want a finite e^ε", below, p, err)
	}
}
