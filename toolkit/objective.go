package toolkit

import "github.com/graphdp/graphdp/optimize"

// objectiveOr is the objective asked for, or optimize's default when none was.
func objectiveOr(obj optimize.Objective) optimize.Objective {
	if obj == "" {
		return optimize.DefaultObjective
	}
	return obj
}
