package optimize

import (
	"fmt"
	"math"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"

	"github.com/graphdp/graphdp/internal/words"
)

// Objective is the utility Optimize maximises (docs/OPTIMIZE.md, "Objectives").
type Objective string

const (
	// Accuracy is the expected accuracy Σ w(v)·p_true(v) with the weights as given.
	// With uniform weights and a rare answer its optimum can be a constant answer
	// (OPTIMIZE.md, "Objectives: which one to pick"): every dataset of the common
	// answer right, the others wrong.
	Accuracy Objective = "accuracy"
	// Balanced weighs each answer the same in total: w'(v) = w(v)/(2·W_c), W_c the
	// total weight of v's answer c, so the utility is the mean of the two classes'
	// weighted mean p_true (with uniform weights: the balanced accuracy, the mean of
	// sensitivity and specificity). A class of total weight 0 drops out: the other
	// one's weights are divided by its total alone. The default.
	Balanced Objective = "balanced"
	// Worst maximises the smallest p_true over every dataset (weights do not enter
	// the minimum: a weight scales a dataset's share of a sum, and a dataset of weight
	// 0 is still answered); among the mechanisms that attain it, Optimize returns the
	// best one for the balanced utility. With a boundary edge and no floor above it,
	// the maximum is the balanced α (the paper's corollary; Worst.Upper certifies it).
	Worst Objective = "worst"
)

// DefaultObjective is what the command line uses when none is asked for: balanced,
// because the expected accuracy can return a constant answer (Accuracy).
const DefaultObjective = Balanced

// Objectives lists the objectives, for flags and messages.
var Objectives = []Objective{Accuracy, Balanced, Worst}

// effectiveWeights is the objective's w'(v) (Objective's definitions); Worst uses the
// balanced weights for its tie-break. The class totals are float64 sums in position
// order, so w' is a float64 vector and the certificate is exact for it.
func effectiveWeights(p *Problem, obj Objective) []float64 {
	if obj == Accuracy || obj == "" {
		return p.Weight
	}
	var total [2]float64
	for v, w := range p.Weight {
		total[words.Bit(p.Answer[v])] += w
	}
	var scale [2]float64
	for c := range 2 {
		switch {
		case total[c] == 0:
		case total[1-c] == 0:
			scale[c] = total[c]
		default:
			scale[c] = 2 * total[c]
		}
	}
	out := make([]float64, len(p.Weight))
	for v, w := range p.Weight {
		if s := scale[words.Bit(p.Answer[v])]; s > 0 {
			out[v] = w / s
		}
	}
	return out
}

// Floors are lower bounds on p_true: Floor[1] for every answer-1 dataset, Floor[0]
// for every answer-0 dataset (0: none). In p_one they are boxes: answer 1 in
// [Floor[1], 1], answer 0 in [0, 1 − Floor[0]], and a float64 p_one meets the
// answer-0 floor exactly when p_one ≤ RD(1 − Floor[0]) (p_true = 1 − p_one is the
// real number, docs/DESIGN.md §5).
type Floors [2]float64

// RandomizedFloor is the default floor of every answer (Options.Explicit): the
// p_true of randomized response, the pair's balanced value α (dp.Pair.Balanced:
// (e^ε + δ)/(e^ε + 1) rounded down for (ε,δ), RD(Φ(μ/2)) for μ-GDP, the fixed point
// of α = U*(1 − α) for profiles and curves). It is always met: with floors α on both
// answers every boundary dataset is forced to α (Worst's certificate) and the
// balanced α on the hitting set, extended, meets them.
func RandomizedFloor(pair dp.Pair) float64 { return pair.Balanced() }

// FloorsFor is the floors Optimize keeps for pair: opt.Floors, each answer not
// Explicit raised to RandomizedFloor (before Worst raises both to its own).
func (opt Options) FloorsFor(pair dp.Pair) Floors { return opt.floors(pair) }

// floors is opt's floors with the default: each answer not Explicit raised to
// RandomizedFloor.
func (opt Options) floors(pair dp.Pair) Floors {
	f, rr := opt.Floors, RandomizedFloor(pair)
	for c := range 2 {
		if !opt.Explicit[c] {
			f[c] = max(f[c], rr)
		}
	}
	return f
}

// any reports whether a floor is set.
func (f Floors) any() bool { return f[0] > 0 || f[1] > 0 }

// hi0 is the largest float64 p_one an answer-0 dataset may have: RD(1 − Floor[0]).
func (f Floors) hi0() float64 { return subDown(1, f[0]) }

// hi0Up is RU(1 − Floor[0]): the real box's end rounded outward, for the certificate.
func (f Floors) hi0Up() float64 { return addUp(1, -f[0]) }

// subDown is a − b rounded down.
func subDown(a, b float64) float64 { return addDown(a, -b) }

// meets reports whether a mechanism (p_one) meets the floors exactly.
func (f Floors) meets(answer []bool, pone []float64) bool {
	if !f.any() {
		return true
	}
	hi := f.hi0()
	for v, x := range pone {
		if answer[v] && x < f[1] || !answer[v] && x > hi {
			return false
		}
	}
	return true
}

