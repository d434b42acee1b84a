package pipeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
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
	// Conflicts are an infeasible rejection's conflicting hitting-set datasets.
	// Which ones conflict depends on the answers, so they are private (docs/FORMATS.md,
	// "Private and shareable outputs"): never in Error(), which is shareable; a
	// command's --json prints them on stdout.
	Conflicts []ConflictPair
}

// ConflictPair is one conflict of an infeasible rejection, by id: two hitting-set
// datasets with their p_true (9 significant digits) and how many hops apart they are, or one (a tail whose
// exact value no float64 mechanism holds next to its neighbours,
// bfs.Pass.TailViolation) with Hops 0.
type ConflictPair struct {
	Datasets []string  `json:"datasets"`
	PTrue    []float64 `json:"p_true"`
	Hops     int32     `json:"hops"`
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
// feasibility lemma, docs/DESIGN.md §3.3), worded the same by every runner. Its text is
// shareable (docs/FORMATS.md, "Private and shareable outputs"): a function of the
// parameters only. Which datasets conflict depends on the answers (a triangle all in
// the hitting set at p_true 0.9, ε = 1: answers 1,1,0 make {a,c} and {b,c} conflict,
// answers 1,0,1 {a,b} and {b,c}), and so does a conflict's bound (an upper or a lower
// one says whether the two share an answer), so the text names neither; the conflicts
// go to Conflicts, each pair once, in id order, without its bound.
func infeasiblePair(file string, pair dp.Pair, first []Conflict) *RejectError {
	under := fmt.Sprintf("(ε,δ)-DP mechanism (ε=%v, δ=%v)", pair.Epsilon, pair.Delta)
	if pair.Framework() != dp.EpsilonDelta {
		under = "mechanism satisfying " + pair.String()
	}
	a := pair.Balanced()
	e := &RejectError{File: file, Kind: "infeasible",
		Head: fmt.Sprintf("no %s has these p_true values: hitting-set datasets conflict (tolerance %g); nothing written", under, bfs.Tolerance),
		Lines: []string{
			fmt.Sprintf("two hitting-set datasets whose p_true are both in [1 − α, α] = [%s, %s] never conflict", sig9(1-a), sig9(a)),
			"which datasets conflict depends on the answers, so it is not said here: --json prints them on stdout (private)",
			fmt.Sprintf("hint: p_true = the balanced α = %s on every hitting-set dataset is always feasible (graphdp hitting-set --balanced)", sig9(a)),
		}}
	for _, c := range first {
		// p_true is Pr[M = answer]: the conflicting output is the answer's or the other one.
		// Rounded to 9 significant digits (sig9), the given value as the user wrote it.
		ptrue := func(prob float64, ans bool) float64 {
			if ans != c.Output {
				prob = 1 - prob
			}
			r, _ := strconv.ParseFloat(sig9(prob), 64)
			return r
		}
		p := ConflictPair{Datasets: []string{c.H}, PTrue: []float64{ptrue(c.Given, c.AnsH)}}
		if c.By != c.H { // bfs.Pass.TailViolation names one dataset, its neighbours unnamed
			p.Datasets, p.PTrue, p.Hops = append(p.Datasets, c.By), append(p.PTrue, ptrue(c.ByValue, c.AnsBy)), c.Dist
			if c.By < c.H {
				slices.Reverse(p.Datasets)
				slices.Reverse(p.PTrue)
			}
		}
		e.Conflicts = append(e.Conflicts, p)
	}
	slices.SortFunc(e.Conflicts, func(p, q ConflictPair) int { return slices.Compare(p.Datasets, q.Datasets) })
	e.Conflicts = slices.CompactFunc(e.Conflicts, func(p, q ConflictPair) bool { return slices.Equal(p.Datasets, q.Datasets) })
	return e
}

// sig9 writes a probability with 9 significant digits. Rounding moves a value below
// 1 by at most 5e-10, inside bfs.Tolerance: a printed value, given as is, is accepted.
func sig9(x float64) string { return strconv.FormatFloat(x, 'g', 9, 64) }
