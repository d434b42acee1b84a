package bfs

// Tolerance is how far (in probability) a given hitting-set value may exceed the bound
// its fellow hitting-set vertices impose and still be accepted (docs/DESIGN.md §8.2):
// inputs exactly on the edge of feasibility, like the balanced α of the paper's corollary,
// survive float rounding, while a real violation of 1e-7 is still rejected. An
// accepted value above its bound is lowered to the bound in the output, so the
// written mechanism stays exactly (ε,δ)-DP (doc.go, invariant 4).
const Tolerance = 1e-9

// Edge is an undirected edge by vertex positions.
type Edge struct{ U, V int32 }

// HitCheck is the one-pass check that a set hits every boundary edge.
type HitCheck struct {
	Boundary  int64  // edges whose ends answer differently
	Uncovered int64  // boundary edges with neither end in the set
	First     []Edge // the first uncovered ones in CSR order (U < V)
}

// CheckHitting scans every edge once; hitIndex[v] ≥ 0 marks set members. Vertex
// ranges are scanned in parallel and merged in CSR order (the same result as one pass).
func CheckHitting(g *Graph, answer []bool, hitIndex []int32, limit int) HitCheck {
	parts := vertexRanges(g, workersFor(len(g.Adj)))
	res := make([]HitCheck, len(parts))
	parallel(len(parts), len(parts), func(k, _, _ int) {
		res[k] = checkHittingRange(g, answer, hitIndex, limit, parts[k])
	})
	var hc HitCheck
	for _, r := range res {
		hc.Boundary += r.Boundary
		hc.Uncovered += r.Uncovered
		for _, e := range r.First {
			if len(hc.First) < limit {
				hc.First = append(hc.First, e)
			}
		}
	}
	return hc
}

func checkHittingRange(g *Graph, answer []bool, hitIndex []int32, limit int, r [2]int32) HitCheck {
	var hc HitCheck
	for u := r[0]; u < r[1]; u++ {
		au := answer[u]
		for _, v := range above(g, u) {
			if au == answer[v] {
				continue
			}
			hc.Boundary++
			if hitIndex[u] < 0 && hitIndex[v] < 0 {
				hc.Uncovered++
				if len(hc.First) < limit {
					hc.First = append(hc.First, Edge{u, v})
				}
			}
		}
	}
	return hc
}

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
			a := c.value(in.POne(i))
			g := f[ci].Value[h]
			if g >= a-tol {
				continue
			}
			total++
			if len(first) < limit {
				by := f[ci].Bind[h]
				first = append(first, Violation{
					Output: one, H: h, By: by, Dist: f[ci].Dist[h],
					Given: c.Prob(a), ByValue: c.Prob(c.value(in.POne(int(hitIndex[by])))), Bound: c.Prob(g),
				})
			}
		}
	}
	return first, total
}
