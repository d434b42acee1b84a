package pipeline

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/check"
)

// max_deterministic's two forms and where each draws the line: "N" allows N
// datasets, "P%" allows count·100 ≤ P·total (hand-computed: 3 of 7 is 42.857…%).
func TestDeterministicLimit(t *testing.T) {
	for _, c := range []struct {
		s            string
		count, total int
		exceeded     bool
	}{
		{"3", 3, 7, false}, {"3", 4, 7, true}, {"0", 0, 7, false}, {"0", 1, 7, true},
		{"42.9%", 3, 7, false}, {"42.8%", 3, 7, true}, {" 10 % ", 1, 10, false}, {"10%", 2, 10, true},
		{"0%", 0, 5, false}, {"0%", 1, 5, true}, {"100%", 5, 5, false},
	} {
		l, err := parseLimit(c.s)
		if err != nil {
			t.Fatalf("%q: %v", c.s, err)
		}
		if got := l.exceeded(c.count, c.total); got != c.exceeded {
			t.Errorf("%q with %d of %d: exceeded %v, want %v", c.s, c.count, c.total, got, c.exceeded)
		}
	}
	for _, s := range []string{"", "-1", "1.5", "x", "101%", "-1%", "NaN%", "%", "1e3"} {
		if _, err := parseLimit(s); err == nil {
			t.Errorf("%q: accepted", s)
		}
	}
}

// The fail-closed rule (Job.RefuseNotPrivate): datasets not private refuse the run
// with a *RejectError that counts them, names the first by id (never an answer),
// says nothing was written and names --allow-non-private; private ones, none, or
// AllowNonPrivate pass. The counts are check.Deterministic's (hand-made here).
func TestRefuseNotPrivate(t *testing.T) {
	t.Parallel()
	notPrivate := &check.Deterministic{Count: 3, Private: 1, NotPrivate: 2, Isolated: 2, Unconstrained: 1,
		First: []check.DeterministicDataset{{ID: "a", Reason: check.ReasonIsolated}, {ID: "b", Reason: check.ReasonUnconstrained, Private: true}}}
	job := DefaultJob()
	job.Edges = "e.csv"
	err := job.RefuseNotPrivate(notPrivate, 5, Input{Path: "e.csv", Rows: 0})
	var re *RejectError
	if !errors.As(err, &re) || re.Kind != "not-private" {
		t.Fatalf("got %v (%T), want a not-private *RejectError", err, err)
	}
	msg := err.Error()
	for _, want := range []string{"2 of 5 datasets are not private", "nothing written", "--allow-non-private", "allow_non_private",
		"the edges file e.csv has no rows", "2 with no neighbours", "datasets: a, … and 1 more"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "answer 0") || strings.Contains(msg, "answer 1") || strings.Contains(msg, `"b"`) || strings.Contains(msg, " b") {
		t.Errorf("the refusal names an answer or a private dataset:\n%s", msg)
	}
	if err := job.RefuseNotPrivate(notPrivate, 5, Input{Path: "e.csv", Rows: 4}); err == nil || strings.Contains(err.Error(), "has no rows") {
		t.Errorf("with edge rows: %v", err)
	}
	private := &check.Deterministic{Count: 2, Private: 2, Unconstrained: 2}
	for name, c := range map[string]struct {
		d     *check.Deterministic
		allow bool
	}{"private only": {private, false}, "none": {&check.Deterministic{}, false}, "not counted": {nil, false}, "allowed": {notPrivate, true}} {
		j := job
		j.AllowNonPrivate = c.allow
		if err := j.RefuseNotPrivate(c.d, 5, Input{Path: "e.csv"}); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
	if one := private.Lines(); len(one) != 1 || strings.Contains(one[0], "WARNING") || !strings.HasPrefix(one[0], "2 datasets are answered with certainty") {
		t.Errorf("private deterministic datasets: %q, want one plain line with their count", one)
	}
}
