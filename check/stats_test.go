package check

import "testing"

// Stats on small mechanisms worked by hand: mean p_true over all datasets, the
// truthful count (p_true exactly 1), and the per-answer classes (a class with no
// datasets has mean and min 1: check/stats.go, Classes).
func TestStats(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answer   []bool
		pone     []float64
		mean     float64
		truthful int
		sens     float64 // mean p_true of the answer-1 datasets
		spec     float64 // of the answer-0 ones
		min      float64
	}{
		// p_true: 1 (answer 1, p_one 1), 0.75 (answer 0, p_one 0.25): mean 1.75/2.
		{"one of each", []bool{true, false}, []float64{1, 0.25}, 0.875, 1, 1, 0.75, 0.75},
		// p_true 0.5, 0.25 (answer 1): mean 0.375; no answer-0 dataset: specificity 1.
		{"answer 1 only", []bool{true, true}, []float64{0.5, 0.25}, 0.375, 0, 0.375, 1, 0.25},
		// p_true 1 and 1 (answer 0 with p_one 0): both truthful.
		{"both truthful", []bool{false, false}, []float64{0, 0}, 1, 2, 1, 1, 1},
		{"none", nil, nil, 0, 0, 1, 1, 1},
	} {
		st := StatsOf(tc.answer, tc.pone, nil)
		c := st.Classes()
		if st.Datasets() != len(tc.pone) || st.Mean() != tc.mean || st.Truthful() != tc.truthful ||
			c.Sensitivity != tc.sens || c.Specificity != tc.spec || c.MinPTrue != tc.min {
			t.Errorf("%s: %d datasets, mean %v, truthful %d, sensitivity %v, specificity %v, min %v; want %d, %v, %d, %v, %v, %v",
				tc.name, st.Datasets(), st.Mean(), st.Truthful(), c.Sensitivity, c.Specificity, c.MinPTrue,
				len(tc.pone), tc.mean, tc.truthful, tc.sens, tc.spec, tc.min)
		}
	}
}

// Adding datasets one by one in position order gives StatsOf's sums to the bit (the
// Beam launcher adds shard by shard; a run adds the whole mechanism).
func TestStatsAddInOrder(t *testing.T) {
	answer := []bool{true, false, true, true, false, false, true}
	pone := []float64{0.1, 0.7, 1.0 / 3, 0.9, 0.2, 0.6, 2.0 / 3}
	whole := StatsOf(answer, pone, nil)
	var parts Stats
	for _, shard := range [][2]int{{0, 3}, {3, 4}, {4, 7}} {
		for v := shard[0]; v < shard[1]; v++ {
			pt := 1 - pone[v]
			if answer[v] {
				pt = pone[v]
			}
			parts.Add(answer[v], pone[v], pt)
		}
	}
	if parts.Mean() != whole.Mean() || parts.Classes() != whole.Classes() || parts.Truthful() != whole.Truthful() {
		t.Fatalf("shard by shard %+v, whole %+v", parts, *whole)
	}
}
