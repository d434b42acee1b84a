package report

import (
	"fmt"
	"strings"

	"github.com/graphdp/graphdp/graph"

	"github.com/graphdp/graphdp/internal/words"
)

// Why a dataset is answered deterministically (p_one exactly 0 or 1: no privacy).
const (
	ReasonIsolated      = "no neighbours"
	ReasonUnconstrained = "no constraint in its component"
	ReasonForced        = "forced by the hitting set"
)

// MaxDeterministicListed is how many deterministic datasets are named.
const MaxDeterministicListed = 10

// Deterministic counts the datasets a mechanism answers deterministically: M(v) is
// the same on every draw, so releasing it publishes a fixed function of the data.
type Deterministic struct {
	Count         int                    `json:"count"`
	Isolated      int                    `json:"no_neighbours"`
	Unconstrained int                    `json:"no_constraint"`
	Forced        int                    `json:"forced_by_hitting_set"`
	First         []DeterministicDataset `json:"first,omitempty"` // the first MaxDeterministicListed, in input order
}

// DeterministicDataset is one dataset answered deterministically, by id and reason
// only: its p_one (0 or 1) is what every release of it publishes — its true answer
// when p_true = 1 — so no summary, report or message states it (docs/DESIGN.md §9.1).
type DeterministicDataset struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// FindDeterministic finds the datasets with p_one exactly 0 or 1 and says why:
// isolated; in the hitting set (its given value), or in a component with a
// hitting-set dataset (a bound forces it); otherwise nothing constrains its
// component. inHit may be nil (the hitting set is unknown): then dist, the binding
// distance (-1 where nothing binds; may be nil), decides between forced and
// unconstrained. is marks the deterministic datasets.
func FindDeterministic(g *graph.Graph, pone []float64, inHit []bool, dist []int32, id func(int32) string) (d Deterministic, is []bool) {
	is = make([]bool, len(pone))
	var reach []int32 // hop distance from the hitting set, computed only if needed
	for v, p := range pone {
		if p != 0 && p != 1 {
			continue
		}
		is[v] = true
		d.Count++
		var reason string
		switch {
		case inHit != nil && inHit[v]:
			reason = ReasonForced
		case len(g.Neighbours(int32(v))) == 0:
			reason = ReasonIsolated
		case inHit != nil:
			if reach == nil {
				var hit []int32
				for u, h := range inHit {
					if h {
						hit = append(hit, int32(u))
					}
				}
				reach = g.Distances(hit)
			}
			reason = ReasonUnconstrained
			if reach[v] >= 0 { // a hitting-set dataset in its component
				reason = ReasonForced
			}
		case dist != nil && dist[v] >= 0:
			reason = ReasonForced
		default:
			reason = ReasonUnconstrained
		}
		switch reason {
		case ReasonIsolated:
			d.Isolated++
		case ReasonUnconstrained:
			d.Unconstrained++
		default:
			d.Forced++
		}
		if len(d.First) < MaxDeterministicListed {
			d.First = append(d.First, DeterministicDataset{ID: id(int32(v)), Reason: reason})
		}
	}
	return d, is
}

// Lines states the warning for people, one line each: the count, why, the first ids.
func (d Deterministic) Lines() []string {
	if d.Count == 0 {
		return nil
	}
	verb := "datasets are"
	if d.Count == 1 {
		verb = "dataset is"
	}
	var why []string
	for _, c := range []struct {
		n    int
		what string
	}{{d.Isolated, ReasonIsolated}, {d.Unconstrained, ReasonUnconstrained}, {d.Forced, ReasonForced}} {
		if c.n > 0 {
			why = append(why, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	lines := []string{
		fmt.Sprintf("WARNING: %d %s answered deterministically (p_one = 0 or 1): no privacy at all, a release publishes the true answer", d.Count, verb),
		"  why: " + strings.Join(why, ", "),
	}
	var ids []string
	for _, x := range d.First {
		ids = append(ids, fmt.Sprintf("%s (%s)", words.Quote(x.ID), x.Reason))
	}
	more := ""
	if n := d.Count - len(d.First); n > 0 {
		more = fmt.Sprintf(", … and %d more", n)
	}
	lines = append(lines, "  datasets: "+strings.Join(ids, ", ")+more)
	return lines
}
