package check

import (
	"fmt"

	"github.com/graphdp/graphdp/internal/words"
)

// Stats are the figures a run, a Beam run and a report give of a mechanism: the mean
// p_true over all datasets, how many are answered truthfully (p_true = 1), and the
// per-answer Classes. Add datasets in position order: the float sums are then the
// same wherever they are made (a local run and a Beam run agree to the bit:
// invariant 6).
type Stats struct {
	datasets, truthful int
	sumAll             float64 // over all datasets, in the order added
	n                  [2]int  // per true answer
	sum, min           [2]float64
	pmin, pmax         float64
}

// Add counts one dataset: its true answer, p_one and p_true.
func (s *Stats) Add(answer bool, pone, ptrue float64) {
	c := 0
	if answer {
		c = 1
	}
	if s.datasets == 0 {
		s.pmin, s.pmax = pone, pone
	}
	s.datasets++
	s.sumAll += ptrue
	if ptrue == 1 {
		s.truthful++
	}
	if s.n[c] == 0 || ptrue < s.min[c] {
		s.min[c] = ptrue
	}
	s.n[c]++
	s.sum[c] += ptrue
	s.pmin, s.pmax = min(s.pmin, pone), max(s.pmax, pone)
}

// StatsOf adds a whole mechanism (p_true derived from p_one and the answer where
// ptrue is nil).
func StatsOf(answer []bool, pone, ptrue []float64) *Stats {
	var s Stats
	for v, p := range pone {
		pt := 1 - p
		if ptrue != nil {
			pt = ptrue[v]
		} else if answer[v] {
			pt = p
		}
		s.Add(answer[v], p, pt)
	}
	return &s
}

// Datasets is how many datasets were added.
func (s *Stats) Datasets() int { return s.datasets }

// Mean is the mean p_true over all datasets (0 when there are none).
func (s *Stats) Mean() float64 {
	if s.datasets == 0 {
		return 0
	}
	return s.sumAll / float64(s.datasets)
}

// Truthful is how many datasets have p_true = 1.
func (s *Stats) Truthful() int { return s.truthful }

// Classes is a mechanism's accuracy per true answer, the figures people choose a
// mechanism by (TOOLKIT.md, "graphdp report — explain a mechanism"): the mean p_true of
// the answer-1 datasets (the sensitivity of the released answer: Pr[M = 1] averaged
// over the datasets whose answer is 1), the mean p_true of the answer-0 datasets (its
// specificity), their mean (the balanced accuracy) and the smallest p_true of all.
// Every mean is over datasets, unweighted. A class with no datasets has Mean and Min 1
// (there is nothing to get wrong), and then the balanced accuracy is the other class's
// mean.
type Classes struct {
	Sensitivity float64 `json:"sensitivity"`       // Answer1.Mean
	Specificity float64 `json:"specificity"`       // Answer0.Mean
	Balanced    float64 `json:"balanced_accuracy"` // (sensitivity + specificity)/2
	MinPTrue    float64 `json:"min_p_true"`
	Answer1     Class   `json:"answer_1"`
	Answer0     Class   `json:"answer_0"`
	// POneRange is max p_one − min p_one over all datasets: 0 for a mechanism whose
	// answer does not depend on the data at all (Constant).
	POneRange float64 `json:"p_one_range"`
}

// Class is one answer's datasets: how many, and their mean and smallest p_true.
type Class struct {
	Datasets int     `json:"datasets"`
	Mean     float64 `json:"mean_p_true"`
	Min      float64 `json:"min_p_true"`
}

// Classes is the per-answer figures of the datasets added.
func (s *Stats) Classes() Classes {
	cl := func(c int) Class {
		if s.n[c] == 0 {
			return Class{Mean: 1, Min: 1}
		}
		return Class{Datasets: s.n[c], Mean: s.sum[c] / float64(s.n[c]), Min: s.min[c]}
	}
	r := Classes{Answer1: cl(1), Answer0: cl(0), POneRange: s.pmax - s.pmin}
	r.Sensitivity, r.Specificity = r.Answer1.Mean, r.Answer0.Mean
	switch {
	case s.n[1] == 0:
		r.Balanced = r.Specificity
	case s.n[0] == 0:
		r.Balanced = r.Sensitivity
	default:
		r.Balanced = (r.Sensitivity + r.Specificity) / 2
	}
	r.MinPTrue = min(r.Answer1.Min, r.Answer0.Min)
	return r
}

// Line states the figures in one line for people.
func (c Classes) Line() string {
	return fmt.Sprintf("answer-1 datasets: mean p_true %.6g (sensitivity, %s); answer-0: %.6g (specificity, %d); balanced accuracy %.6g; min p_true %.6g",
		c.Sensitivity, words.Count(int64(c.Answer1.Datasets), "dataset", "datasets"), c.Specificity, c.Answer0.Datasets, c.Balanced, c.MinPTrue)
}

// A mechanism is degenerate (Classes.Warnings) when one answer's datasets are more
// often wrong than right on average, or when its answer hardly depends on the data.
const (
	PoorMean       = 0.5  // a class whose mean p_true is below this is served worse than by a coin
	ConstantWithin = 1e-6 // p_one varying by at most this over all datasets is a constant answer
)

// Warnings states in plain words what makes the mechanism degenerate, one line each
// (nil when nothing does): an answer within ConstantWithin of constant while both
// answers occur (one of them is then mostly wrong: p_true = c on one, 1 − c on the
// other), and each answer whose mean p_true is below PoorMean. Callers add the
// option that fixes it.
func (c Classes) Warnings() []string {
	var out []string
	if c.Answer0.Datasets > 0 && c.Answer1.Datasets > 0 && c.POneRange <= ConstantWithin {
		out = append(out, fmt.Sprintf("WARNING: the mechanism is a constant answer to within %g (p_one varies by %.3g over all datasets): the released answer says nothing about the data", ConstantWithin, c.POneRange))
	}
	for _, x := range []struct {
		name string
		c    Class
	}{{"answer-1", c.Answer1}, {"answer-0", c.Answer0}} {
		if x.c.Datasets > 0 && x.c.Mean < PoorMean {
			what := fmt.Sprintf("the %d %s datasets get", x.c.Datasets, x.name)
			if x.c.Datasets == 1 {
				what = fmt.Sprintf("the one %s dataset gets", x.name)
			}
			out = append(out, fmt.Sprintf("WARNING: %s mean p_true %.3g < %g: the released answer is wrong for them more often than right", what, x.c.Mean, PoorMean))
		}
	}
	return out
}
