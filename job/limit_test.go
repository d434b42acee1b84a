package job

import "testing"

// max_deterministic's two forms and where each draws the line: "N" allows N
// datasets, "P%" allows count·100 ≤ P·total (hand-computed: 3 of 7 is 42.857…%).
func TestDeterministicLimit(t *testing.T) {
	for _, c := range []struct {
		s            string
		count, total int
		exceeded     bool
	}{
		{"3", 3, 7, false}, {"3", 4, 7, true}, {"0", 0, 7, false}, {"0", 1, 7, true},
		{"42.9%", 3, 7, false}, {"42.8%", 3, 7, true}, {" 10 % ", 1, 10, false}, {"10%", 2, 10, true},
		{"0%", 0, 5, false}, {"0%", 1, 5, true}, {"100%", 5, 5, false},
	} {
		l, err := ParseLimit(c.s)
		if err != nil {
			t.Fatalf("%q: %v", c.s, err)
		}
		if got := l.Exceeded(c.count, c.total); got != c.exceeded {
			t.Errorf("%q with %d of %d: exceeded %v, want %v", c.s, c.count, c.total, got, c.exceeded)
		}
	}
	for _, s := range []string{"", "-1", "1.5", "x", "101%", "-1%", "NaN%", "%", "1e3"} {
		if _, err := ParseLimit(s); err == nil {
			t.Errorf("%q: accepted", s)
		}
	}
}
