package bfs

import (
	"fmt"
	"sync"

	"github.com/graphdp/graphdp/graph"
)

// This file is the rounds engine's optional renaming of the vertices in
// breadth-first order (graph.BFSOrder), so that its shards of consecutive positions
// are connected pieces of the graph: fewer cut arcs, fewer offers, and fewer rounds
// where the instance's order hides the graph's locality (docs/BEAM.md, "Cuts that
// follow the graph"). The renaming changes no output (doc.go invariant 9): a
// candidate's Bind is its binding vertex's position in the instance, never the
// renamed one, so ties break as in the run without it.

// The relabelling modes of Rounds.Relabel.
const (
	RelabelNone = "none" // shards of the instance's positions (also "")
	RelabelBFS  = "bfs"  // always in breadth-first order
	RelabelAuto = "auto" // in breadth-first order when it cuts materially fewer arcs (relabelPays)
)

// RelabelModes lists the modes a job may name.
var RelabelModes = []string{RelabelAuto, RelabelBFS, RelabelNone}

// Relabelling is what Rounds did about the order of an instance's vertices.
type Relabelling struct {
	Mode    string // as asked: auto, bfs or none
	Applied bool   // the shards hold breadth-first-ordered vertices
	// Arcs, and the arcs cut by the shards of the instance's order and of the
	// breadth-first order (both counted by auto and bfs; none counts neither).
	// Sampled: auto's probe stopped it, and the counts are the probe's, over the
	// arcs among the first vertices in breadth-first order (graph.ProbeCut).
	Arcs, CutGiven, CutBFS int64
	Sampled                bool
}

// CutShare is cut's share of the arcs (0 for a graph without any).
func (r Relabelling) CutShare(cut int64) float64 {
	if r.Arcs == 0 {
		return 0
	}
	return float64(cut) / float64(r.Arcs)
}

// relabelPays is auto's rule: rename when the breadth-first order cuts at most 90%
// of the arcs the given order cuts. On BenchmarkRelabelRounds' graphs (docs/BEAM.md,
// "Cuts that follow the graph") a uniform graph's ratio is 0.998–1.000 (nothing to
// find: the renaming would only cost its pass and its copy of the graph), a shuffled
// grid's 0.11–0.24 (rounds 51 → 12–20, offers 2–7× fewer), R-MAT's 0.87 at 2^18
// vertices (offers 2.3× fewer) and 0.96 at 2^20, which auto leaves alone though
// bfs would halve its offers: the cut is a cheap, conservative proxy. A grid in its
// own row-major order cuts fewer arcs as it is than in breadth-first order (1.34),
// and stays.
func relabelPays(given, bfs int64) bool { return given > 0 && bfs*10 <= given*9 }

// auto's probe (graph.ProbeCut) numbers max(probeShards shards, probeVertices)
// vertices breadth-first and counts the cut among the arcs between them, and auto
// makes and counts the whole order only where relabelPays says yes to the probe's
// counts. The first vertices of a breadth-first order are its most local part, so
// the probe's ratio errs low: on the twelve graphs of BenchmarkRelabelRounds
// (probe-ratio and bfs-ratio: uniform, grid and R-MAT at 2^18 and 2^20 vertices,
// in the generator's order and shuffled) the whole order's ratio was at or above
// the probe's every time (uniform 0.94–0.95 against 1.00, R-MAT 0.84–0.91 against
// 0.87–0.96, shuffled grids 0.08–0.11 against 0.11–0.24, row-major grids 0.45–0.92
// against 1.34), so there a probe that said no was right, and one that says yes is
// checked by the whole count. On a uniform 10^7-edge run the probe saves the order
// and its count, which took 11% of the run's CPU.
const (
	probeShards   = 16
	probeVertices = 1 << 16
)

// relabelled is the renaming Rounds shards: the graph under the new positions, and
// the permutation both ways (perm: the instance's position → the shard layout's;
// inverse: back). nil fields when not applied.
type relabelled struct {
	info          Relabelling
	g             *graph.Graph
	perm, inverse []int32
}

// relabelCache keeps an instance's renaming, shared by its copies (the other colour,
// the passes after a repair), keyed like the cuts by graph, layout and mode; and
// the tally of the rounds engine's passes on them (Rounds.Tally).
type relabelCache struct {
	sync.Mutex
	of    map[relabelKey]*relabelled
	tally RoundsTally
}

