package bfs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Pair's contract (pair.go), found broken in review: Upper(a) ≥ a, Lower(a) ≤ a, and (a, Upper(a)),
// (a, Lower(a)) Allowed. Colour 0's Step(v) = −Lower(−v) must be superior (Step(v) ≥ v)
// for the label-setting engine to be valid.
func TestReviewLowerAtMostA(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	eps := []float64{0, 1e-17, 1e-12, 1e-6, 0.1, math.Ln2, 3, 30, 700}
	deltas := []float64{0, 5e-324, 1e-17, 1e-6, 0.1, 0.5}
	bad := map[string]int{}
	example := map[string]string{}
	for _, e := range eps {
		for _, d := range deltas {
			p := mustDP(e, d)
			for k := 0; k < 20000; k++ {
				a := r.Float64()
				switch k % 4 {
				case 1:
					a = math.Ldexp(r.Float64(), -r.IntN(1000))
				case 2:
					a = 1 - math.Ldexp(r.Float64(), -r.IntN(50))
				}
				lo, up := p.Lower(a), p.Upper(a)
				check := func(kind string, failed bool) {
					if failed {
						bad[kind]++
						if _, ok := example[kind]; !ok {
							example[kind] = fmtCase(e, d, a, lo, up)
						}
					}
				}
				check("Lower(a) > a", lo > a)
				check("Upper(a) < a", up < a)
				check("(a, Lower(a)) not Allowed", !p.Allowed(a, lo))
				check("(a, Upper(a)) not Allowed", !p.Allowed(a, up))
				// maximal: the formula's cap, or the next float up is not Allowed
				check("Upper(a) not maximal", up < max(p.upperFormula(a), a) && p.Allowed(a, math.Nextafter(up, 2)))
				check("Lower(a) not minimal", lo > min(p.lowerFormula(a), a) && p.Allowed(a, math.Nextafter(lo, -1)))
			}
		}
	}
	for k, n := range bad {
		t.Errorf("%s: %d cases, e.g. %s", k, n, example[k])
	}
}

func fmtCase(e, d, a, lo, up float64) string {
	return fmt.Sprintf("ε=%v δ=%v a=%v Lower=%v Upper=%v", e, d, a, lo, up)
}
