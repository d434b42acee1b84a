package report

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/cover"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// Tolerance decides "equal to randomized response" (doc.go, invariant 3): the
// feasibility tolerance, so the balanced α on a boundary vertex counts as equal.
const Tolerance = bfs.Tolerance

// Bins is the number of histogram bins over [0, 1].
const Bins = 20

// MaxLevels caps the accuracy levels listed (the most accurate first).
const MaxLevels = 100

// quantilePercents are the quantiles reported, in percent.
var quantilePercents = []int{0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 100}

// Input is what a report is computed from; positions are the vertices file's.
type Input struct {
	Graph    *graph.Graph
	Answer   []bool    // true answer per vertex
	POne     []float64 // the mechanism's Pr[M = 1] per vertex
	Exact    []float64 // its exact values (dp.ExactValue), which the audit reads; nil: POne
	Distance []int32   // binding distance per vertex, -1 where none; nil: use the distance to the boundary
	Binding  []int32   // binding vertex per vertex, -1 where none; nil: unknown (no binding_id column)
	InHit    []bool    // whether each vertex is in the hitting set; nil: unknown
	Pair     dp.Pair
	ID       func(v int32) string // an id for messages
	List     int                  // how many audit violations to list
	Inputs   Inputs
	Version  string
}

// Inputs names the files a report was made from.
type Inputs struct {
	Mechanism File `json:"mechanism"`
	Vertices  File `json:"vertices"`
	Edges     File `json:"edges"`
}

// File is one input file. A file holding private data (the mechanism, the
// vertices) has no plain SHA-256, only a keyed digest when the operator gave a
// key (job/provenance.go).
type File struct {
	Path       string `json:"path"`
	SHA256     string `json:"sha256,omitempty"`
	HMACSHA256 string `json:"hmac_sha256,omitempty"`
}

// Report is everything a report states (docs/TOOLKIT.md, "graphdp report").
type Report struct {
	Version            string             `json:"version"`
	Inputs             Inputs             `json:"inputs"`
	Epsilon            float64            `json:"epsilon"`
	Delta              float64            `json:"delta"`
	Framework          string             `json:"framework"` // dp.Framework; Epsilon and Delta are 0 unless epsilon-delta
	Privacy            string             `json:"privacy"`   // the framework and its parameters in words
	Datasets           int                `json:"datasets"`
	Edges              int64              `json:"edges"`
	Accuracy           Accuracy           `json:"accuracy"`
	Classes            Classes            `json:"classes"` // per true answer: sensitivity, specificity, min
	Levels             Levels             `json:"levels"`
	ByDistance         ByDistance         `json:"by_distance"`
	RandomizedResponse RandomizedResponse `json:"randomized_response"`
	Audit              Audit              `json:"audit"`
	// Deterministic are the datasets answered with p_one exactly 0 or 1, private or not.
	Deterministic check.Deterministic `json:"deterministic"`
	// LeastAccurate are the LeastAccurateListed datasets of lowest p_true, lowest
	// first (ties by input position).
	LeastAccurate []Dataset `json:"least_accurate"`

	graph       *drawing        // the dataset graph, when small enough
	big         *neighbourhoods // else the neighbourhood view's data, when not too large
	notDrawn    string          // why neither, otherwise
	leastLevels []tiedLevel     // the lowest accuracy levels, ties counted (the page's table)
}

// LeastAccurateListed is how many of the least accurate datasets a report names.
const LeastAccurateListed = 10

// Dataset is one dataset's accuracy and why.
type Dataset struct {
	ID              string  `json:"id"`
	PTrue           float64 `json:"p_true"`
	BindingID       string  `json:"binding_id,omitempty"` // "" where none, or unknown (no binding_id column)
	BindingDistance int     `json:"binding_distance"`     // -1 where none or unknown
}

// Accuracy is the distribution of p_true over the datasets.
type Accuracy struct {
	Mean      float64    `json:"mean_p_true"`
	Min       float64    `json:"min_p_true"`
	Max       float64    `json:"max_p_true"`
	Truthful  int        `json:"truthful"` // datasets with p_true = 1
	Quantiles []Quantile `json:"quantiles"`
	Histogram []Bin      `json:"histogram"` // Bins bins [k/20, (k+1)/20), the last closed
}

