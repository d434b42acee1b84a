package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/dp"
)

// A tail's conflict (bfs.Pass.TailViolation: By = H) is one dataset, with its given
// p_true only; a conflict of two datasets is the pair in id order with its distance.
// Neither reaches the rejection's text, which is shareable: it depends on the
// parameters alone.
func TestInfeasibleTailLine(t *testing.T) {
	pair, _ := dp.New(0, 0)
	e := infeasiblePair("h.csv", pair, []Conflict{
		{Output: true, H: "t", By: "t", Given: 0.7, ByValue: 0.7, Bound: 0.7},
		{Output: true, H: "b", By: "a", AnsH: true, AnsBy: true, Dist: 2, Given: 0.9, ByValue: 0.6, Bound: 0.8},
		{Output: false, H: "a", By: "b", AnsH: true, AnsBy: true, Dist: 2, Given: 0.4, ByValue: 0.1, Bound: 0.2},
	})
	if got, want := fmt.Sprint(e.Conflicts), "[{[a b] [0.6 0.9] 2} {[t] [0.3] 0}]"; got != want {
		t.Errorf("conflicts %s, want %s", got, want)
	}
	text := e.Error()
	for _, id := range []string{" a ", " b ", " t ", "0.3", "0.9"} {
		if strings.Contains(text, id) {
			t.Errorf("the rejection's text names a conflict (%q):\n%s", id, text)
		}
	}
	other := infeasiblePair("h.csv", pair, nil)
	if other.Error() != text {
		t.Errorf("the text depends on the conflicts:\n%s\n%s", text, other.Error())
	}
}
