package pipeline

import "testing"

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
