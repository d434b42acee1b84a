package words

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 vertices"}, {1, "1 vertex"}, {2, "2 vertices"}, {-1, "-1 vertex"}} {
		if got := Count(c.n, "vertex", "vertices"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestHumane(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{0, "0"}, {7, "7"}, {584, "584"}, {999, "999"}, {999.7, "1k"}, {1000, "1k"}, {58412, "58.4k"}, {584312.5, "584k"},
		{5.843e6, "5.84M"}, {2.5e9, "2.5G"}, {1.5, "1.5"}, {3e15, "3000T"}, {0.25, "0.25"}} {
		if got := Humane(c.x); got != c.want {
			t.Errorf("Humane(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}
