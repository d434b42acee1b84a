// Package optimize answers the question the paper leaves open: which hitting-set
// values should a user give? For weights w(v) ≥ 0 and an objective (objective.go:
// the expected accuracy Σ w(v)·p_true(v), the balanced one that weighs each answer
// the same in total, or the worst-served dataset's p_true) it finds the (ε,δ)-DP
// mechanism maximising it over ALL DP mechanisms meeting optional floors on p_true,
// and the values on a boundary-hitting set whose optimal extension (package bfs, the
// paper's main theorem, docs/DESIGN.md §3.2) is that mechanism. docs/OPTIMIZE.md
// states the method and what was measured.
//
// The LP. In x_v = p_one(v) in a box B_v ([0, 1]; with floors [Floor[1], 1] for
// answer 1 and [0, 1 − Floor[0]] for answer 0), every edge {u, v} and both of its
// arcs u→v:
//
//	−δ ≤ e^ε·x_v − x_u ≤ e^ε − 1 + δ
//
// (the left inequality is x_u ≤ e^ε·x_v + δ, the right one 1 − x_u ≤ e^ε·(1 − x_v) + δ:
// the four inequalities of docs/DESIGN.md §1.4). Maximise c0 + Σ s_v·x_v with
// s_v = w'(v) for answer 1, −w'(v) for answer 0, and c0 = Σ of the answer-0 weights
// (w' the objective's weights). Every constraint has two variables and is monotone (a
// TVPI system); its dual is a generalised flow. For any multipliers y (one per arc,
// any sign) weak duality gives
//
//	OPT ≤ UB(y) = c0 + Σ_v max over x_v ∈ B_v of (s_v + (Kᵀy)_v)·x_v + Σ_arcs (δ·y⁺ + (e^ε − 1 + δ)·y⁻),
//
// (Kᵀy)_v = Σ over v's arcs p of e^ε·y[reverse of p] − y[p]: the box is kept as
// is, so every y is dual feasible and no projection is needed (without floors the
// first sum is Σ_v (s_v + (Kᵀy)_v)⁺).
//
// The pipeline (optimize.go):
//  1. The balanced α on the hitting set (the paper's corollary, docs/DESIGN.md §10.3),
//     extended: the baseline and the warm start; then the best boundary-homogeneous
//     pair of the boundary-homogeneous corollary (docs/DESIGN.md §3.6; homogeneous.go), the other candidate.
//  2. The dual of the best candidate's binding forest (forest.go): multipliers that
//     certify it where it is optimal, without a PDHG step; else PDHG's start.
//  3. PDHG (pdhg.go) on the LP until the float gap estimate is below the target.
//  4. Rounding (round.go): the approximate x is mixed with the uniform ½ just enough
//     that every arc row holds, restricted to the hitting set, and extended by
//     bfs.Solve. The paper's feasibility lemma then holds for the restriction (it is
//     the restriction of a DP mechanism), and the extension dominates the mixed point
//     at every vertex (main theorem), so rounding can only add utility.
//  5. Certification (bound.go): UB of the best multipliers seen, with directed
//     rounding and the certified enclosure of e^ε (dp.Pair.EBounds); the utility of
//     the extended mechanism rounded down. Stop when UB − utility ≤ gap·utility, else
//     iterate further.
//
// Every framework (lines.go, docs/DESIGN.md §11.7): the rows above are one family
// per line c·a + d of the framework's U* (e^ε and δ replaced by c and d) — one line
// for (ε,δ), one per profile row, one per piece of a trade-off curve (the LP is
// exact), and for μ-GDP chords below U* in the solve (an inner polytope) with the
// parallel tangents above it in the certificate (an outer one). "DP" below means
// the job's framework; for μ-GDP, Upper bounds the outer LP, hence every μ-GDP
// mechanism, and the gap covers the relaxation.
//
// Invariants:
//
//  1. Result.Upper ≥ the LP optimum, for the true e^ε and the exact real arithmetic of
//     the LP (directed rounding, bound.go); Result.Utility ≤ the exact Σ w·p_true of
//     Result.Solution. Hence Utility ≤ OPT ≤ Upper, and Gap = Upper − Utility is a
//     certified bound on how far the mechanism is from the best one.
//  2. Result.Solution is exactly (ε,δ)-DP (bfs invariant 4): it is bfs.Solve's optimal
//     extension of Result.PTrue on Result.Hit, which are solved without any repair, so
//     `graphdp run` on those values computes it bit for bit.
//  3. Result.Utility ≥ Result.Balanced and ≥ Result.Homogeneous.Utility whenever
//     they meet the floors (without floors, always): they are candidates and the
//     best certified one is kept.
//  4. Deterministic: the same problem and options give the same result whatever
//     GOMAXPROCS (vertex ranges are fixed by the graph and Options.Workers; sums are
//     added in range order) — except that Options.MaxTime, Deadline and FirstBy
//     make the stopping point depend on the clock.
//  5. ε = δ = 0 is solved exactly (pure.go: one value per component).
//  6. Floors (objective.go) are met exactly: every answer-1 p_one ≥ Floor[1], every
//     answer-0 p_true = 1 − p_one (the real number) ≥ Floor[0]. Floors no float64
//     DP mechanism meets are refused with a *FloorError naming the largest ones that
//     are met; the decision is exact (dp.Pair.Upper) and checked against an exact
//     rational LP in tests.
//  7. Worst: Result.Worst.Floor is the largest float64 t such that some float64 DP
//     mechanism meeting the asked floors has every p_true ≥ t, the mechanism
//     returned has min p_true ≥ it, and no real DP mechanism reaches
//     Result.Worst.Upper. With a boundary edge and no floor above it, Floor is
//     dp.Pair.Balanced(), the balanced α of the paper's corollary, rounded down.
package optimize