// RoundsTally is what the rounds engine's passes on an instance and its copies (both
// colours, and the passes after a repair) did, summed, with the shard layout and
// the renaming the last of them ran on.
type RoundsTally struct {
	Passes     int
	Rounds     int   // RoundsRun.Rounds, summed
	Offers     int64 // RoundsRun.Offers, summed
	Layout     graph.Layout
	Relabelled Relabelling
}

// Tally is the sum of the rounds engine's passes on in and its copies so far (zero
// for an instance NewInstance did not make).
func (Rounds) Tally(in *Instance) RoundsTally {
	if in.relabel == nil {
		return RoundsTally{}
	}
	in.relabel.Lock()
	defer in.relabel.Unlock()
	return in.relabel.tally
}

// count adds one pass's run, on layout l renamed as rl says, to in's tally.
func (in *Instance) count(run RoundsRun, l graph.Layout, rl Relabelling) {
	if in.relabel == nil {
		return
	}
	in.relabel.Lock()
	t := &in.relabel.tally
	t.Passes, t.Rounds, t.Offers = t.Passes+1, t.Rounds+run.Rounds, t.Offers+run.Offers
	t.Layout, t.Relabelled = l, rl
	in.relabel.Unlock()
}

type relabelKey struct {
	g    *graph.Graph
	l    graph.Layout
	mode string
}

// Relabelling reports what Rounds does, or did, about the order of in's vertices
// (computing it when no pass has yet: in's copies share it).
func (e Rounds) Relabelling(in *Instance) (Relabelling, error) {
	l, err := e.layout(in.G.N())
	if err != nil {
		return Relabelling{}, err
	}
	rl, err := e.relabelling(in, l)
	if err != nil {
		return Relabelling{}, err
	}
	return rl.info, nil
}

// relabelling decides and, where it applies, makes the renaming of in for layout l.
func (e Rounds) relabelling(in *Instance, l graph.Layout) (*relabelled, error) {
	mode := e.Relabel
	if mode == "" {
		mode = RelabelNone
	}
	switch mode {
	case RelabelNone:
		return &relabelled{info: Relabelling{Mode: mode}}, nil
	case RelabelBFS, RelabelAuto:
	default:
		return nil, fmt.Errorf("bfs: relabel mode %q is not one of %v", mode, RelabelModes)
	}
	cache := in.relabel
	if cache == nil {
		cache = &relabelCache{}
	}
	key := relabelKey{in.G, l, mode}
	cache.Lock()
	defer cache.Unlock()
	if rl := cache.of[key]; rl != nil {
		return rl, nil
	}
	g := in.G
	rl := &relabelled{info: Relabelling{Mode: mode}}
	if limit := max(probeShards*int(l.Size), probeVertices); mode == RelabelAuto && limit < g.N() {
		// The probe first: where even the first vertices in breadth-first order
		// (its most local part) show no locality, the order is not made at all. (On
		// a graph of at most limit vertices the probe would be the whole count below.)
		arcs, given, renamed := g.ProbeCut(l, limit)
		if !relabelPays(given, renamed) {
			rl.info.Arcs, rl.info.CutGiven, rl.info.CutBFS, rl.info.Sampled = arcs, given, renamed, true
			cache.put(key, rl)
			return rl, nil
		}
	}
	perm := g.BFSOrder()
	given, renamed := g.CutArcs(l, perm)
	rl.info.Arcs, rl.info.CutGiven, rl.info.CutBFS = int64(len(g.Adj)), given, renamed
	if mode == RelabelBFS || relabelPays(given, renamed) {
		h, inverse, err := g.Relabel(perm)
		if err != nil {
			return nil, err
		}
		rl.info.Applied, rl.g, rl.perm, rl.inverse = true, h, perm, inverse
	}
	cache.put(key, rl)
	return rl, nil
}

// put keeps rl under key; the caller holds the lock.
func (c *relabelCache) put(key relabelKey, rl *relabelled) {
	if c.of == nil {
		c.of = map[relabelKey]*relabelled{}
	}
	c.of[key] = rl
}

// pos is the shard layout's position of the instance's vertex v.
func (rl *relabelled) pos(v int32) int32 {
	if rl.perm == nil {
		return v
	}
	return rl.perm[v]
}

// vertex is the instance's vertex at the shard layout's position p.
func (rl *relabelled) vertex(p int32) int32 {
	if rl.inverse == nil {
		return p
	}
	return rl.inverse[p]
}
