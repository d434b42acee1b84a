package pipeline

import (
	"fmt"
	"strings"
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
