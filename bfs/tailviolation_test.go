package bfs

import (
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// A hitting-set tail (an answer-0 p_true below ½ with no float64 complement) next to a
// p_one that does not allow it exactly is a violation of output 1 naming the tail
// alone: the neighbour's value depends on the answers and stays out of the message.
func TestTailViolationNamesTheTailAlone(t *testing.T) {
	pair := testgraph.MustDP(0, 0) // ε = δ = 0: only equal values are allowed
	p := NewPass(pair, true)
	hv := dp.ExactOfPTrue(false, 0.3) // 1 − 0.3 is no float64
	if !dp.Tail(hv) {
		t.Fatalf("p_true 0.3 of answer 0: exact value %v is not a tail", hv)
	}
	v, bad := p.TailViolation(4, hv, 9, 0.7) // the nearest p_one, still not 1 − 0.3
	if !bad {
		t.Fatal("p_one 0.7 next to p_true 0.3 at ε = δ = 0 passes")
	}
	if v.H != 4 || v.By != 4 || v.Dist != 0 || !v.Output {
		t.Errorf("violation %+v: want H = By = 4, Dist 0, output 1", v)
	}
	if v.ByValue != v.Given || v.Bound != v.Given {
		t.Errorf("violation %+v carries a value other than the tail's own", v)
	}
	if _, bad := NewPass(pair, false).TailViolation(4, hv, 9, 0.7); bad {
		t.Error("pass 0 reports a tail violation: its seeds are exact")
	}
	if _, bad := p.TailViolation(4, hv, 9, hv); bad {
		t.Error("two equal tails at ε = δ = 0 fail")
	}
}
