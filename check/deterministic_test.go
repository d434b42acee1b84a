package check

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// Deterministic datasets, precisely (TOOLKIT.md, "Deterministic datasets"): private
// when every DP inequality on their edges holds, not private with no neighbours or
// where one fails; the counts and the words say which. Path 0 – 1 – 2 and the isolated
// 3, ε = ln 2, δ = 0: p_one 1, 1, 0.4, 0. Dataset 0's only neighbour is as certain
// (private); 1 meets 0.4, and Pr[M(1) = 1] = 1 > 2·0.4 (not private); 3 has no
// neighbours. With δ = 0.01, p_one 0 next to 0.01 keeps every inequality (0.01 ≤ e^ε·0
// + δ; 1 ≤ e^ε·0.99 + δ).
func TestDeterministicPrivate(t *testing.T) {
	g, _ := graph.Build(4, []int32{0, 1}, []int32{1, 2})
	pair, _ := dp.New(math.Ln2, 0)
	id := func(v int32) string { return strconv.Itoa(int(v)) }
	d, is := FindDeterministic(g, []float64{1, 1, 0.4, 0}, nil, nil, &pair, id)
	if d.Count != 3 || d.Private != 1 || d.NotPrivate != 2 || d.DPFails != 1 || d.Isolated != 1 || !is[0] || is[2] {
		t.Errorf("%+v", d)
	}
	if f := d.First; len(f) != 3 || !f[0].Private || f[1].Private || f[2].Private {
		t.Errorf("first %+v", f)
	}
	text := strings.Join(d.Lines(), "\n")
	for _, want := range []string{"NOT private: 2: 1 with no neighbours, which no DP inequality protects, 1 where a DP inequality on one of its edges fails",
		"private: 1: every DP inequality", "0 (no constraint in its component, private)", "1 (no constraint in its component, NOT private)"} {
		if !strings.Contains(text, want) {
			t.Errorf("warning does not say %q:\n%s", want, text)
		}
	}
	// Without a pair the mechanism is taken as audited: every dataset with neighbours is private.
	if d, _ := FindDeterministic(g, []float64{1, 1, 0.4, 0}, nil, nil, nil, id); d.Private != 2 || d.NotPrivate != 1 || d.DPFails != 0 {
		t.Errorf("audited: %+v", d)
	}
	g2, _ := graph.Build(2, []int32{0}, []int32{1})
	pd, _ := dp.New(math.Ln2, 0.01)
	if d, _ := FindDeterministic(g2, []float64{0, 0.01}, nil, nil, &pd, id); d.Count != 1 || d.Private != 1 {
		t.Errorf("δ > 0: %+v", d)
	}
	if d, _ := FindDeterministic(g2, []float64{0, 0.02}, nil, nil, &pd, id); d.Count != 1 || d.DPFails != 1 {
		t.Errorf("δ > 0, beyond it: %+v", d)
	}
}
