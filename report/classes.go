package report

import "github.com/graphdp/graphdp/check"

// The per-answer figures live beside the audit (check.Stats, check/stats.go), computed
// once for run, Beam and report; report names them for its readers.

// Classes is a mechanism's accuracy per true answer (check.Classes).
type Classes = check.Classes

// Class is one answer's datasets (check.Class).
type Class = check.Class

// PoorMean is check.PoorMean: a class served worse than by a coin.
const PoorMean = check.PoorMean

// ClassesOf tallies a whole mechanism (check.StatsOf).
func ClassesOf(answer []bool, pone, ptrue []float64) Classes {
	return check.StatsOf(answer, pone, ptrue).Classes()
}

// FixByOptimize is the fix to name where a mechanism was made from given
// hitting-set values (run, report): optimize chooses values for both answers.
const FixByOptimize = "fix: graphdp optimize (its default --objective balanced weighs both answers the same; --min-accuracy t puts a floor under every dataset's p_true) chooses hitting-set values that serve both answers"
