package bfs

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/graphdp/graphdp/internal/testgraph"
)

// The generated instances must exercise what the issue names: values 0 and 1, values
// exactly on the feasibility edge (a hitting-set value equal to the bound another one
// imposes), ε = 0, δ = 0, isolated vertices and several components.
func TestGeneratorCoverage(t *testing.T) {
	var zeroOne, onEdge, isolated, multi, eps0, delta0 int
	forInstances(t, 3000, func(t *testing.T, name string, r *rand.Rand, in *Instance) {
		for _, p := range in.PTrue {
			if p == 0 || p == 1 {
				zeroOne++
				break
			}
		}
		if dp := in.Pair; dp.Epsilon == 0 {
			eps0++
		} else if dp.Delta == 0 {
			delta0++
		}
		for v := int32(0); int(v) < in.G.N(); v++ {
			if len(in.G.Neighbours(v)) == 0 {
				isolated++
				break
			}
		}
		if k, _ := in.G.CountComponents(context.Background()); k > 1 {
			multi++
		}
		if onFeasibilityEdge(in) {
			onEdge++
		}
	})
	t.Logf("values 0/1: %d, on the edge: %d, ε=0: %d, δ=0: %d, isolated: %d, multi-component: %d",
		zeroOne, onEdge, eps0, delta0, isolated, multi)
	for name, c := range map[string]int{"0/1": zeroOne, "on-edge": onEdge, "ε=0": eps0, "δ=0": delta0, "isolated": isolated, "multi": multi} {
		if c < testgraph.Instances(50, 5) { // scaled with the instances drawn
			t.Errorf("only %d instances with %s", c, name)
		}
	}
}

// onFeasibilityEdge reports whether some hitting-set value equals (below the top) the
// bound the other hitting-set vertices impose on it.
func onFeasibilityEdge(in *Instance) bool {
	for _, one := range []bool{false, true} {
		c := NewPass(in.Pair, one)
		for i, h := range in.Hit {
			sub := *in
			sub.Hit = append(append([]int32(nil), in.Hit[:i]...), in.Hit[i+1:]...)
			sub.PTrue = append(append([]float64(nil), in.PTrue[:i]...), in.PTrue[i+1:]...)
			f, _ := Propagate{}.Pass(context.Background(), &sub, one)
			if f.Value[h] == c.Seed(in.HitValue(i)) && f.Value[h] != c.Top() {
				return true
			}
		}
	}
	return false
}
