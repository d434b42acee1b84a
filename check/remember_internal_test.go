package check

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/internal/testgraph"
)

// approxExcess returns exactly the pair's ApproxExcess of the very two values
// asked, whichever edge came before: sequences over a few values (repeats of
// either end alone, of both, −0 and +0).
func TestApproxExcessRemembersExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 2))
	for _, pair := range testgraph.Pairs {
		x := NewAuditor(pair, 0, 1)
		a := 0.2 + 0.6*r.Float64()
		vals := []float64{a, pair.Upper(a), pair.Lower(a), 0, math.Copysign(0, -1), 1, 0.5}
		for range 5000 {
			pu, pv := vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]
			g0, g1 := x.approxExcess(pu, pv)
			w0, w1 := pair.ApproxExcess(pu, pv)
			if math.Float64bits(g0) != math.Float64bits(w0) || math.Float64bits(g1) != math.Float64bits(w1) {
				t.Fatalf("approxExcess(%v, %v) = %v, %v; ApproxExcess gives %v, %v", pu, pv, g0, g1, w0, w1)
			}
		}
	}
}
