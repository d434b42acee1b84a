package pipeline

import (
	"fmt"
	"strings"

	"github.com/graphdp/graphdp/bfs"
)

// ConfigError lists every problem found in a job description (usage; exit status 2).
type ConfigError struct {
	Source   string   // the config file, or "flags"
	Problems []string // one line each
}

func (e *ConfigError) Error() string {
	if len(e.Problems) == 1 {
		return e.Source + ": " + e.Problems[0]
	}
	return fmt.Sprintf("%s: %d problems:\n  %s", e.Source, len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// RejectError is input that was read correctly but admits no mechanism: the hitting
// set misses boundary edges, or its values admit no DP extension (exit status 3).
type RejectError struct {
	File  string   // the hitting-set file the rejection is about
	Kind  string   // "not-hitting-set" or "infeasible"
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
	U, V       string
	AnsU, AnsV bool
}

// NotHittingSet is the rejection of a set that misses boundary edges (every runner
// words it the same): total of boundary edges are uncovered; first are listed.
func NotHittingSet(file string, total, boundary int64, first []Uncovered) *RejectError {
	e := &RejectError{File: file, Kind: "not-hitting-set", Total: total,
		Head: fmt.Sprintf("not a boundary-hitting set: %d of %d boundary edges have neither end in it; nothing written", total, boundary)}
	for _, x := range first {
		e.Lines = append(e.Lines, fmt.Sprintf("edge %s – %s (answers %d, %d)", x.U, x.V, b2i(x.AnsU), b2i(x.AnsV)))
	}
	return e
}

// Conflict is a pair of hitting-set values that admits no DP extension, by id (bfs.Violation).
type Conflict struct {
	Output                bool
	H, By                 string
	Dist                  int32
	Given, ByValue, Bound float64
}

// Infeasible is the rejection of conflicting hitting-set values (the paper's
// feasibility lemma, docs/DESIGN.md §3.3),
// worded the same by every runner.
func Infeasible(file string, epsilon, delta float64, total int64, first []Conflict) *RejectError {
	e := &RejectError{File: file, Kind: "infeasible", Total: total,
		Head: fmt.Sprintf("no (ε,δ)-DP extension exists (ε=%v, δ=%v): %d hitting-set values exceed the bound another hitting-set vertex imposes (tolerance %g); nothing written",
			epsilon, delta, total, bfs.Tolerance)}
	for _, v := range first {
		j := b2i(v.Output)
		e.Lines = append(e.Lines, fmt.Sprintf("id %s: Pr[M=%d] = %s, but id %s (Pr[M=%d] = %s) at distance %d allows at most U^%d(%s) = %s",
			v.H, j, num(v.Given), v.By, j, num(v.ByValue), v.Dist, v.Dist, num(v.ByValue), num(v.Bound)))
	}
	return e
}