// Quantile is the nearest-rank quantile: the ⌈q·n⌉-th smallest p_true (the smallest for q = 0).
type Quantile struct {
	Q     float64 `json:"q"`
	PTrue float64 `json:"p_true"`
}

// Bin is one histogram bin.
type Bin struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Count int     `json:"datasets"`
}

// Levels counts datasets per accuracy level (p_true rounded to 9 decimals).
type Levels struct {
	Total int     `json:"total"`  // distinct levels
	Shown []Level `json:"levels"` // the MaxLevels most accurate, highest first
}

// Level is one accuracy level.
type Level struct {
	PTrue float64 `json:"p_true"`
	Count int     `json:"datasets"`
}

// ByDistance is mean accuracy grouped by a hop distance.
type ByDistance struct {
	// Kind is "binding" (the mechanism's binding_distance: hops to the hitting-set
	// vertex whose bound is attained) or "boundary" (computed: hops to the nearest
	// endpoint of a boundary edge, when the mechanism has no binding distance).
	Kind   string          `json:"kind"`
	Groups []DistanceGroup `json:"groups"` // by distance; the group -1 (none) last
}

// DistanceGroup is the datasets at one distance; Distance -1 gathers those with
// none (no binding vertex, or no boundary edge in their component).
type DistanceGroup struct {
	Distance int     `json:"distance"`
	Datasets int     `json:"datasets"`
	Mean     float64 `json:"mean_p_true"`
	Min      float64 `json:"min_p_true"`
	Max      float64 `json:"max_p_true"`
}

// RandomizedResponse compares the mechanism with randomized response, which gives
// every dataset p_true = α = (e^ε+δ)/(e^ε+1).
type RandomizedResponse struct {
	PTrue         float64 `json:"p_true"`
	Gain          int     `json:"gain"`               // datasets with p_true > α + Tolerance
	Equal         int     `json:"equal"`              // within Tolerance
	Lose          int     `json:"lose"`               // datasets with p_true < α − Tolerance
	MeanGain      float64 `json:"mean_gain"`          // mean of p_true − α over all datasets
	MeanGainGains float64 `json:"mean_gain_of_gains"` // over the datasets that gain (0 if none)
	MaxGain       float64 `json:"max_gain"`           // largest p_true − α among randomized datasets (0 if none gains)
	MaxGainID     string  `json:"max_gain_id,omitempty"`
	// GainDeterministic counts the gaining datasets left out of MaxGain: they are
	// answered deterministically, a "gain" bought with no privacy at all.
	GainDeterministic int     `json:"gain_deterministic"`
	MeanLossLoses     float64 `json:"mean_loss_of_losses"` // mean of α − p_true over the datasets that lose
	MaxLoss           float64 `json:"max_loss"`            // largest α − p_true (0 if none loses)
	MaxLossID         string  `json:"max_loss_id,omitempty"`
}

// Audit is the (ε,δ)-DP check of every edge, both directions, both outputs.
type Audit struct {
	Passed      bool    `json:"passed"`
	Edges       int64   `json:"edges_checked"`
	Violations  int64   `json:"violations"`   // (edge, output) pairs over the bound
	WorstExcess float64 `json:"worst_excess"` // ≤ 0 when passed; 0 without edges
	Worst       *Edge   `json:"worst,omitempty"`
	First       []Edge  `json:"first_violations,omitempty"`
}

// Edge is one edge's inequality for one output.
type Edge struct {
	U      string  `json:"u"`
	V      string  `json:"v"`
	Output int     `json:"output"`
	PU     float64 `json:"pr_u"` // Pr[M(u) = output]
	PV     float64 `json:"pr_v"`
	Excess float64 `json:"excess"`
}

