package check

import (
	"fmt"
	"strings"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"

	"github.com/graphdp/graphdp/internal/words"
)

// Why a dataset is answered deterministically (p_one exactly 0 or 1): how its
// certainty came about.
const (
	ReasonIsolated      = "no neighbours"
	ReasonUnconstrained = "no constraint in its component"
	ReasonForced        = "forced by the hitting set"
)

// MaxDeterministicListed is how many deterministic datasets are named.
const MaxDeterministicListed = 10

// Deterministic counts the datasets a mechanism answers deterministically: M(v) is
// the same on every draw. Whether that is private is a property of the dataset's
// edges (TOOLKIT.md, "Deterministic datasets"), and the counts say which:
//
//   - not private: a dataset with no neighbours (no DP inequality protects it: the
//     graph gives it no neighbouring dataset, and a release publishes its answer),
//     or one where a DP inequality on one of its edges fails (its certainty is
//     where DP cannot hold);
//   - private: every DP inequality with its neighbours holds exactly. With δ = 0
//     that forces every neighbour, hence its whole component, to the same certain
//     answer (Pr[M(u) = j] ≤ e^ε·0 for the output j it never gives), a constant
//     answer that tells nothing the graph does not; with δ > 0 its neighbours are
//     within δ of certain. Either way the release is (ε,δ)-DP for it.
//
// Private + NotPrivate = Count, NotPrivate = Isolated + DPFails. The reasons
// (Isolated, Unconstrained, Forced) say how the certainty came about and also
// partition Count.
type Deterministic struct {
	Count      int `json:"count"`
	Private    int `json:"private"`     // every DP inequality with its neighbours holds exactly
	NotPrivate int `json:"not_private"` // no neighbours, or a DP inequality on an edge fails
	DPFails    int `json:"dp_fails"`    // the second kind of not private
	// The reasons.
	Isolated      int                    `json:"no_neighbours"`
	Unconstrained int                    `json:"no_constraint"`
	Forced        int                    `json:"forced_by_hitting_set"`
	First         []DeterministicDataset `json:"first,omitempty"` // the first MaxDeterministicListed, in input order
}

// DeterministicDataset is one dataset answered deterministically, by id and reason
// only: its p_one (0 or 1) is what every release of it publishes — its true answer
// when p_true = 1 — so no summary, report or message states it (docs/DESIGN.md §9.1).
type DeterministicDataset struct {
	ID      string `json:"id"`
	Reason  string `json:"reason"`
	Private bool   `json:"private"`
}

// FindDeterministic finds the datasets with p_one exactly 0 or 1 and says why:
// isolated; in the hitting set (its given value), or in a component with a
// hitting-set dataset (a bound forces it); otherwise nothing constrains its
// component. inHit may be nil (the hitting set is unknown): then dist, the binding
// distance (-1 where nothing binds; may be nil), decides between forced and
// unconstrained. pair audits each deterministic dataset's edges exactly (Private);
// nil means the mechanism is known to be exactly DP (run audits it before, and
// fails otherwise), so that every dataset with neighbours is private. is marks the
// deterministic datasets.
func FindDeterministic(g *graph.Graph, pone []float64, inHit []bool, dist []int32, pair *dp.Pair, id func(int32) string) (d Deterministic, is []bool) {
	is = make([]bool, len(pone))
	var reach []int32 // hop distance from the hitting set, computed only if needed
	for v, p := range pone {
		if p != 0 && p != 1 {
			continue
		}
		is[v] = true
		nb := g.Neighbours(int32(v))
		hitComp := false // a hitting-set dataset in its component (asked only when it decides)
		if !(inHit != nil && inHit[v]) && len(nb) > 0 {
			switch {
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
				hitComp = reach[v] >= 0
			case dist != nil:
				hitComp = dist[v] >= 0
			}
		}
		reason := DeterministicReason(inHit != nil && inHit[v], len(nb) == 0, hitComp)
		private := len(nb) > 0
		if private && pair != nil {
			for _, u := range nb {
				if !pair.Allowed(p, pone[u]) {
					private = false
					d.DPFails++
					break
				}
			}
		}
		d.Add(reason, private, 1)
		if len(d.First) < MaxDeterministicListed {
			d.First = append(d.First, DeterministicDataset{ID: id(int32(v)), Reason: reason, Private: private})
		}
	}
	return d, is
}

