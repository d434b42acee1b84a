package bfs

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
)

// Engine computes one colour's field g_c (doc.go, invariant 2).
type Engine interface {
	Name() string
	Colour(ctx context.Context, in *Instance, c bool) (*Field, error)
}

// Mechanism is the optimal extension: for every vertex p_one = Pr[M = 1] (the
// canonical form), p_true = Pr[M = answer], and the binding hitting-set vertex with
// its distance (-1 where none binds).
type Mechanism struct {
	POne  []float64
	PTrue []float64
	Bind  []int32
	Dist  []int32
}

// Solution is a solved instance. When Infeasible > 0 the mechanism is not valid.
type Solution struct {
	Mechanism
	Violations  []Violation // the first few
	Infeasible  int         // how many (hitting-set vertex, output) pairs violate
	Relaxations int64       // adjacency entries read by the engine, both colours
}

// NewInstance checks the engine's preconditions: positions in range, no repeated
// hitting-set vertex, probabilities in [0, 1]. Input validation with positions in
// files belongs to ingest; these are broken invariants of the caller.
func NewInstance(g *Graph, answer []bool, hit []int32, ptrue []float64, pair Pair) (*Instance, error) {
	n := g.N()
	if len(answer) != n {
		return nil, fmt.Errorf("bfs: %d answers for %d vertices", len(answer), n)
	}
	if len(hit) != len(ptrue) {
		return nil, fmt.Errorf("bfs: %d hitting-set vertices with %d values", len(hit), len(ptrue))
	}
	seen := make([]uint64, (n+63)/64) // a bitmap, not a map: the set can hold millions
	for i, h := range hit {
		if h < 0 || int(h) >= n {
			return nil, fmt.Errorf("bfs: hitting-set vertex %d out of range [0, %d)", h, n)
		}
		if seen[h>>6]&(1<<(h&63)) != 0 {
			return nil, fmt.Errorf("bfs: hitting-set vertex %d repeated", h)
		}
		seen[h>>6] |= 1 << (h & 63)
		if !(ptrue[i] >= 0 && ptrue[i] <= 1) {
			return nil, fmt.Errorf("bfs: p_true %v of vertex %d outside [0, 1]", ptrue[i], h)
		}
	}
	return &Instance{G: g, Answer: answer, Hit: hit, PTrue: ptrue, Pair: pair}, nil
}

// Solve runs both colours (in parallel: they are independent), decides feasibility,
// and assembles the mechanism: p_true(w) = g_answer(w)(w) (DESIGN §3).
func Solve(ctx context.Context, in *Instance, eng Engine, limit int) (*Solution, error) {
	var f [2]*Field
	grp, gctx := errgroup.WithContext(ctx)
	for ci, c := range []bool{false, true} {
		grp.Go(func() (err error) {
			f[ci], err = eng.Colour(gctx, in, c)
			return err
		})
	}
	if err := grp.Wait(); err != nil {
		return nil, err
	}
	sol := &Solution{Relaxations: f[0].Scans + f[1].Scans}
	sol.Violations, sol.Infeasible = Violations(in, f, limit)
	// p_one comes from the pass of the vertex's own answer (DESIGN §3), or is the given
	// value on the hitting set, then is clamped into [lower bound of the colour-0 pass,
	// upper bound of the colour-1 pass]. In exact arithmetic the clamp changes nothing
	// on a feasible instance; in float64 it moves a value accepted within Tolerance
	// onto its bound so the written mechanism passes the audit (doc.go, invariant 4).
	// Colour 0's arrays are reused for binding and distance, its values become p_true.
	m := Mechanism{POne: f[1].Value, PTrue: f[0].Value, Bind: f[0].Bind, Dist: f[0].Dist}
	hitIndex := in.HitIndex()
	for v, ans := range in.Answer {
		lower, upper := -f[0].Value[v], f[1].Value[v]
		p := lower
		if ans {
			p = upper
			m.Bind[v], m.Dist[v] = f[1].Bind[v], f[1].Dist[v]
		}
		i := hitIndex[v]
		if i >= 0 {
			p = in.POne(int(i))
		}
		given := p
		p = max(min(p, upper), lower)
		m.POne[v] = p
		switch {
		case i >= 0 && p == given:
			m.PTrue[v] = in.PTrue[i] // a hitting-set vertex keeps its given value
		case ans:
			m.PTrue[v] = p
		default:
			m.PTrue[v] = 1 - p
		}
	}
	sol.Mechanism = m
	return sol, nil
}