// Compute gathers the report's numbers (doc.go). The error is ctx's, when it is
// cancelled during the audit.
func Compute(ctx context.Context, in Input) (*Report, error) {
	n := len(in.POne)
	r := &Report{Version: in.Version, Inputs: in.Inputs, Epsilon: in.Pair.Epsilon, Delta: in.Pair.Delta,
		Framework: string(in.Pair.Framework()), Privacy: in.Pair.String(), Datasets: n, Edges: in.Graph.M()}
	exact := in.Exact
	if exact == nil {
		exact = in.POne
	}
	pt := make([]float64, n) // p_true as run writes it: exact in both tails (dp.ExactColumns)
	for v, e := range exact {
		_, pt[v] = dp.ExactColumns(in.Answer[v], e)
	}
	st := check.StatsOf(in.Answer, in.POne, pt)
	r.Accuracy = accuracy(pt, st)
	r.Classes = st.Classes()
	r.Levels = levels(pt)
	dist, kind := in.Distance, "binding"
	if dist == nil {
		dist, kind = BoundaryDistance(in.Graph, in.Answer), "boundary"
	}
	r.ByDistance = ByDistance{Kind: kind, Groups: byDistance(pt, dist)}
	var det []bool
	r.Deterministic, det = check.FindDeterministic(in.Graph, in.POne, in.InHit, in.Distance, &in.Pair, in.ID)
	r.RandomizedResponse = randomizedResponse(pt, det, in.Pair, in.ID)
	var err error
	if r.Audit, err = audit(ctx, in); err != nil {
		return nil, err
	}
	r.LeastAccurate = leastAccurate(in, pt, LeastAccurateListed)
	r.leastLevels = leastLevels(in, pt, LeastLevelsShown)
	switch r.notDrawn = embedNote(n, in.Graph.M()); {
	case n <= MaxDrawnDatasets && in.Graph.M() <= MaxDrawnEdges:
		r.graph = drawGraph(in, pt, det)
	case r.notDrawn == "":
		r.big = &neighbourhoods{in: in, pt: pt, det: det}
	}
	return r, nil
}

// leastAccurate lists the k datasets of lowest p_true, lowest first, ties by input
// position: a bounded max-heap over one pass, O(n log k).
func leastAccurate(in Input, pt []float64, k int) []Dataset {
	less := func(a, b int32) bool { return pt[a] < pt[b] || (pt[a] == pt[b] && a < b) }
	var heap []int32 // max-heap by less: heap[0] is the worst kept
	down := func(i int) {
		for {
			c := 2*i + 1
			if c >= len(heap) {
				return
			}
			if c+1 < len(heap) && less(heap[c], heap[c+1]) {
				c++
			}
			if !less(heap[i], heap[c]) {
				return
			}
			heap[i], heap[c] = heap[c], heap[i]
			i = c
		}
	}
	for v := range int32(len(pt)) {
		switch {
		case len(heap) < k:
			heap = append(heap, v)
			for i := len(heap) - 1; i > 0 && less(heap[(i-1)/2], heap[i]); i = (i - 1) / 2 {
				heap[i], heap[(i-1)/2] = heap[(i-1)/2], heap[i]
			}
		case less(v, heap[0]):
			heap[0] = v
			down(0)
		}
	}
	slices.SortFunc(heap, func(a, b int32) int {
		if less(a, b) {
			return -1
		}
		return 1
	})
	out := make([]Dataset, len(heap))
	for i, v := range heap {
		out[i] = Dataset{ID: in.ID(v), PTrue: pt[v], BindingDistance: -1}
		if in.Distance != nil {
			out[i].BindingDistance = int(in.Distance[v])
		}
		if in.Binding != nil && in.Binding[v] >= 0 {
			out[i].BindingID = in.ID(in.Binding[v])
		}
	}
	return out
}

// accuracy is pt's distribution; its mean and truthful count are st's (check.Stats).
func accuracy(pt []float64, st *check.Stats) Accuracy {
	n := len(pt)
	a := Accuracy{Histogram: make([]Bin, Bins)}
	for k := range a.Histogram {
		a.Histogram[k] = Bin{Lo: float64(k) / Bins, Hi: float64(k+1) / Bins}
	}
	for _, p := range pt {
		a.Histogram[min(int(p*Bins), Bins-1)].Count++
	}
	sorted := slices.Clone(pt)
	slices.Sort(sorted)
	a.Mean, a.Min, a.Max, a.Truthful = st.Mean(), sorted[0], sorted[n-1], st.Truthful()
	for _, pc := range quantilePercents {
		rank := (pc*n + 99) / 100 // ⌈pc·n/100⌉ in integers
		a.Quantiles = append(a.Quantiles, Quantile{Q: float64(pc) / 100, PTrue: sorted[max(rank, 1)-1]})
	}
	return a
}

