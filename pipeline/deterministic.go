package pipeline

import (
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"

	"github.com/graphdp/graphdp/internal/words"

	"fmt"
	"strings"
)

// EmptyEdges is the warning about an edges file without rows, or "".
func (s *Summary) EmptyEdges() string {
	return emptyEdges(s.Inputs.Edges.Path, s.EdgesRead, s.Vertices)
}

func emptyEdges(path string, rows int64, datasets int) string {
	if rows > 0 || datasets == 0 {
		return ""
	}
	return fmt.Sprintf("WARNING: the edges file %s has no rows: every dataset is isolated and answered with certainty (did an upstream export fail?)", path)
}

// RefuseNotPrivate is job j's fail-closed rule, that of every command that writes a
// mechanism or what makes one (run on every backend, through Drive; optimize): a
// *RejectError (exit status 3, before anything is written) when d counts datasets
// that are not private (check.Deterministic: answered with certainty where no DP
// inequality protects them) and the job does not allow them (AllowNonPrivate). Of
// datasets, edges is the edges file as read (its path and rows: an empty one is
// named). The message counts them and names the first by id, never their answers.
func RefuseNotPrivate(j *job.Job, d *check.Deterministic, datasets int, edges Input) error {
	if d == nil || d.NotPrivate == 0 || j.AllowNonPrivate {
		return nil
	}
	verb := "are"
	if d.NotPrivate == 1 {
		verb = "is"
	}
	var lines []string
	if w := emptyEdges(edges.Path, edges.Rows, datasets); w != "" {
		lines = append(lines, strings.TrimPrefix(w, "WARNING: "))
	}
	var why []string
	if d.Isolated > 0 {
		why = append(why, fmt.Sprintf("%d with no neighbours, which no DP inequality protects", d.Isolated))
	}
	if d.DPFails > 0 {
		why = append(why, fmt.Sprintf("%d where a DP inequality on one of its edges fails", d.DPFails))
	}
	lines = append(lines, "why: "+strings.Join(why, ", "))
	var ids []string
	for _, x := range d.First {
		if !x.Private {
			ids = append(ids, words.Quote(x.ID))
		}
	}
	if n := d.NotPrivate - len(ids); n > 0 {
		ids = append(ids, fmt.Sprintf("… and %d more", n))
	}
	lines = append(lines, "datasets: "+strings.Join(ids, ", "))
	return &RejectError{File: j.Edges, Kind: "not-private", Lines: lines,
		Head: fmt.Sprintf("%d of %d datasets %s not private: answered with certainty (p_one = 0 or 1) where no DP inequality protects them; nothing written (--allow-non-private, or allow_non_private: true in a config file, writes it anyway)",
			d.NotPrivate, datasets, verb)}
}

// checkDeterministic refuses (a *RejectError, exit status 3; before anything is
// written) a run whose deterministic datasets exceed the job's max_deterministic.
// Every runner calls it once the audit has counted them.
func checkDeterministic(j job.Job, s *Summary) error {
	if j.MaxDeterministic == "" || s.Deterministic == nil {
		return nil
	}
	l, err := job.ParseLimit(j.MaxDeterministic) // validated with the job
	if err != nil {
		return &job.ConfigError{Problems: []string{"max_deterministic: " + err.Error()}}
	}
	d := s.Deterministic
	if !l.Exceeded(d.Count, s.Vertices) {
		return nil
	}
	var lines []string
	if w := s.EmptyEdges(); w != "" {
		lines = append(lines, strings.TrimPrefix(w, "WARNING: "))
	}
	lines = append(lines, d.Lines()...)
	return &RejectError{File: j.Edges, Kind: "deterministic", Lines: lines,
		Head: fmt.Sprintf("%d of %d datasets are answered deterministically (p_one = 0 or 1), more than --max-deterministic %s (max_deterministic in a config file) allows; nothing written",
			d.Count, s.Vertices, l)}
}

// FindDeterministic finds the datasets answered with p_one exactly 0 or 1, why,
// and which are private (check.Deterministic), for a mechanism pone that passed
// the DP audit, from hitting set hit.
func FindDeterministic(g *graph.Graph, pone []float64, hit []int32, ids ingest.IDs) *check.Deterministic {
	inHit := make([]bool, g.N())
	for _, h := range hit {
		inHit[h] = true
	}
	// nil pair: the audit passed, so DP holds on every edge.
	d, _ := check.FindDeterministic(g, pone, inHit, nil, nil, func(v int32) string { return ids.String(int(v)) })
	return &d
}
