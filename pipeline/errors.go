package pipeline

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"

	"github.com/graphdp/graphdp/internal/words"
)

// RejectError is input that was read correctly but admits no mechanism: the hitting
// set misses boundary edges, or its values admit no DP extension; or whose mechanism
// may not be written: datasets not private, or more deterministic than the job allows
// (exit status 3).
type RejectError struct {
	File  string   // the file the rejection is about (the hitting set; the edges; the mechanism)
	Kind  string   // "not-hitting-set", "infeasible", "not-private", "deterministic", "not-audited" or "over-budget"
	Total int64    // how many in all, when the message may say it (0 for not-hitting-set and infeasible: shareable)
	Head  string   // one-line statement
	Lines []string // the first ones, listed
}

func (e *RejectError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", e.File, e.Head)
	for _, l := range e.Lines {
		b.WriteString("\n  ")
		b.WriteString(l)
	}
	if n := e.Total - int64(len(e.Lines)); n > 0 {
		fmt.Fprintf(&b, "\n  … and %d more", n)
	}
	return b.String()
}

// notHittingSetError is the rejection of a set that misses boundary edges (every runner
// words it the same). It is shareable (docs/FORMATS.md, "Private and shareable
// outputs"): which edges are boundary edges depends on the answers, so it gives
// neither their number nor which ones (the summary, which is private, counts them).
func notHittingSetError(file string) *RejectError {
	return &RejectError{File: file, Kind: "not-hitting-set",
		Head:  "not a boundary-hitting set: an edge with neither end in it joins datasets with different answers; nothing written",
		Lines: []string{"hint: graphdp hitting-set writes a minimum boundary-hitting set"}}
}

// Conflict is a pair of hitting-set values that admits no DP extension, by id
// (bfs.Violation): Pr[M(H) = Output] = Given exceeds Bound = U^Dist(ByValue), where
// ByValue = Pr[M(By) = Output]. AnsH and AnsBy are the two datasets' answers, so that
// the message speaks of the p_true the user gave.
type Conflict struct {
	Output                bool
	H, By                 string
	AnsH, AnsBy           bool
	Dist                  int32
	Given, ByValue, Bound float64
}

// infeasiblePair is the rejection of conflicting hitting-set values (the paper's
// feasibility lemma, docs/DESIGN.md §3.3), worded the same by every runner. It is
// shareable (docs/FORMATS.md, "Private and shareable outputs"): it speaks of the
// public graph and the hitting set's p_true values only. A conflict's bound, and
// whether it is an upper or a lower one, says whether its two datasets share an
// answer, so neither is printed; nor is the number of conflicts. The pairs listed
// are unordered (the two datasets by id), each once, in id order. Probabilities have
// 9 significant digits.
func infeasiblePair(file string, pair dp.Pair, first []Conflict) *RejectError {
	under := fmt.Sprintf("(ε,δ)-DP mechanism (ε=%v, δ=%v)", pair.Epsilon, pair.Delta)
	if pair.Framework() != dp.EpsilonDelta {
		under = "mechanism satisfying " + pair.String()
	}
	e := &RejectError{File: file, Kind: "infeasible",
		Head: fmt.Sprintf("no %s has these p_true values: hitting-set datasets conflict (tolerance %g); nothing written", under, bfs.Tolerance)}
	type side struct {
		id    string
		ptrue float64
	}
	type pairOf struct {
		a, b side
		dist int32
	}
	var pairs []pairOf
	for _, c := range first {
		// p_true is Pr[M = answer]: the conflicting output is the answer's or the other one.
		ptrue := func(prob float64, ans bool) float64 {
			if ans == c.Output {
				return prob
			}
			return 1 - prob
		}
		x, y := side{c.H, ptrue(c.Given, c.AnsH)}, side{c.By, ptrue(c.ByValue, c.AnsBy)}
		if y.id < x.id {
			x, y = y, x
		}
		pairs = append(pairs, pairOf{x, y, c.Dist})
	}
	slices.SortFunc(pairs, func(p, q pairOf) int {
		return cmp.Or(strings.Compare(p.a.id, q.a.id), strings.Compare(p.b.id, q.b.id))
	})
	pairs = slices.CompactFunc(pairs, func(p, q pairOf) bool { return p.a.id == q.a.id && p.b.id == q.b.id })
	for _, p := range pairs {
		if p.a.id == p.b.id { // bfs.Pass.TailViolation: one dataset, its neighbours unnamed
			e.Lines = append(e.Lines, fmt.Sprintf("dataset %s (p_true %s): no float64 mechanism holds this value exactly next to its neighbours",
				words.Quote(p.a.id), sig9(p.a.ptrue)))
			continue
		}
		e.Lines = append(e.Lines, fmt.Sprintf("datasets %s (p_true %s) and %s (p_true %s), %s apart",
			words.Quote(p.a.id), sig9(p.a.ptrue), words.Quote(p.b.id), sig9(p.b.ptrue), words.Count(int64(p.dist), "hop", "hops")))
	}
	e.Lines = append(e.Lines, fmt.Sprintf("hint: p_true = the balanced α = %s on every hitting-set dataset is always feasible (graphdp hitting-set --balanced)", sig9(pair.Balanced())))
	return e
}

// sig9 writes a probability with 9 significant digits. Rounding moves a value below
// 1 by at most 5e-10, inside bfs.Tolerance: a printed value, given as is, is accepted.
func sig9(x float64) string { return strconv.FormatFloat(x, 'g', 9, 64) }