// floorsFeasible decides exactly whether some float64 (ε,δ)-DP mechanism meets the
// floors. Datasets of different answers joined by a path are joined by a boundary
// edge, so without one every floor ≤ 1 is met (the truthful answer is constant on
// each component). With one, u (answer 1) ~ v (answer 0): p_one(u) ≥ Floor[1],
// p_one(v) ≤ RD(1 − Floor[0]), and p_one(u) ≤ Upper(p_one(v)) (dp invariant 1, the
// largest float64 allowed next to it) force Floor[1] ≤ Upper(RD(1 − Floor[0])); and
// then answer 1 ↦ Upper(h), answer 0 ↦ h = RD(1 − Floor[0]) is a DP mechanism meeting
// them (the pair is allowed; pairs of one answer are equal).
func floorsFeasible(pair dp.Pair, boundary bool, f Floors) bool {
	if !(f[0] >= 0 && f[0] <= 1 && f[1] >= 0 && f[1] <= 1) {
		return false
	}
	return !boundary || f[1] <= pair.Upper(f.hi0())
}

// FloorError refuses floors no DP mechanism meets, with the largest ones that are met.
type FloorError struct {
	Asked  Floors
	Common float64 // the largest floor for both answers at once
	Max0   float64 // the largest answer-0 floor with the asked answer-1 floor
	Max1   float64 // the largest answer-1 floor with the asked answer-0 floor
}

func (e *FloorError) Error() string {
	return fmt.Sprintf("no (ε,δ)-DP mechanism gives every answer-1 dataset p_true ≥ %v and every answer-0 dataset p_true ≥ %v "+
		"(a boundary edge joins datasets of both answers, and DP bounds one end by the other); the largest floor for both answers is %v; "+
		"with answer-1 floor %v the largest answer-0 floor is %v; with answer-0 floor %v the largest answer-1 floor is %v",
		e.Asked[1], e.Asked[0], e.Common, e.Asked[1], e.Max0, e.Asked[0], e.Max1)
}

// floorError computes the largest feasible floors for a refusal.
func floorError(pair dp.Pair, f Floors) *FloorError {
	e := &FloorError{Asked: f}
	e.Common = dp.LargestFloat(0.5, func(t float64) bool { return floorsFeasible(pair, true, Floors{t, t}) })
	e.Max0 = dp.LargestFloat(0, func(t float64) bool { return floorsFeasible(pair, true, Floors{t, f[1]}) })
	e.Max1 = pair.Upper(f.hi0())
	return e
}

// WorstCase is the Worst objective's certificate: no (ε,δ)-DP mechanism meeting the
// asked floors has min p_true ≥ Upper, and the written one has min p_true = Lower.
type WorstCase struct {
	Lower float64 `json:"min_p_true"`           // the written mechanism's smallest p_true
	Upper float64 `json:"max_min_p_true_bound"` // certified: every DP mechanism's min p_true is below it
	Floor float64 `json:"floor"`                // the largest common floor t met by a float64 mechanism
	Alpha float64 `json:"balanced_alpha"`       // (e^ε+δ)/(e^ε+1) rounded down, for comparison
	Edge  bool    `json:"boundary_edge"`        // whether a boundary edge bounds it
}

// worstFloor is Worst's floor: the largest float64 t with floors max(t, asked) met
// by a float64 DP mechanism, and a certified upper bound on the real maximum of min
// p_true: the smallest float64 t' at which even the outward-rounded condition
// max(t', f1) ≤ Upper(RU(1 − max(t', f0))) fails (U is non-decreasing, and for a
// float64 b, b ≤ U*(x) ⟺ b ≤ RD(U*(x))), so every mechanism's min p_true is < t'.
// With a boundary edge and no floor above it the condition is t ≤ U*(1 − t), which
// holds exactly for t ≤ α = (e^ε+δ)/(e^ε+1) (both branches of U* give it; the
// paper's balanced corollary), so the floor is RD(α) = dp.Pair.Balanced().
func worstFloor(pair dp.Pair, boundary bool, asked Floors) (floor, upper float64) {
	if !boundary {
		return 1, 1
	}
	ok := func(t float64) bool {
		return floorsFeasible(pair, true, Floors{max(t, asked[0]), max(t, asked[1])})
	}
	floor = dp.LargestFloat(0, ok)
	pess := func(t float64) bool {
		a, b := max(t, asked[0]), max(t, asked[1])
		return b <= pair.Upper(addUp(1, -a))
	}
	upper = 1
	if !pess(1) {
		// pess(floor) holds (it is weaker than ok); bisect for its last float64.
		upper = math.Nextafter(dp.LargestFloat(floor, pess), 2)
	}
	return floor, upper
}

// hasBoundary reports whether some edge joins datasets of different answers.
func hasBoundary(g *graph.Graph, answer []bool) bool {
	for u := range g.N() {
		for _, v := range g.Neighbours(int32(u)) {
			if answer[u] != answer[v] {
				return true
			}
		}
	}
	return false
}
