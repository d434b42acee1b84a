package beam

import (
	"slices"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/graph"
)

// Components and the deterministic datasets, the two parts of the local run's summary
// that need the whole graph's components (the local backend's graph.CountComponents and
// check.FindDeterministic). A shard labels its own components (graph.Shard.LocalRoots:
// each by its smallest global position, graph doc.go invariant 5) and learns, in the
// finish's exchange, the local roots of its cut neighbours; it reports its component
// count, a spanning set of the links its cut edges make between roots, and what it
// cannot decide alone. The launcher joins the links (components) over the roots
// named, never over the vertices: its work follows the cut and the hitting set.

// shardComps is one shard's part of the components and the deterministic datasets.
type shardComps struct {
	Comps int64        // local components
	Links []graph.Link // graph.Spanning of the links across the cut edges u < v
	// The deterministic datasets (p_one exactly 0 or 1), by check.DeterministicReason
	// (check.FindDeterministic's rule) and, the audit having passed, private exactly
	// when they have neighbours. Det counts those the shard decides (no First: see
	// First below); Open those whose local component holds no hitting-set vertex, per
	// local root (the launcher decides them on the whole component); HitRoots are
	// the roots of the local components that hold one.
	Det      check.Deterministic
	Open     []rootCount
	HitRoots []int32
	First    []firstDet // the shard's first check.MaxDeterministicListed, in position order
}

type rootCount struct {
	Root  int32
	Count int64
}

// firstDet is a named deterministic dataset; Reason "" means: decided by Root.
type firstDet struct {
	ID      string
	POne    float64
	Reason  string
	Private bool
	Root    int32
}

// components finds the shard's part, given its local roots and comps, the links of
// its cut edges, and the mechanism's p_one.
func (st *state) components(root []int32, comps int, links []graph.Link, m mechanism) shardComps {
	sc := shardComps{Comps: int64(comps), Links: graph.Spanning(links)}
	hitRoot := map[int32]bool{}
	for _, h := range st.HitPos {
		hitRoot[root[h-st.Shard.Lo]] = true
	}
	open := map[int32]int64{}
	for i, p := range m.POne {
		if p != 0 && p != 1 {
			continue
		}
		isolated := len(st.Shard.Neighbours(i)) == 0
		var reason string // "": decided on the whole component, by the launcher
		if m.InH[i] || isolated || hitRoot[root[i]] {
			reason = check.DeterministicReason(m.InH[i], isolated, hitRoot[root[i]])
			sc.Det.Add(reason, !isolated, 1)
		} else {
			open[root[i]]++
		}
		if len(sc.First) < check.MaxDeterministicListed {
			sc.First = append(sc.First, firstDet{ID: st.IDs.text(i), POne: p + 0, Reason: reason, Private: !isolated, Root: root[i]}) // + 0: -0 reads 0
		}
	}
	for _, r := range sortedKeys(open) {
		sc.Open = append(sc.Open, rootCount{r, open[r]})
	}
	sc.HitRoots = sortedKeys(hitRoot) // other shards' open components may need them
	return sc
}

func (e *enc) shardComps(sc shardComps) {
	e.i64(sc.Comps)
	e.u64(uint64(len(sc.Links)))
	for _, k := range sc.Links {
		e.i64(int64(k[0]))
		e.i64(int64(k[1]))
	}
	for _, n := range []int{sc.Det.Count, sc.Det.Private, sc.Det.NotPrivate, sc.Det.Isolated, sc.Det.Unconstrained, sc.Det.Forced} {
		e.i64(int64(n))
	}
	e.u64(uint64(len(sc.Open)))
	for _, o := range sc.Open {
		e.i64(int64(o.Root))
		e.i64(o.Count)
	}
	e.i32s(sc.HitRoots)
	e.u64(uint64(len(sc.First)))
	for _, f := range sc.First {
		e.str(f.ID)
		e.f64(f.POne)
		e.str(f.Reason)
		e.bool(f.Private)
		e.i64(int64(f.Root))
	}
}

func (d *dec) shardComps() shardComps {
	var sc shardComps
	sc.Comps = d.i64()
	sc.Links = make([]graph.Link, d.count())
	for i := range sc.Links {
		sc.Links[i] = graph.Link{int32(d.i64()), int32(d.i64())}
	}
	for _, n := range []*int{&sc.Det.Count, &sc.Det.Private, &sc.Det.NotPrivate, &sc.Det.Isolated, &sc.Det.Unconstrained, &sc.Det.Forced} {
		*n = int(d.i64())
	}
	sc.Open = make([]rootCount, d.count())
	for i := range sc.Open {
		sc.Open[i] = rootCount{int32(d.i64()), d.i64()}
	}
	sc.HitRoots = d.i32s()
	sc.First = make([]firstDet, d.count())
	for i := range sc.First {
		sc.First[i] = firstDet{ID: d.str(), POne: d.f64(), Reason: d.str(), Private: d.bool(), Root: int32(d.i64())}
	}
	return sc
}

// joinComps is the launcher's half (doc.go invariant 5): the shards' parts, in shard order, joined into
// the whole graph's component count and check.Deterministic.
func joinComps(parts []shardComps) (int, check.Deterministic) {
	var ids []int32
	comps := 0
	for _, sc := range parts {
		comps += int(sc.Comps)
		for _, k := range sc.Links {
			ids = append(ids, k[0], k[1])
		}
		for _, o := range sc.Open {
			ids = append(ids, o.Root)
		}
		ids = append(ids, sc.HitRoots...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	f := graph.NewForest(len(ids))
	find := func(root int32) int32 {
		i, _ := slices.BinarySearch(ids, root)
		return f.Find(int32(i))
	}
	for _, sc := range parts {
		for _, k := range sc.Links {
			if a, b := find(k[0]), find(k[1]); a != b {
				f.Union(a, b)
				comps-- // each join merges two components (graph doc.go invariant 5)
			}
		}
	}
	hit := map[int32]bool{}
	for _, sc := range parts {
		for _, r := range sc.HitRoots {
			hit[find(r)] = true
		}
	}
	var d check.Deterministic
	for _, sc := range parts {
		d.Merge(sc.Det)
		for _, o := range sc.Open { // not isolated: private (the audit passed)
			d.Add(check.DeterministicReason(false, false, hit[find(o.Root)]), true, int(o.Count))
		}
		for _, x := range sc.First {
			if len(d.First) == check.MaxDeterministicListed {
				break
			}
			if x.Reason == "" {
				x.Reason = check.DeterministicReason(false, false, hit[find(x.Root)])
			}
			d.First = append(d.First, check.DeterministicDataset{ID: x.ID, Reason: x.Reason, Private: x.Private})
		}
	}
	return comps, d
}
