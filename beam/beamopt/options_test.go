package beamopt

import (
	"strings"
	"testing"
)

// Offers and arcs are staged or shuffled as the job says; absent, by the stated
// default rule: staged on prism (the default runner), shuffled on every other
// runner. A value that is neither is a problem naming the key.
func TestStagedOrShuffled(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		o            Options
		offers, arcs bool
	}{
		{Options{}, true, true},
		{Options{Runner: "prism"}, true, true},
		{Options{Runner: "prism", Endpoint: "localhost:8073"}, true, true},
		{Options{Runner: "flink"}, false, false},
		{Options{Runner: "dataflow"}, false, false},
		{Options{Runner: "prism", Offers: Shuffled}, false, true},
		{Options{Runner: "prism", Arcs: Shuffled}, true, false},
		{Options{Runner: "spark", Offers: Staged, Arcs: Staged}, true, true},
	} {
		if got := c.o.StageOffers(); got != c.offers {
			t.Errorf("%+v: StageOffers %v, want %v", c.o, got, c.offers)
		}
		if got := c.o.StageArcs(); got != c.arcs {
			t.Errorf("%+v: StageArcs %v, want %v", c.o, got, c.arcs)
		}
		if p := c.o.Problems(false); len(p) > 0 {
			t.Errorf("%+v: problems %v", c.o, p)
		}
	}
	p := Options{Offers: "staging", Arcs: "Shuffled"}.Problems(false)
	if len(p) != 2 || !strings.HasPrefix(p[0], `beam.offers: "staging" is not staged or shuffled`) || !strings.HasPrefix(p[1], "beam.arcs: ") {
		t.Errorf("bad values: %q", p)
	}
}
