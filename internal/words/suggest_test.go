package words

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
