package bfs

import (
	"context"
	"fmt"
	"math"

	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
)

// Engine computes one pass's field g_c (doc.go, invariant 2).
type Engine interface {
	Name() string
	Pass(ctx context.Context, in *Instance, c bool) (*Field, error)
}

// Mechanism is the optimal extension: for every vertex p_one = Pr[M = 1] and
// p_true = Pr[M = answer], which hold its exact value between them (doc.go,
// invariant 7: dp.ExactValues reads it back), and the binding hitting-set vertex
// with its distance (-1 where none binds).
type Mechanism struct {
	POne  []float64
	PTrue []float64
	Bind  []int32
	Dist  []int32
}

// Solution is a solved instance. When Infeasible > 0 the mechanism is not valid.
type Solution struct {
	Mechanism
	// Instance is what the mechanism solves: the input, or, when values were accepted
	// within Tolerance above their bounds, the input with those values moved onto
	// their bounds (Repairs > 0). Query and audits of optimality use it.
	Instance *Instance
	Repairs  int // rounds of within-tolerance repair
	// RepairFailed: every value was within Tolerance of its bound, but no exactly
	// consistent values within Tolerance of the given ones were found (Infeasible > 0).
	RepairFailed bool
	Violations   []Violation // the first few
	Infeasible   int         // how many (hitting-set vertex, output) pairs violate
	Relaxations  int64       // adjacency entries read by the engine, both passes
}

// NewInstance checks the engine's preconditions: positions in range, no repeated
// hitting-set vertex, probabilities in [0, 1]. Input validation with positions in
// files belongs to ingest; these are broken invariants of the caller.
func NewInstance(g *graph.Graph, answer []bool, hit []int32, ptrue []float64, pair dp.Pair) (*Instance, error) {
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
	return &Instance{G: g, Answer: answer, Hit: hit, PTrue: ptrue, Pair: pair, cuts: &cutCache{}, relabel: &relabelCache{}}, nil
}

// Solve runs both passes (in parallel: they are independent), decides feasibility
// with Tolerance, and assembles the mechanism: p_true(w) = g_answer(w)(w) (the paper's
// main theorem, docs/DESIGN.md §3.2).
// Hitting-set values accepted within Tolerance but above the bound the others impose
// are moved onto that bound and the instance is solved again, until it is exactly
// consistent, so the written mechanism passes the audit (doc.go, invariant 4).
func Solve(ctx context.Context, in *Instance, eng Engine, limit int) (*Solution, error) {
	return SolveRepair(ctx, in, eng, limit, DefaultRepair)
}

// SolveRepair is Solve with the repair policy rp: its loop (Repair.Run) over the
// engine on this machine.
func SolveRepair(ctx context.Context, in *Instance, eng Engine, limit int, rp Repair) (*Solution, error) {
	s := &local{given: in, eng: eng, limit: limit, in: in}
	out, err := rp.Run(ctx, s)
	if err != nil {
		return nil, err
	}
	return &Solution{Mechanism: assemble(s.in, s.f), Instance: s.in, Repairs: out.Repairs, RepairFailed: out.Refused,
		Violations: s.violations, Infeasible: s.infeasible, Relaxations: s.relaxations}, nil
}

// local is Repair.Run's Solver on this machine: a solve is both passes of eng over
// the instance, a repair a copy of it with new values.
type local struct {
	given *Instance
	eng   Engine
	limit int // violations listed

	in          *Instance // the values solved last: given, then each repair's
	f, first    [2]*Field // the last solve's fields and the first's
	solves      int
	relaxations int64       // every solve's
	violations  []Violation // Finish's
	infeasible  int
}

func (s *local) Solve(ctx context.Context) (Excess, error) {
	f, err := passes(ctx, s.in, s.eng)
	if err != nil {
		return Excess{}, err
	}
	if s.solves == 0 {
		s.first = f
	}
	s.solves++
	s.f, s.relaxations = f, s.relaxations+f[0].Scans+f[1].Scans
	var x Excess
	for ci, one := range []bool{false, true} {
		c := NewPass(s.in.Pair, one)
		for i, h := range s.in.Hit {
			x.Add(c, s.in.HitValue(i), f[ci].Value[h])
		}
	}
	return x, nil
}

// Repair copies the instance with pass one's values above their bounds replaced by
// the bounds.
func (s *local) Repair(_ context.Context, one bool) error {
	c, ci := NewPass(s.in.Pair, one), 0
	if one {
		ci = 1
	}
	hv := make([]float64, len(s.in.Hit))
	for i, h := range s.in.Hit {
		hv[i], _ = c.Repaired(s.in.Answer[h], s.in.HitValue(i), s.f[ci].Value[h])
	}
	out := *s.in
	out.hv = hv
	s.in = &out
	return nil
}

func (s *local) Finish(_ context.Context, v Verdict) (float64, error) {
	if v.First {
		s.in, s.f = s.given, s.first
	}
	s.violations, s.infeasible = violations(s.in, s.f, s.limit, v.Tol, v.Check)
	return s.in.maxMove(), nil
}

// MaxMove is the largest distance between a solved hitting-set value and the given
// one, in p_true.
func (s *Solution) MaxMove() float64 { return s.Instance.maxMove() }

func (in *Instance) maxMove() float64 {
	m := 0.0
	for i := range in.Hit {
		m = max(m, Move(in.Answer[in.Hit[i]], in.PTrue[i], in.HitValue(i)))
	}
	return m
}

// Moved counts the hitting-set values the repair moved onto their bounds.
func (s *Solution) Moved() int {
	n := 0
	for i := range s.Instance.Hit {
		if math.Float64bits(s.Instance.HitValue(i)) != math.Float64bits(s.Instance.givenValue(i)) {
			n++
		}
	}
	return n
}

// passes runs both colours of eng, at once unless eng asks for one at a time
// (Rounds).
func passes(ctx context.Context, in *Instance, eng Engine) ([2]*Field, error) {
	var f [2]*Field
	if s, ok := eng.(interface{ oneColourAtATime() bool }); ok && s.oneColourAtATime() {
		for ci, c := range []bool{false, true} {
			var err error
			if f[ci], err = eng.Pass(ctx, in, c); err != nil {
				return f, err
			}
		}
		return f, nil
	}
	grp, gctx := errgroup.WithContext(ctx)
	for ci, c := range []bool{false, true} {
		grp.Go(func() (err error) {
			f[ci], err = eng.Pass(gctx, in, c)
			return err
		})
	}
	return f, grp.Wait()
}

// assemble lays out the mechanism of solved (the input or its repair), vertex by
// vertex with Output. Pass 0's arrays are reused for binding and distance and its
// values become p_true, pass 1's become p_one.
func assemble(solved *Instance, f [2]*Field) Mechanism {
	m := Mechanism{POne: f[1].Value, PTrue: f[0].Value, Bind: f[0].Bind, Dist: f[0].Dist}
	for v, ans := range solved.Answer {
		if ans {
			m.Bind[v], m.Dist[v] = f[1].Bind[v], f[1].Dist[v]
		}
		m.POne[v], m.PTrue[v] = Output(ans, f[0].Value[v], f[1].Value[v])
	}
	return m
}
