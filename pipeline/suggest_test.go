package pipeline

import "testing"

// Distances worked out by hand; Nearest answers only plausible typos.
func TestNearest(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"run", "run", 0}, {"rnu", "run", 1}, {"rn", "run", 1}, {"runn", "run", 1},
		{"epsilon", "epslion", 1}, {"hitting_set", "hitting-set", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
	opts := []string{"run", "release", "report", "verify", "query", "hitting-set"}
	for _, c := range []struct{ word, want string }{
		{"rnu", "run"}, {"relase", "release"}, {"reprot", "report"}, {"hiting-set", "hitting-set"},
		{"xyz", ""}, {"r", ""}, {"verify", "verify"},
	} {
		got, ok := Nearest(c.word, opts)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Nearest(%q) = %q, %v; want %q", c.word, got, ok, c.want)
		}
	}
}

// sig9: 9 significant digits, nearest.
func TestSig9(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{0.9625, "0.9625"}, {0.19999999999999996, "0.2"}, {0.1234567896, "0.12345679"}, {1 - 0.08000000000000007, "0.92"}, {1.5e-12, "1.5e-12"}} {
		if got := sig9(c.x); got != c.want {
			t.Errorf("sig9(%v) = %s, want %s", c.x, got, c.want)
		}
	}
}
