package bfs

import "github.com/graphdp/graphdp/dp"

// Pair is a suitable pair (L, U) of the paper (docs/DESIGN.md §2) on p_one = Pr[M = 1]:
// if a vertex has p_one = a, a neighbour's p_one must lie in [Lower(a), Upper(a)].
// Upper must be non-decreasing with Upper(a) ≥ a, Lower non-decreasing with
// Lower(a) ≤ a, and the relation symmetric: b ∈ [Lower(a), Upper(a)] ⟺
// a ∈ [Lower(b), Upper(b)]. That interval is the audit of an edge (verify.go); Excess
// only reports how far a pair of values is from it.
type Pair interface {
	Upper(a float64) float64
	Lower(a float64) float64
	// Excess is how far two neighbours' p_one values x, y are from satisfying output
	// one's two inequalities (Pr[M = 1] for true, Pr[M = 0] = 1 − p_one for false):
	// ≤ 0 when they hold, the larger violation otherwise.
	Excess(x, y float64, one bool) float64
}

// DP is the (ε,δ)-differential-privacy pair, the one the CLI exposes, in certified
// arithmetic (package dp: every bound is the exact real bound rounded in the safe
// direction, for the true e^ε).
type DP = dp.Pair

// NewDP validates ε and δ (dp.New).
func NewDP(epsilon, delta float64) (DP, error) { return dp.New(epsilon, delta) }

// Iterate is U^d(a), the bound a vertex at distance d imposes, by d applications of U
// (stopping early once it reaches 1): the exact sequence every engine computes, each
// step rounded down from the real U.
func Iterate(p Pair, d int, a float64) float64 {
	for i := 0; i < d && a < 1; i++ {
		a = p.Upper(a)
	}
	return a
}
