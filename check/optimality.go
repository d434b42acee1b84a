package check

import (
	"math"

	"github.com/graphdp/graphdp/dp"
)

// Optimality is how a mechanism compares with a hitting set and with the optimal
// extension of its values (graphdp verify -hitting-set): the paper's main theorem
// (docs/DESIGN.md §3.2) says no DP mechanism agreeing with the hitting set
// is above the optimum anywhere, and the optimum is the one that is nowhere below.
type Optimality struct {
	Disagree      int        // hitting-set vertices whose p_true is off the given one by more than tol
	FirstDisagree []Mismatch // the first `limit` of them, in hitting-set order (Want: the given p_true)
	Equal         int        // other vertices exactly at the optimum
	Close         int        // other vertices within tol of it
	Below         int        // other vertices below it by more than tol: not optimal
	FirstBelow    []Mismatch // the first `limit`, by position (Want: the optimum)
	Above         int        // other vertices above it by more than tol: impossible for a DP extension
	FirstAbove    []Mismatch
	Shortfall     float64 // the largest shortfall below the optimum (0 when none is below)
}

// Mismatch is one vertex whose p_true Got differs from the one it is compared with.
type Mismatch struct {
	V         int32
	Got, Want float64
}

// Failed reports whether the comparison found anything wrong.
func (o *Optimality) Failed() bool { return o.Disagree+o.Below+o.Above > 0 }

// CompareOptimal compares the mechanism exact (exact values per vertex, dp.ExactValue; answer per vertex)
// with the hitting set (hit, its given p_true values hitPTrue) and, outside it, with
// the optimal extension's p_true (opt, per vertex). Differences of at most tol count
// as agreement; the first `limit` findings of each kind are listed in order.
func CompareOptimal(answer []bool, exact []float64, hit []int32, hitPTrue, opt []float64, tol float64, limit int) Optimality {
	var o Optimality
	inH := make([]bool, len(answer))
	for i, h := range hit {
		inH[h] = true
		if got := ptrue(answer[h], exact[h]); math.Abs(got-hitPTrue[i]) > tol {
			o.Disagree++
			if len(o.FirstDisagree) < limit {
				o.FirstDisagree = append(o.FirstDisagree, Mismatch{h, got, hitPTrue[i]})
			}
		}
	}
	for v := range answer {
		if inH[v] {
			continue
		}
		got := ptrue(answer[v], exact[v])
		d := got - opt[v]
		switch {
		case d == 0:
			o.Equal++
		case math.Abs(d) <= tol:
			o.Close++
		case d < 0:
			o.Below++
			o.Shortfall = max(o.Shortfall, -d)
			if len(o.FirstBelow) < limit {
				o.FirstBelow = append(o.FirstBelow, Mismatch{int32(v), got, opt[v]})
			}
		default:
			o.Above++
			if len(o.FirstAbove) < limit {
				o.FirstAbove = append(o.FirstAbove, Mismatch{int32(v), got, opt[v]})
			}
		}
	}
	return o
}

// ptrue is Pr[M = answer] of a vertex whose exact value is v, as written (exact where
// it can be: dp.ExactColumns).
func ptrue(answer bool, v float64) float64 {
	_, pt := dp.ExactColumns(answer, v)
	return pt
}
