package report

import (
	"math"
	"slices"
)

// LeastLevelsShown is how many of the lowest accuracy levels the page lists, and
// leastLevelIDs how many datasets it names on each.
const (
	LeastLevelsShown = 5
	leastLevelIDs    = 3
)

// tiedLevel is one of the lowest accuracy levels (p_true rounded to 9 decimals, as
// for Levels) for the page's least-accurate table: ties are one row with their count.
type tiedLevel struct {
	PTrue float64
	Count int       // every dataset at this level
	First []Dataset // the first leastLevelIDs of them, by position
}

// More is how many datasets at the level are not named.
func (l tiedLevel) More() int { return l.Count - len(l.First) }

// leastLevels finds the k lowest accuracy levels with their counts and first
// datasets in one pass, O(n·k). A level once dropped (k lower ones seen) can never
// return, and one admitted has been admissible since its first dataset, so the
// counts are exact and the datasets named are the first by position.
func leastLevels(in Input, pt []float64, k int) []tiedLevel {
	var ls []tiedLevel // ascending by PTrue
	for v, p := range pt {
		q := math.Round(p*1e9) / 1e9
		i, found := slices.BinarySearchFunc(ls, q, func(l tiedLevel, q float64) int {
			switch {
			case l.PTrue < q:
				return -1
			case l.PTrue > q:
				return 1
			}
			return 0
		})
		if !found {
			if i >= k {
				continue
			}
			ls = slices.Insert(ls, i, tiedLevel{PTrue: q})
			if len(ls) > k {
				ls = ls[:k]
			}
		}
		l := &ls[i]
		l.Count++
		if len(l.First) < leastLevelIDs {
			d := Dataset{ID: in.ID(int32(v)), PTrue: p, BindingDistance: -1}
			if in.Distance != nil {
				d.BindingDistance = int(in.Distance[v])
			}
			if in.Binding != nil && in.Binding[v] >= 0 {
				d.BindingID = in.ID(in.Binding[v])
			}
			l.First = append(l.First, d)
		}
	}
	return ls
}
