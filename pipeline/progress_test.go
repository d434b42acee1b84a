package pipeline

import "testing"

// The status line: counts and rates in humane units, the percentage and ETA only
// where the total is known.
func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		name, unit  string
		done, total int64
		elapsed     float64
		counted     bool
		want        string
	}{
		{"read", "rows", 1_200_000, 3_400_000, 2, true, "graphdp: read 1.2M of 3.4M rows (35%), 600k rows/s, ETA 3.7s"},
		{"read", "rows", 584_000, 0, 1, true, "graphdp: read 584k rows, 584k rows/s, 1.0s"},
		{"write", "rows", 10, 10, 0.5, true, "graphdp: write 10 of 10 rows (100%), 20 rows/s, 0.5s"},
		{"propagate (2 passes)", "vertices settled", 65536, 6_553_600, 1, true,
			"graphdp: propagate (2 passes) 65.5k of 6.55M vertices settled (1%), 65.5k vertices settled/s, ETA 1m39s"},
		{"audit", "", 0, 0, 75, false, "graphdp: audit 1m15s"},
	} {
		if got := progressLine(c.name, c.unit, c.done, c.total, c.elapsed, c.counted); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
