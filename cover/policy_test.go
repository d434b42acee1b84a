package cover

import (
	"slices"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// Each policy gives a vertex the value of its answer; Balanced is dp's α.
func TestPolicyValues(t *testing.T) {
	pair, err := dp.New(1, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	answer := []bool{false, true, false, true}
	set := []int32{3, 0, 1}
	if got := ByAnswer(0.2, 0.7).Values(set, answer); !slices.Equal(got, []float64{0.7, 0.2, 0.7}) {
		t.Errorf("by answer: %v", got)
	}
	if got := Uniform(0.4).Values(set, answer); !slices.Equal(got, []float64{0.4, 0.4, 0.4}) {
		t.Errorf("uniform: %v", got)
	}
	a := pair.Balanced()
	if b := Balanced(pair); b.PTrue != [2]float64{a, a} || b.Name == "" {
		t.Errorf("balanced: %+v, want α = %v", b, a)
	}
}

// BoundaryVertices are the ends of the edges whose answers differ: on the path
// 0–1–2–3 with answers 0 0 1 1, vertices 1 and 2.
func TestBoundaryVertices(t *testing.T) {
	g, _ := graph.Build(4, []int32{0, 1, 2}, []int32{1, 2, 3})
	if got := BoundaryVertices(g, []bool{false, false, true, true}); !slices.Equal(got, []int32{1, 2}) {
		t.Errorf("boundary vertices %v, want [1 2]", got)
	}
}
