package optimize

import (
	"context"
	"time"

	"github.com/graphdp/graphdp/cover"
)

// Estimate is a dry run's forecast of Optimize's cost on a problem (before any
// solve): its memory on top of the graph's, and its time, from one propagation
// measured on the problem itself (the balanced α on a minimum cover, extended).
type Estimate struct {
	// Bytes is the solver's memory beyond the graph: the bfs solutions, cover and
	// distances it keeps, with the collector's headroom (keptBytes a vertex) and,
	// when the LP is solved, its arrays (7 float64 per vertex, 4 per row and line,
	// the reverse-arc index).
	Bytes int64 `json:"bytes"`
	// LPBytes is the LP's share of Bytes (0 when the default floors make it
	// unnecessary: the balanced α is then certified without it).
	LPBytes int64 `json:"lp_bytes"`
	// Propagation is the measured time of one extension (what run's solve costs),
	// Cover that of the minimum boundary cover (0 when the hitting set is given):
	// with the reading, what comes before a first mechanism.
	Propagation time.Duration `json:"propagation_ns"`
	Cover       time.Duration `json:"cover_ns"`
	// First is the solver's part of the time to a first mechanism: the cover and
	// one extension, two where the floors are above α (the balanced α misses them,
	// a floor seed is the first).
	First time.Duration `json:"first_ns"`
	// Low and High bound the time: the candidates and the certificate
	// (EstimateDefault propagations) when no LP is needed; else from the forest's dual
	// (EstimateForest propagations in all, where it certifies the best candidate)
	// to PDHG, each step about two propagations, up to EstimateSteps steps
	// (docs/OPTIMIZE.md) — both capped by MaxTime.
	Low, High time.Duration `json:"-"`
	LP        bool          `json:"lp"` // whether the LP has to be solved (floors lowered below α)
}

// keptBytes is what Optimize keeps a vertex beyond the graph and the engine, with
// the collector's headroom (GOGC 25): the candidates' bfs solutions (24 bytes each),
// the cover and the distances. Measured at the default floors on uniform graphs of 10
// edges a dataset (peak RSS less the memory model's run, docs/OPTIMIZE.md,
// "Measured"): 104 bytes at 10^6 datasets, 127–136 at 10^7 (the median and the
// largest of two runs).
const keptBytes = 144

// EstimateSteps is the most PDHG steps the estimate allows, and
// EstimateForest the propagations a whole optimize takes when the forest's dual
// certifies the best candidate (no PDHG step): measured on the graphs of
// docs/OPTIMIZE.md ("Limits, progress and the dry run's estimate"; the forest's
// 16–19 at uniform 10^6 / 10^7 with the floor at 0, 3.9–4.5 s against a
// propagation's 0.24 s, and 21–29 at 10^7).
const EstimateSteps, EstimateForest = 10000, 20

// EstimateDefault is the propagations a whole optimize takes when the default
// floors leave the balanced α (no LP: the cover, one extension, four BFS and the
// pointwise certificate): 2.4–3.2 at uniform 10^6 (docs/OPTIMIZE.md).
const EstimateDefault = 3

// EstimateCost forecasts Optimize(ctx, p, opt) (Estimate).
func EstimateCost(ctx context.Context, p *Problem, opt Options) (*Estimate, error) {
	obj, boundary, err := precheck(p, opt)
	if err != nil {
		return nil, err
	}
	n, arcs := int64(p.G.N()), int64(len(p.G.Adj))
	lines := int64(1)
	if ls, err := frameworkLines(p.Pair, opt.Chords, nil); err == nil {
		lines = int64(len(ls))
	}
	e := &Estimate{Bytes: keptBytes * n}
	f := opt.floors(p.Pair)
	if obj == Worst {
		f = Floors{max(f[0], p.Pair.Balanced()), max(f[1], p.Pair.Balanced())}
	}
	// At floors α on both answers with a boundary edge the balanced α is optimal
	// (the boundary is forced: Worst's certificate); otherwise the LP is solved.
	e.LP = boundary && f != (Floors{p.Pair.Balanced(), p.Pair.Balanced()})
	if e.LP {
		e.LPBytes = 7*8*n + 4*8*arcs*lines + 4*arcs
		e.Bytes += e.LPBytes
	}
	hit := opt.Hit
	if hit == nil {
		t0 := time.Now()
		bc, err := cover.Boundary(ctx, p.G, p.Answer)
		if err != nil {
			return nil, err
		}
		hit, e.Cover = bc.Vertices, time.Since(t0)
	}
	bal := make([]float64, len(hit))
	alpha := p.Pair.Balanced() // exact arithmetic: once, not once a dataset
	for i := range bal {
		bal[i] = alpha
	}
	t0 := time.Now()
	if _, _, err := extend(ctx, p, hit, bal); err != nil {
		return nil, err
	}
	e.Propagation = time.Since(t0)
	e.First = e.Cover + e.Propagation
	if a := p.Pair.Balanced(); f[0] > a || f[1] > a {
		e.First += e.Propagation
	}
	e.Low, e.High = EstimateDefault*e.Propagation, EstimateDefault*e.Propagation
	if e.LP {
		e.Low = EstimateForest * e.Propagation
		e.High += time.Duration(EstimateSteps) * 2 * e.Propagation * time.Duration(lines)
	}
	if opt.MaxTime > 0 {
		e.Low, e.High = min(e.Low, opt.MaxTime), min(e.High, opt.MaxTime)
	}
	return e, nil
}
