package bfs

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
			p := mustDP(eps, delta)
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

// U is the paper's suitable pair: non-decreasing, U(a) ≥ a, U(a) = 1 − L(1−a), and
// rounded so that (a, U(a)) passes the audit for both outputs.
func TestUpperProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range pairs {
		prev, prevU := 0.0, p.Upper(0)
		for i := 0; i < 20000; i++ {
			a := r.Float64()
			if i%2 == 0 {
				a = math.Nextafter(prev, 1) // adjacent floats too
			}
			u := p.Upper(a)
			if u < a || u > 1 {
				t.Fatalf("ε=%v δ=%v: U(%v) = %v not in [a, 1]", p.Epsilon, p.Delta, a, u)
			}
			if (a > prev && u < prevU) || (a < prev && u > prevU) {
				t.Fatalf("ε=%v δ=%v: U not monotone at %v, %v", p.Epsilon, p.Delta, prev, a)
			}
			if p.Excess(a, u) > 0 || p.Excess(1-a, 1-u) > 0 {
				t.Fatalf("ε=%v δ=%v: (%v, U=%v) fails the audit", p.Epsilon, p.Delta, a, u)
			}
			if f := p.upperFormula(a); f-u > 1e-15 {
				t.Fatalf("ε=%v δ=%v: safe rounding moved U(%v) by %v", p.Epsilon, p.Delta, a, f-u)
			}
			prev, prevU = a, u
		}
	}
}

func TestNewDPRejects(t *testing.T) {
	for _, c := range [][2]float64{{-1, 0}, {math.NaN(), 0}, {math.Inf(1), 0}, {1, -0.1}, {1, 1}, {1, math.NaN()}} {
		if _, err := NewDP(c[0], c[1]); err == nil {
			t.Errorf("NewDP(%v, %v) accepted", c[0], c[1])
		}
	}
}
