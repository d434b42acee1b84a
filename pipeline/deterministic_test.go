package pipeline

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/job"
)

// The fail-closed rule (RefuseNotPrivate): datasets not private refuse the run
// with a *RejectError that counts them, names the first by id (never an answer),
// says nothing was written and names --allow-non-private; private ones, none, or
// AllowNonPrivate pass. The counts are check.Deterministic's (hand-made here).
func TestRefuseNotPrivate(t *testing.T) {
	t.Parallel()
	notPrivate := &check.Deterministic{Count: 3, Private: 1, NotPrivate: 2, Isolated: 2, Unconstrained: 1,
		First: []check.DeterministicDataset{{ID: "a", Reason: check.ReasonIsolated}, {ID: "b", Reason: check.ReasonUnconstrained, Private: true}}}
	j := job.DefaultJob()
	j.Edges = "e.csv"
	err := RefuseNotPrivate(&j, notPrivate, 5, Input{Path: "e.csv", Rows: 0})
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
	if err := RefuseNotPrivate(&j, notPrivate, 5, Input{Path: "e.csv", Rows: 4}); err == nil || strings.Contains(err.Error(), "has no rows") {
		t.Errorf("with edge rows: %v", err)
	}
	private := &check.Deterministic{Count: 2, Private: 2, Unconstrained: 2}
	for name, c := range map[string]struct {
		d     *check.Deterministic
		allow bool
	}{"private only": {private, false}, "none": {&check.Deterministic{}, false}, "not counted": {nil, false}, "allowed": {notPrivate, true}} {
		k := j
		k.AllowNonPrivate = c.allow
		if err := RefuseNotPrivate(&k, c.d, 5, Input{Path: "e.csv"}); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}
	if one := private.Lines(); len(one) != 1 || strings.Contains(one[0], "WARNING") || !strings.HasPrefix(one[0], "2 datasets are answered with certainty") {
		t.Errorf("private deterministic datasets: %q, want one plain line with their count", one)
	}
}
