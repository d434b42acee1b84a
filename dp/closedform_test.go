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
