package report

import (
	"strings"
	"testing"

	"github.com/graphdp/graphdp/dp"
)

// The randomized-response line names the framework's own constant: the (ε,δ)
// formula only under (ε,δ)-DP; under another framework its own best constant
// (DESIGN.md §11).
func TestRandomizedResponseWordsFollowFramework(t *testing.T) {
	for _, c := range []struct {
		framework string
		want      string
		not       string
	}{
		{"", "(e^ε+δ)/(e^ε+1)", "U(1−α)"},
		{string(dp.EpsilonDelta), "(e^ε+δ)/(e^ε+1)", "U(1−α)"},
		{string(dp.GaussianDP), "the balanced α = U(1−α)", "e^ε"},
	} {
		r := &Report{Framework: c.framework}
		line := r.balancedWords()
		if !strings.Contains(line, c.want) || strings.Contains(line, c.not) {
			t.Errorf("framework %q: %q, want it to say %q and not %q", c.framework, line, c.want, c.not)
		}
	}
}
