package bfs

import "context"

// The within-tolerance repair of docs/DESIGN.md §8.2, written once: Repair.Run is
// the sequence of solves, feasibility decision, repairs, stop rule, acceptance and
// rejection; a backend supplies only a Solver, how to solve, move values and lay out
// a result where its data lives (Solve's: the engines on this machine, solve.go;
// package beam's: pipelines over staged shards).

// MaxRepairs bounds Solve's rounds of within-tolerance repair. Each round makes one
// pass exactly consistent; two or three suffice in practice.
const MaxRepairs = 8

// Repair is Solve's repair policy: at most Max rounds of within-tolerance repair,
// the result accepted when Kept says so (else the input is rejected with the first
// solve's violations at tolerance 0). One policy for every backend: a cluster runner
// that re-solves on its shards runs the same loop (Run) with it (package pipeline
// passes it to each backend). Only tests change it, to reach what lies behind it (a
// refused repair; a kept one that is not consistent, which the audit must catch).
type Repair struct {
	Max  int
	Kept func(above bool, maxMove float64) bool
}

// DefaultRepair is the policy of docs/DESIGN.md §8.2: MaxRepairs rounds, RepairKept.
var DefaultRepair = Repair{Max: MaxRepairs, Kept: RepairKept}

// Solver is what the repair loop (Repair.Run) asks of a backend: it solves, moves
// values and lays out a result; the loop decides which, when, and whether the result
// is kept. Its values start as the given ones.
type Solver interface {
	// Solve runs both passes to their fixed points from the current hitting-set values
	// and counts, with Excess.Add, how those values lie against the fields.
	Solve(ctx context.Context) (Excess, error)
	// Repair moves the current values that pass one (true: pass 1) of the last solve
	// found above their bounds onto them (Pass.Repaired, every other value kept): the
	// values of the next solve.
	Repair(ctx context.Context, one bool) error
	// Finish lays out the mechanism of the solve v names, lists its violations beyond
	// v.Tol when v.Check (Pass.Beyond, Pass.Violation) and returns how far its values
	// moved from the given ones (Solution.MaxMove).
	Finish(ctx context.Context, v Verdict) (maxMove float64, err error)
}

// Excess is what one solve found of the hitting-set values against the bounds their
// fellows impose: Repair.Run's figures, on every backend summed in the same way.
type Excess struct {
	Beyond int64    // (vertex, pass) pairs beyond Tolerance (Pass.Beyond): Violations' count
	Above  [2]int64 // values above their bound at all (Pass.Repaired), pass 0 then pass 1
}

// Add counts hitting-set value hv (pass.go) of pass p, whose converged field there is g.
func (x *Excess) Add(p Pass, hv, g float64) {
	if g < p.Seed(hv) { // above its bound: Repaired would move it
		i := 0
		if p.one {
			i = 1
		}
		x.Above[i]++
	}
	if p.Beyond(hv, g, Tolerance) {
		x.Beyond++
	}
}

// Verdict is the solve Repair.Run has Solver.Finish lay out.
type Verdict struct {
	// First: the first solve (the given values; a refused repair), else the last.
	First bool
	// Check: list the violations beyond Tol. Feasibility is the first solve's; after a
	// repair the values are known feasible and none are listed.
	Check bool
	Tol   float64 // Tolerance, or 0 for a refused repair
}

// Outcome is what Repair.Run decided.
type Outcome struct {
	Repairs    int  // rounds of repair run
	Infeasible bool // the first solve had values beyond Tolerance: rejected, nothing repaired
	Refused    bool // the repair was not kept: rejected with the first solve's violations at tolerance 0
}

// Run is the repair loop of docs/DESIGN.md §8.2 over s. The first solve decides
// feasibility with Tolerance (the paper's feasibility lemma, docs/DESIGN.md §3.3);
// when feasible, values above their bounds are moved onto them, pass 1's if it has
// any, else pass 0's (one pass at a time: repairing both at once can swap two
// conflicting values instead of reconciling them, ε = δ = 0), and solved again,
// until no value lies above its bound or rp.Max repairs have run. Replacing values
// by a pass's own fixed point leaves that fixed point unchanged, so the pass repaired
// is exactly consistent afterwards. The last solve is laid out (violations listed if
// it is the first), and then, unless rp.Kept accepts it, the first solve with its
// violations at tolerance 0: the written hitting-set values are exactly consistent
// and each within Tolerance of the given one, or the input is rejected like any
// conflict, listing the pairs above their bounds at all.
func (rp Repair) Run(ctx context.Context, s Solver) (Outcome, error) {
	var out Outcome
	x, err := s.Solve(ctx)
	if err != nil {
		return out, err
	}
	out.Infeasible = x.Beyond > 0
	for !out.Infeasible && out.Repairs < rp.Max {
		one := x.Above[1] > 0
		if !one && x.Above[0] == 0 {
			break // exactly consistent
		}
		if err := s.Repair(ctx, one); err != nil {
			return out, err
		}
		if x, err = s.Solve(ctx); err != nil {
			return out, err
		}
		out.Repairs++
	}
	maxMove, err := s.Finish(ctx, Verdict{Check: out.Repairs == 0, Tol: Tolerance})
	if err != nil || out.Infeasible || rp.Kept(x.Above[0]+x.Above[1] > 0, maxMove) {
		return out, err
	}
	out.Refused = true
	_, err = s.Finish(ctx, Verdict{First: true, Check: true, Tol: 0})
	return out, err
}
