package bfs

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/internal/testgraph"
)

// traced is a Solver that records what Repair.Run asks of the one it wraps.
type traced struct {
	s     Solver
	calls []string
}

func (t *traced) Solve(ctx context.Context) (Excess, error) {
	x, err := t.s.Solve(ctx)
	t.calls = append(t.calls, fmt.Sprintf("solve%v", x.Above))
	return x, err
}

func (t *traced) Repair(ctx context.Context, one bool) error {
	t.calls = append(t.calls, fmt.Sprintf("repair(%v)", one))
	return t.s.Repair(ctx, one)
}

func (t *traced) Finish(ctx context.Context, v Verdict) (float64, error) {
	which := "last"
	if v.First {
		which = "first"
	}
	t.calls = append(t.calls, fmt.Sprintf("finish(%s,%v,%v)", which, v.Check, v.Tol))
	return t.s.Finish(ctx, v)
}

// Repair.Run over the engines of this machine (the Solver SolveRepair runs) on one
// edge 0–1 with values p_one 0.3 and p at ε = ln 2, δ = 0. Pass 1 bounds vertex 1 by
// b = U(0.3) = RD(e^ε·0.3) (docs/DESIGN.md §2.1); at δ = 0 the same inequality
// p ≤ e^ε·0.3 is pass 0's bound on vertex 0 (0.3 ≥ e^−ε·p), so a value above b lies
// above its bound in both passes, and moving it onto b satisfies both (L(U(α)) ≤ α,
// docs/DESIGN.md §11, with RD and RU on the safe sides): one repair, of pass 1 (the
// loop's rule: pass 1 first).
func TestRepairRun(t *testing.T) {
	ctx := context.Background()
	pair := testgraph.MustDP(math.Ln2, 0)
	g := testgraph.FromEdges(2, [][2]int32{{0, 1}})
	b := pair.Upper(0.3)
	if math.Abs(b-0.6) > 1e-15 {
		t.Fatalf("U(0.3) = %v, want 0.6 (e^ε·0.3)", b)
	}
	for _, tc := range []struct {
		name       string
		p          float64
		rp         Repair
		trace      string
		repairs    int
		infeasible int // pairs listed: at Tolerance, or for a refused repair at 0
		refused    bool
		solved     float64 // vertex 1's value in Solution.Instance
		written    float64 // its p_one in the mechanism (rejected: the first solve's field, b)
	}{
		// 0.4 ≤ 0.6 and 0.3 ≥ 0.4/2: nothing above any bound.
		{"consistent", 0.4, DefaultRepair,
			"solve[0 0] finish(last,true,1e-09)", 0, 0, false, 0.4, 0.4},
		// 5e-10 above b, within Tolerance: moved onto b, solved again, kept.
		{"one repair", b + 5e-10, DefaultRepair,
			"solve[1 1] repair(true) solve[0 0] finish(last,false,1e-09)", 1, 0, false, b, b},
		// The same input when no repair may run (the stop rule at Max): the values stay
		// above their bounds, RepairKept refuses, and the first solve is rejected with
		// both passes' pairs at tolerance 0. Max 0, not MaxRepairs: with RD(U) and RU(L)
		// one repair of pass 1 leaves pass 0 consistent too (the Galois argument above),
		// so no known input reaches MaxRepairs (as beam's TestBeamRejectsAFailedRepair).
		{"stop rule", b + 5e-10, Repair{Max: 0, Kept: RepairKept},
			"solve[1 1] finish(last,true,1e-09) finish(first,true,0)", 0, 2, true, b + 5e-10, b},
		// 1e-7 above b: beyond Tolerance in both passes, infeasible, nothing repaired.
		{"beyond", b + 1e-7, DefaultRepair,
			"solve[1 1] finish(last,true,1e-09)", 0, 2, false, b + 1e-7, b},
	} {
		for _, eng := range allEngines {
			t.Run(tc.name+"/"+eng.Name(), func(t *testing.T) {
				in := mustInstance(t, g, []bool{true, true}, []int32{0, 1}, []float64{0.3, tc.p}, pair)
				tr := &traced{s: &local{given: in, eng: eng, limit: 5, in: in}}
				out, err := tc.rp.Run(ctx, tr)
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Join(tr.calls, " "); got != tc.trace {
					t.Errorf("calls %q, want %q", got, tc.trace)
				}
				want := Outcome{Repairs: tc.repairs, Infeasible: tc.name == "beyond", Refused: tc.refused}
				if out != want {
					t.Errorf("outcome %+v, want %+v", out, want)
				}

				sol, err := SolveRepair(ctx, in, eng, 5, tc.rp)
				if err != nil {
					t.Fatal(err)
				}
				if sol.Repairs != tc.repairs || sol.RepairFailed != tc.refused || sol.Infeasible != tc.infeasible || len(sol.Violations) != tc.infeasible {
					t.Fatalf("repairs %d, failed %v, infeasible %d (%d listed), want %d, %v, %d",
						sol.Repairs, sol.RepairFailed, sol.Infeasible, len(sol.Violations), tc.repairs, tc.refused, tc.infeasible)
				}
				if sol.POne[0] != 0.3 || sol.POne[1] != tc.written || hitPOne(sol.Instance, 1) != tc.solved {
					t.Errorf("written p_one %v, solved value %v, want [0.3 %v], %v", sol.POne, hitPOne(sol.Instance, 1), tc.written, tc.solved)
				}
				for i, v := range sol.Violations { // pass 0's pair, then pass 1's
					if v.Output != (i == 1) || v.H != int32(i) || v.By != int32(1-i) || v.Dist != 1 {
						t.Errorf("violation %d: %+v", i, v)
					}
				}
				if sol.Infeasible == 0 { // what is kept is exactly DP (doc.go, invariant 4)
					if a, _ := check.Verify(ctx, g, dp.ExactValues(in.Answer, sol.POne, sol.PTrue), pair, 0, 3); a.Violations != 0 {
						t.Errorf("kept mechanism fails the audit: %+v", a.First)
					}
				}
			})
		}
	}
}
