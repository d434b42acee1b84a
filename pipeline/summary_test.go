package pipeline

import (
	"bytes"
	"strings"
	"testing"
)

// The human summary says components were not counted (Components = -1, the beam
// runner) instead of printing "-1 components", and counts them otherwise.
func TestSummaryHumanComponents(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{-1, ", components not counted\n"}, {1, ", 1 component\n"}, {0, ", 0 components\n"}} {
		var b bytes.Buffer
		(&Summary{Engine: "e", Vertices: 3, Components: c.n}).Human(&b)
		first, _, _ := strings.Cut(b.String(), "\n")
		if !strings.HasSuffix(first+"\n", c.want) || strings.Contains(first, "-1") {
			t.Errorf("components %d: %q, want it to end in %q", c.n, first, c.want)
		}
	}
}