func levels(pt []float64) Levels {
	count := map[float64]int{}
	for _, p := range pt {
		count[math.Round(p*1e9)/1e9]++
	}
	l := Levels{Total: len(count)}
	for p, c := range count {
		l.Shown = append(l.Shown, Level{PTrue: p, Count: c})
	}
	slices.SortFunc(l.Shown, func(a, b Level) int { return cmp.Compare(b.PTrue, a.PTrue) })
	if len(l.Shown) > MaxLevels {
		l.Shown = l.Shown[:MaxLevels]
	}
	return l
}

func byDistance(pt []float64, dist []int32) []DistanceGroup {
	idx := map[int32]int{}
	var gs []DistanceGroup
	for v, p := range pt {
		d := dist[v]
		if d < 0 {
			d = -1
		}
		i, ok := idx[d]
		if !ok {
			i = len(gs)
			idx[d] = i
			gs = append(gs, DistanceGroup{Distance: int(d), Min: p, Max: p})
		}
		g := &gs[i]
		g.Datasets++
		g.Mean += p
		g.Min, g.Max = min(g.Min, p), max(g.Max, p)
	}
	for i := range gs {
		gs[i].Mean /= float64(gs[i].Datasets)
	}
	slices.SortFunc(gs, func(a, b DistanceGroup) int {
		if (a.Distance < 0) != (b.Distance < 0) {
			return cmp.Compare(b.Distance, a.Distance) // -1 last
		}
		return cmp.Compare(a.Distance, b.Distance)
	})
	return gs
}

// randomizedResponse compares with α; det (deterministic datasets) are counted but
// never named as the largest gain.
func randomizedResponse(pt []float64, det []bool, pair dp.Pair, id func(int32) string) RandomizedResponse {
	alpha := pair.Balanced() // α = (e^ε+δ)/(e^ε+1) rounded down: randomized response with it is exactly DP
	rr := RandomizedResponse{PTrue: alpha}
	var sum, gains, losses float64
	maxGain, maxLoss := int32(-1), int32(-1)
	for v, p := range pt {
		d := p - alpha
		sum += d
		switch {
		case d > Tolerance:
			rr.Gain++
			gains += d
			if det[v] {
				rr.GainDeterministic++
			} else if maxGain < 0 || d > rr.MaxGain {
				maxGain, rr.MaxGain = int32(v), d
			}
		case d < -Tolerance:
			rr.Lose++
			losses -= d
			if maxLoss < 0 || -d > rr.MaxLoss {
				maxLoss, rr.MaxLoss = int32(v), -d
			}
		default:
			rr.Equal++
		}
	}
	rr.MeanGain = sum / float64(len(pt))
	if rr.Gain > 0 {
		rr.MeanGainGains = gains / float64(rr.Gain)
	}
	if maxGain >= 0 {
		rr.MaxGainID = id(maxGain)
	}
	if rr.Lose > 0 {
		rr.MeanLossLoses, rr.MaxLossID = losses/float64(rr.Lose), id(maxLoss)
	}
	return rr
}

func audit(ctx context.Context, in Input) (Audit, error) {
	exact := in.Exact
	if exact == nil {
		exact = in.POne
	}
	v, err := check.Verify(ctx, in.Graph, exact, in.Pair, 0, in.List)
	if err != nil {
		return Audit{}, err
	}
	a := Audit{Passed: v.Violations == 0, Edges: v.Edges, Violations: v.Violations}
	edge := func(e check.EdgeViolation) Edge {
		out := 0
		if e.Output {
			out = 1
		}
		return Edge{U: in.ID(e.U), V: in.ID(e.V), Output: out, PU: e.PU, PV: e.PV, Excess: e.Excess}
	}
	if v.Edges > 0 && v.Worst.U >= 0 {
		w := edge(v.Worst)
		a.Worst, a.WorstExcess = &w, v.Worst.Excess
	}
	for _, e := range v.First {
		a.First = append(a.First, edge(e))
	}
	return a, nil
}

// BoundaryDistance is every vertex's hop distance to the nearest endpoint of a
// boundary edge (an edge whose ends answer differently), -1 where its component has
// none: one breadth-first search from all those endpoints at once.
func BoundaryDistance(g *graph.Graph, answer []bool) []int32 {
	return g.Distances(cover.BoundaryVertices(g, answer))
}
