// Package bfs holds the engines that compute the optimal (ε,δ)-DP extension of a
// partial mechanism on a dataset graph ("Optimal Binary Differential Privacy via
// Graphs", Torkamani et al., arXiv:2310.20486): propagation (propagate.go), the
// paper's Algorithm 1 one source at a time (persource.go), block-centric rounds
// (rounds.go, and the per-shard kernel the Beam runner calls), Solve with its
// feasibility decision and repair (solve.go, feasibility.go; the repair loop itself,
// Repair.Run over a Solver, in repair.go, run by Solve and by the Beam backend alike),
// and the one-vertex query of the paper's Algorithm 2 (query.go). The graph is
// package graph's, the bound functions package dp's, and the checks before and after
// (hitting set, DP audit) package check's. docs/DESIGN.md states the mathematics and
// why the engines are correct; comments cite it as "docs/DESIGN.md §N".
//
// Invariants (numbered as before the split: 1, the CSR, is now graph invariant 1):
//
//  2. A pass (Pass) computes, for output c, g_c(w) = min over hitting-set vertices h of
//     U^dist(w,h)(a_c(h)), where a_c(h) = Pr[M(h) = c] (docs/DESIGN.md §3.1), on
//     Pr[M = c] itself (pass 0 in keys that hold it exactly on both sides of ½).
//     Vertices whose value is 1 (no hitting-set vertex constrains them) have no
//     binding vertex (-1), except hitting-set vertices, which bind themselves at
//     distance 0 unless another hitting-set vertex forces a strictly lower value.
//  3. Ties between hitting-set vertices are broken by a total order on candidates:
//     value, then the value history back to the source, then the binding vertex's
//     position in the instance (keys in instance.go; docs/DESIGN.md §3.4; a renamed
//     rounds run compares the same positions: invariant 9). The binding vertex is the smallest
//     candidate and the reported distance is the true shortest distance to it. The
//     propagation engine pops candidates in exactly this order (the sorted hitting
//     set merged with a FIFO).
//  4. Every mechanism Solve returns (any engine) satisfies the four (ε,δ)-DP
//     inequalities on every edge exactly, as real numbers: each dataset's exact value
//     (invariant 7) as the exact binary fraction, the true e^ε (package dp). The
//     proof: each pass is a fixed point of U* rounded in the safe direction (dp,
//     invariants 1, 2 and 9), so same-answer edges hold; a boundary edge has an end h
//     in the hitting set, whose value Solve makes exactly consistent in both passes
//     (repair), and then both directions of the other end's bound follow from the
//     fixed points (docs/DESIGN.md §8.1). Pass 1 seeds a tail rounded down, so a
//     tail's edges are checked exactly after the solve (Pass.TailViolation; failing,
//     the instance is infeasible). Every written value lies on the safe side of the
//     exact optimum of the solved hitting-set values, by at most one rounding per hop
//     of the binding path, relative to the value the pass holds.
//  5. Engines are deterministic: the same instance gives bit-identical results for any
//     GOMAXPROCS.
//  6. Query (the paper's Algorithm 2, one vertex at a time) returns exactly what Solve
//     writes for that vertex: p_one, p_true, binding vertex and distance. It assumes a
//     feasible instance; feasibility needs the whole graph (Violations).
//  7. A mechanism is held by exact values (dp.ExactOfPTrue: p_one where that is
//     exactly Pr[M = 1], else −p_true for an answer-0 tail): the hitting set as given
//     (Instance.HitValue, never 1 − p_true rounded), each dataset from the pass of its
//     own answer (OutputExact), written as p_one and p_true (dp.ExactColumns), and
//     audited on them (dp.ExactValues; docs/DESIGN.md §8.3).
//  8. Block-centric rounds (rounds.go): a shard's candidates, after Settle, are a local
//     fixed point — no arc inside the shard improves them — and each is the key-minimum
//     of invariant 3 over the walks inside the shard from what it was offered. Offer
//     sends only across cut arcs, only from vertices the last Settle changed, and
//     rounds stop when no offer is sent; the result is then Propagate's bit for bit,
//     and the number of rounds is at most the largest number of shard crossings on a
//     binding path, plus two (the first round and one whose offers change nothing).
//     Offer does not send what the shard knows cannot beat its target's candidate
//     (an upper bound learnt from the offers Settle received: Stepper.knownBounds);
//     dropping those changes no state, only rounds that would change nothing: a
//     path in k shards takes k rounds. The kernel works on shard-local dense
//     indices (Cut: a shard's foreign neighbours numbered once, grouped by shard):
//     offers are combined per foreign vertex in arrays, never in maps keyed by
//     vertex, and come out sorted without a sort. The rounds engine settles every
//     shard of a round before any offers, then merges the offers, step by step, into
//     per-shard boxes for the next round (roundbox.go), which keep for each vertex
//     the least offer that beats its candidate and, of equal ones, the lowest
//     sender: what Settle would seed from and Offer read its bounds from, had they
//     read the lists; they read the box in place, in memory by vertex, not by arc.
//     Its senders also drop the offers to vertices whose candidates are below the
//     round's floor (offer.go, floor: Step of the least candidate the round
//     changed), which the merge would drop on their value: the boxes are the same.
//  9. Rounds may cut a renaming of the graph into shards (Rounds.Relabel, relabel.go:
//     breadth-first order, graph invariant 6) and returns the same field bit for bit
//     as without it: a candidate's Bind is always the binding vertex's position in the
//     instance, never its renamed one, so the order of invariant 3 — the only place a
//     position decides anything — is unchanged, and the field is laid out back in the
//     instance's positions. The renaming changes what is cut, not what is computed.
package bfs
