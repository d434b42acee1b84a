// Package dp holds the (ε,δ)-differential-privacy bound functions of graphdp in
// certified arithmetic: the paper's suitable pair (L, U) on p_one = Pr[M = 1], the
// exact per-edge audit, and the balanced value of its corollary (docs/DESIGN.md
// §1.4, §2 and §10.3). It is its own package because it *is* the privacy guarantee:
// every engine, the audit, query, hitting-set and the Beam runner call these
// functions, and an auditor can read them alone. It imports nothing of graphdp.
//
// Invariants (x, y float64 in [0, 1], read as exact binary fractions; Pr[M = 0] is the
// real number 1 − p_one, never its float rounding; e^ε is the true exponential of the
// float64 ε, enclosed by math/big, never math.Exp):
//
//  1. Upper(a) is the largest float64 b with (a, b) satisfying all four (ε,δ)-DP
//     inequalities exactly; it equals RD(U*(a)), the real bound
//     U*(a) = min(e^ε·a + δ, 1 − (1 − a − δ)·e^−ε, 1) rounded down. Upper(a) ≥ a.
//  2. Lower(a) is the smallest float64 b with (a, b) allowed: RU(L*(a)), with
//     L*(a) = max(1 − δ − e^ε·(1 − a), (a − δ)·e^−ε, 0) = 1 − U*(1 − a). Lower(a) ≤ a.
//  3. Allowed(x, y) ⟺ Lower(x) ≤ y ≤ Upper(x) ⟺ the four inequalities hold exactly.
//     The relation is symmetric, and this is the only audit graphdp applies.
//  4. Both bounds are non-decreasing. Each is computed in double-double arithmetic
//     with a running error bound; when that bound cannot decide the rounding, the
//     value is recomputed with math/big at growing precision (bigfallback.go), so the
//     result never depends on luck.
//  5. Excess(x, y, output) is the largest real difference (left − right) of that
//     output's two inequalities, rounded to the nearest float64, with its sign exact;
//     it is for reports only.
package dp
