package pipeline

import (
	"strings"
	"testing"

	"github.com/graphdp/graphdp/dp"
)

// A tail's conflict (bfs.Pass.TailViolation: By = H) is worded as one dataset, with
// its given p_true only; a conflict of two datasets keeps its pair line.
func TestInfeasibleTailLine(t *testing.T) {
	pair, _ := dp.New(0, 0)
	e := infeasiblePair("h.csv", pair, []Conflict{
		{Output: true, H: "t", By: "t", Given: 0.7, ByValue: 0.7, Bound: 0.7},
		{Output: true, H: "a", By: "b", AnsH: true, AnsBy: true, Dist: 2, Given: 0.9, ByValue: 0.6, Bound: 0.8},
	})
	text := strings.Join(e.Lines, "\n")
	if !strings.Contains(text, `dataset t (p_true 0.3): no float64 mechanism holds this value exactly`) {
		t.Errorf("no one-dataset line for the tail:\n%s", text)
	}
	if strings.Contains(text, `t (p_true 0.3) and`) || !strings.Contains(text, `datasets a (p_true 0.9) and b (p_true 0.6), 2 hops apart`) {
		t.Errorf("lines:\n%s", text)
	}
}
