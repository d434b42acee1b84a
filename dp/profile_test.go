package dp

import (
	"math"
	"testing"
)

// A profile's bounds compute only the pairs whose estimates come near the binding
// one: they must still be exactly min_i Upper_i and max_i Lower_i, here for ten
// pairs of an accountant-like curve, where neighbouring pairs bind at nearby
// points and tie within ApproxMargin near the crossings, plus pairs that tie
// exactly (same ε, δ a hair apart).
func TestProfileBoundsArePairsMinMax(t *testing.T) {
	var eps, delta []float64
	for i := range 10 {
		eps = append(eps, 0.5*float64(i+1))
		delta = append(delta, 1e-6*math.Exp(-2*float64(i)))
	}
	eps = append(eps, 1, 1)
	delta = append(delta, 0.01, math.Nextafter(0.01, 1))
	p := mustProfile(t, eps, delta)
	var pairs []EpsDelta
	for i := range eps {
		ed, err := NewEpsDelta(eps[i], delta[i])
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, ed)
	}
	pts := append(randomPoints(3000, 26), math.NaN(), -0.5, 1.5)
	// Where two pairs' branches cross (e^εi·a + δi = e^εj·a + δj, and the same for
	// 1 − (1 − a − δ)·e^−ε, and for L's branches by symmetry at 1 − a), and a few ulps
	// either side: there the estimates tie and the pruning must keep both.
	for i := range eps {
		for j := range i {
			ei, ej := math.Exp(eps[i]), math.Exp(eps[j])
			if ei == ej {
				continue
			}
			c1 := (delta[i] - delta[j]) / (ej - ei)
			c2 := ((1-delta[i])/ei - (1-delta[j])/ej) / (1/ei - 1/ej)
			for _, c := range []float64{c1, c2, 1 - c1, 1 - c2} {
				if !(c > 0 && c < 1) {
					continue
				}
				for k, x := 0, c; k < 4; k++ {
					pts = append(pts, x, 2*c-x)
					x = math.Nextafter(x, 2)
				}
			}
		}
	}
	for _, a := range pts {
		up, lo := math.Inf(1), math.Inf(-1)
		for _, ed := range pairs {
			up, lo = min(up, ed.Upper(a)), max(lo, ed.Lower(a))
		}
		if got := p.Upper(a); got != up && !(math.IsNaN(got) && math.IsNaN(up)) {
			t.Errorf("Upper(%v) = %v, min over the pairs %v", a, got, up)
		}
		if got := p.Lower(a); got != lo && !(math.IsNaN(got) && math.IsNaN(lo)) {
			t.Errorf("Lower(%v) = %v, max over the pairs %v", a, got, lo)
		}
	}
}
