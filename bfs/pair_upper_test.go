package bfs

import (
	"math"
	"testing"
)

// Review: DP.Upper(a) < a (not a superior function) and (a, Upper(a)) not Allowed, at
// ordinary ε, for a close to 1: the second branch (e^ε + δ − 1 + a)/e^ε rounds below a
// and Upper's loop only runs while b > a.
func TestReviewUpperBelowA(t *testing.T) {
	for _, c := range []struct{ eps, delta float64 }{{0.1, 0}, {1e-6, 0}, {1e-12, 0}} {
		p := mustDP(c.eps, c.delta)
		found := 0
		for k := 1; k < 200000 && found < 2; k++ {
			a := 1 - float64(k)*math.Ldexp(1, -53)
			if u := p.Upper(a); u < a || !p.Allowed(a, u) {
				found++
				t.Errorf("ε=%v δ=%v: Upper(%v) = %v (< a: %v, Allowed: %v, Excess(1−a,1−u) = %v)", c.eps, c.delta, a, u, u < a, p.Allowed(a, u), p.Excess(1-a, 1-u))
			}
		}
	}
}