// DeterministicReason is why a deterministic dataset is certain: forced when it is
// in the hitting set (its given value), isolated when it has no neighbours, else
// forced when its component holds a hitting-set dataset (hitInComponent; a bound
// forces it) and unconstrained when not. FindDeterministic applies it to every
// dataset; a cluster runner to each of its shards' datasets, deciding the last
// case once the components are joined.
func DeterministicReason(inHit, isolated, hitInComponent bool) string {
	switch {
	case inHit:
		return ReasonForced
	case isolated:
		return ReasonIsolated
	case hitInComponent:
		return ReasonForced
	}
	return ReasonUnconstrained
}

// Add counts n deterministic datasets of one reason, private or not (a dataset with
// no neighbours never is): Count, the reason's count, and Private or NotPrivate.
// It lists none (First); DPFails is the caller's.
func (d *Deterministic) Add(reason string, private bool, n int) {
	d.Count += n
	switch reason {
	case ReasonIsolated:
		d.Isolated += n
	case ReasonUnconstrained:
		d.Unconstrained += n
	default:
		d.Forced += n
	}
	if private {
		d.Private += n
	} else {
		d.NotPrivate += n
	}
}

// Merge adds o's counts to d (not its First): a cluster runner sums its shards'.
func (d *Deterministic) Merge(o Deterministic) {
	d.Count += o.Count
	d.Private += o.Private
	d.NotPrivate += o.NotPrivate
	d.DPFails += o.DPFails
	d.Isolated += o.Isolated
	d.Unconstrained += o.Unconstrained
	d.Forced += o.Forced
}

// Lines states them for people, one line each. When all are private, one plain
// line with their count: a constant answer is no problem. Otherwise the warning: the
// count, which are private and which not (in words and counts), how their certainty
// came about, the first ids.
func (d Deterministic) Lines() []string {
	if d.Count == 0 {
		return nil
	}
	verb := "datasets are"
	if d.Count == 1 {
		verb = "dataset is"
	}
	if d.NotPrivate == 0 {
		return []string{fmt.Sprintf("%d %s answered with certainty (p_one = 0 or 1), all private: every DP inequality with their neighbours holds exactly", d.Count, verb)}
	}
	lines := []string{fmt.Sprintf("WARNING: %d %s answered with certainty (p_one = 0 or 1): a release gives the same answer on every draw", d.Count, verb)}
	if d.NotPrivate > 0 {
		var why []string
		if d.Isolated > 0 {
			why = append(why, fmt.Sprintf("%d with no neighbours, which no DP inequality protects", d.Isolated))
		}
		if d.DPFails > 0 {
			why = append(why, fmt.Sprintf("%d where a DP inequality on one of its edges fails", d.DPFails))
		}
		lines = append(lines, fmt.Sprintf("  NOT private: %d: %s; a release publishes their answer", d.NotPrivate, strings.Join(why, ", ")))
	}
	if d.Private > 0 {
		lines = append(lines, fmt.Sprintf("  private: %d: every DP inequality with their neighbours holds exactly (neighbours as certain, or within δ of it): (ε,δ)-DP holds for them", d.Private))
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
	lines = append(lines, "  why certain: "+strings.Join(why, ", "))
	var ids []string
	for _, x := range d.First {
		priv := "private"
		if !x.Private {
			priv = "NOT private"
		}
		ids = append(ids, fmt.Sprintf("%s (%s, %s)", words.Quote(x.ID), x.Reason, priv))
	}
	more := ""
	if n := d.Count - len(d.First); n > 0 {
		more = fmt.Sprintf(", … and %d more", n)
	}
	lines = append(lines, "  datasets: "+strings.Join(ids, ", ")+more)
	return lines
}
