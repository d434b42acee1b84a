package pipeline

import (
	"bytes"
	"strings"
	"testing"
)

// The human summary counts components in words.
func TestSummaryHumanComponents(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, ", 1 component\n"}, {0, ", 0 components\n"}} {
		var b bytes.Buffer
		(&Summary{Engine: "e", Vertices: 3, Components: c.n}).Human(&b)
		first, _, _ := strings.Cut(b.String(), "\n")
		if !strings.HasSuffix(first+"\n", c.want) {
			t.Errorf("components %d: %q, want it to end in %q", c.n, first, c.want)
		}
	}
}
