package bfs

import "github.com/graphdp/graphdp/dp"

// Tolerance is how far (in probability) a given hitting-set value may exceed the bound
// its fellow hitting-set vertices impose and still be accepted (docs/DESIGN.md §8.2):
// inputs exactly on the edge of feasibility, like the balanced α of the paper's corollary,
// survive float rounding, while a real violation of 1e-7 is still rejected. An
// accepted value above its bound is lowered to the bound in the output, so the
// written mechanism stays exactly (ε,δ)-DP (doc.go, invariant 4).
const Tolerance = 1e-9

// Violation is a pair of hitting-set vertices whose given values admit no DP extension
// (the paper's feasibility lemma, docs/DESIGN.md §3.3): Pr[M(H) = Output] = Given
// exceeds the bound U^Dist(Pr[M(By) = Output]) = Bound that By imposes over Dist hops.
type Violation struct {
	Output  bool // the output j whose probabilities conflict
	H, By   int32
	Dist    int32
	Given   float64
	ByValue float64
	Bound   float64
}

// Violations decides feasibility from the two passes' fields (the paper's feasibility
// lemma in the form of docs/DESIGN.md §3.3: an extension exists iff g_c(h) = a_c(h) on
// the hitting set), listing the first `limit` violations
// in hitting-set order (output 0 before output 1) and counting all of them.
func Violations(in *Instance, f [2]*Field, limit int) ([]Violation, int) {
	return violations(in, f, limit, Tolerance, true)
}

// violations is Violations at tolerance tol; beyond: check the values against their
// bounds (Pass.Beyond), which a kept repair makes exact. The hitting set's tails are
// checked on their edges always (Pass.TailViolation).
func violations(in *Instance, f [2]*Field, limit int, tol float64, beyond bool) ([]Violation, int) {
	var hitIndex []int32 // made for the first violation listed: most inputs have none
	var first []Violation
	total := 0
	for ci, one := range []bool{false, true} {
		c := NewPass(in.Pair, one)
		for i, h := range in.Hit {
			g := f[ci].Value[h]
			if !beyond || !c.Beyond(in.HitValue(i), g, tol) {
				if v, bad := tailViolation(c, in, f, h, in.HitValue(i)); bad {
					if total++; len(first) < limit {
						first = append(first, v)
					}
				}
				continue
			}
			total++
			if len(first) < limit {
				by := f[ci].Bind[h]
				if hitIndex == nil {
					hitIndex = in.HitIndex()
				}
				first = append(first, c.Violation(h, in.HitValue(i), Cand{Value: g, A: c.Seed(in.HitValue(int(hitIndex[by]))), Bind: by, Dist: f[ci].Dist[h]}))
			}
		}
	}
	return first, total
}

// tailViolation is Pass.TailViolation at hitting-set vertex h on its edges, in
// adjacency order: the first neighbour that does not allow it.
func tailViolation(c Pass, in *Instance, f [2]*Field, h int32, hv float64) (Violation, bool) {
	if !c.one || !dp.Tail(hv) {
		return Violation{}, false
	}
	for _, u := range in.G.Neighbours(h) {
		if v, bad := c.TailViolation(h, hv, u, OutputExact(in.Answer[u], f[0].Value[u], f[1].Value[u])); bad {
			return v, true
		}
	}
	return Violation{}, false
}

// RepairKept is Solve's acceptance of a repair (docs/DESIGN.md §8.2): the solved
// values are exactly consistent (above: none lies above its bound) and each within
// Tolerance of the given one (maxMove, in p_one). Otherwise the input is rejected
// with the first solve's violations at tolerance 0 (Solution.RepairFailed).
func RepairKept(above bool, maxMove float64) bool { return !above && maxMove <= Tolerance }
