package pipeline

import (
	"fmt"
	"github.com/graphdp/graphdp/dp"
	"slices"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/bfs"

	"github.com/graphdp/graphdp/internal/words"
)

// ConfigError lists every problem found in a job description (usage; exit status 2).
type ConfigError struct {
	Source   string   // the config file, or "" (the command line)
	Problems []string // one line each
}

func (e *ConfigError) Error() string {
	src := ""
	if e.Source != "" {
		src = e.Source + ": "
	}
	if len(e.Problems) == 1 {
		return src + e.Problems[0]
	}
	return fmt.Sprintf("%s%d problems:\n  %s", src, len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// RejectError is input that was read correctly but admits no mechanism: the hitting
// set misses boundary edges, or its values admit no DP extension; or whose mechanism
// may not be written: datasets not private, or more deterministic than the job allows
// (exit status 3).
type RejectError struct {
	File  string   // the file the rejection is about (the hitting set; the edges)
	Kind  string   // "not-hitting-set", "infeasible", "not-private" or "deterministic"
	Total int64    // how many uncovered edges or violations in all
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

// Uncovered is a boundary edge with neither end in the hitting set, by id.
type Uncovered struct {
	U, V string
}

// notHittingSetError is the rejection of a set that misses boundary edges (every runner
// words it the same): total of boundary edges are uncovered; first are listed, by
// id only: their answers (which differ, on a boundary edge) are what a release
// protects, and messages travel further than the data (docs/DESIGN.md §9.1).
func notHittingSetError(file string, total, boundary int64, first []Uncovered) *RejectError {
	e := &RejectError{File: file, Kind: "not-hitting-set", Total: total,
		Head: fmt.Sprintf("not a boundary-hitting set: %d of %d boundary edges have neither end in it; nothing written", total, boundary)}
	for _, x := range first {
		e.Lines = append(e.Lines, fmt.Sprintf("edge %s – %s", words.Quote(x.U), words.Quote(x.V)))
	}
	return e
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

// infeasibleError is the rejection of conflicting hitting-set values (the paper's
// feasibility lemma, docs/DESIGN.md §3.3), worded the same by every runner, in the
// user's terms: the p_true given, the dataset it conflicts with, their distance and
// the largest (or smallest) p_true that dataset allows. Root conflicts come first:
// those of the dataset taking part in the most listed conflicts (the likeliest
// cause), then in the order found. Probabilities have 9 significant digits.
// infeasiblePair is Infeasible worded for pair's framework.
func infeasiblePair(file string, pair dp.Pair, total int64, first []Conflict) *RejectError {
	e := infeasibleError(file, pair.Epsilon, pair.Delta, total, first)
	if pair.Framework() != dp.EpsilonDelta {
		e.Head = fmt.Sprintf("no mechanism satisfying %s has these p_true values: %s outside what another hitting-set dataset allows (tolerance %g); nothing written",
			pair, words.Count(total, "given value lies", "given values lie"), bfs.Tolerance)
	}
	return e
}

func infeasibleError(file string, epsilon, delta float64, total int64, first []Conflict) *RejectError {
	e := &RejectError{File: file, Kind: "infeasible", Total: total,
		Head: fmt.Sprintf("no (ε,δ)-DP mechanism has these p_true values (ε=%v, δ=%v): %s outside what another hitting-set dataset allows (tolerance %g); nothing written",
			epsilon, delta, words.Count(total, "given value lies", "given values lie"), bfs.Tolerance)}
	in := map[string]int{}
	for _, c := range first {
		in[c.H]++
		in[c.By]++
	}
	root := func(c Conflict) int { return max(in[c.H], in[c.By]) }
	order := slices.Clone(first)
	slices.SortStableFunc(order, func(a, b Conflict) int { return root(b) - root(a) })
	for _, c := range order {
		// p_true is Pr[M = answer]: the conflicting output is the answer's or the other one.
		ptrue := func(prob float64, ans bool) float64 {
			if ans == c.Output {
				return prob
			}
			return 1 - prob
		}
		given, byGiven := ptrue(c.Given, c.AnsH), ptrue(c.ByValue, c.AnsBy)
		allowed := "allows at most p_true " + sig9(c.Bound)
		if c.AnsH != c.Output {
			allowed = "requires at least p_true " + sig9(1-c.Bound)
		}
		e.Lines = append(e.Lines, fmt.Sprintf("dataset %s: p_true %s given, but dataset %s (p_true %s) %s away %s",
			words.Quote(c.H), sig9(given), words.Quote(c.By), sig9(byGiven), words.Count(int64(c.Dist), "hop", "hops"), allowed))
	}
	return e
}

// sig9 writes a probability with 9 significant digits. Rounding moves a value below
// 1 by at most 5e-10, inside bfs.Tolerance: a printed bound, given as is, is accepted.
func sig9(x float64) string { return strconv.FormatFloat(x, 'g', 9, 64) }
