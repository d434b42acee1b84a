package bfs

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

// Violations decides feasibility from the two colour fields (the paper's feasibility
// lemma in the form of docs/DESIGN.md §3.3: an extension exists iff g_c(h) = a_c(h) on
// the hitting set), listing the first `limit` violations
// in hitting-set order (output 0 before output 1) and counting all of them.
func Violations(in *Instance, f [2]*Field, limit int) ([]Violation, int) {
	return violations(in, f, limit, Tolerance)
}

func violations(in *Instance, f [2]*Field, limit int, tol float64) ([]Violation, int) {
	hitIndex := in.HitIndex()
	var first []Violation
	total := 0
	for ci, one := range []bool{false, true} {
		c := colour{one, in.Pair}
		for i, h := range in.Hit {
			g := f[ci].Value[h]
			if !c.beyond(in.POne(i), g, tol) {
				continue
			}
			total++
			if len(first) < limit {
				by := f[ci].Bind[h]
				first = append(first, c.violation(h, in.POne(i), Cand{Value: g, A: c.value(in.POne(int(hitIndex[by]))), Bind: by, Dist: f[ci].Dist[h]}))
			}
		}
	}
	return first, total
}

// The rules for one hitting-set vertex in one colour, given its value pone (p_one) and
// the colour's converged field g there: Violations and Solve over a whole instance,
// a cluster runner's shards (through Pass) over theirs.

// beyond is the feasibility rule: g lies more than tol below the vertex's own value.
func (c colour) beyond(pone, g, tol float64) bool { return g < c.value(pone)-tol }

// violation describes a vertex h beyond its bound, from its candidate (its field value,
// binding vertex, distance and the binding vertex's value A).
func (c colour) violation(h int32, pone float64, cand Cand) Violation {
	return Violation{Output: c.one, H: h, By: cand.Bind, Dist: cand.Dist,
		Given: c.Prob(c.value(pone)), ByValue: c.Prob(cand.A), Bound: c.Prob(cand.Value)}
}

// repaired is Solve's repair of one value: the bound g as a p_one when the value lies
// above it (ok), else pone.
func (c colour) repaired(pone, g float64) (float64, bool) {
	if g < c.value(pone) {
		return c.value(g), true
	}
	return pone, false
}

// RepairKept is Solve's acceptance of a repair (docs/DESIGN.md §8.2): the solved
// values are exactly consistent (above: none lies above its bound) and each within
// Tolerance of the given one (maxMove, in p_one). Otherwise the input is rejected
// with the first solve's violations at tolerance 0 (Solution.RepairFailed).
func RepairKept(above bool, maxMove float64) bool { return !above && maxMove <= Tolerance }

// Beyond is Violations' rule for one hitting-set vertex with value pone whose field is
// g: a violation when g lies more than tol below the value (Violations: Tolerance; a
// failed repair: 0).
func (p Pass) Beyond(pone, g, tol float64) bool { return p.c.beyond(pone, g, tol) }

// Violation is Violations' description of hitting-set vertex h with value pone and
// candidate cand (Beyond).
func (p Pass) Violation(h int32, pone float64, cand Cand) Violation {
	return p.c.violation(h, pone, cand)
}

// Repaired is Solve's repair of one hitting-set value pone whose field is g: the bound
// (as a p_one) when the value lies above it, with ok; else pone.
func (p Pass) Repaired(pone, g float64) (v float64, ok bool) { return p.c.repaired(pone, g) }
