// Package dp holds the privacy bound functions of graphdp in certified arithmetic:
// the paper's suitable pair (L, U) on p_one = Pr[M = 1] for (ε,δ)-DP (EpsDelta) and,
// through the framework-generic Pair, for μ-GDP, privacy profiles and f-DP trade-off
// curves (docs/DESIGN.md §11), the
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
//     with a running error bound — for (ε,δ) first by a fused evaluation of the
//     branch's affine form with one proven bound (edfast.go), then by the general
//     double-double path (dd.go) where that cannot decide; when neither bound can
//     decide the rounding, the value is recomputed with math/big at growing
//     precision (bigfallback.go), so the result never depends on luck.
//  5. Excess(x, y, output) is the largest real difference (left − right) of that
//     output's two inequalities, rounded to the nearest float64, with its sign exact;
//     it is for reports only.
//  6. Every float64 operation here is rounded on its own, on every architecture. Go
//     lets a compiler fuse a*b + c into one fused multiply-add, and on arm64 (and
//     amd64 built with GOAMD64=v3, ppc64, s390x, riscv64) it does, across inlined
//     calls too: twoProd's p = a·b would be fused into the caller's twoSum(p, …),
//     whose error term then no longer holds, and a mechanism could break DP by an
//     ulp (it did, on arm64, before this rule). A product that feeds a sum is
//     therefore written float64(a*b), a conversion the language defines to round;
//     math.FMA is written out where a fused operation is meant.
//     TestNoImplicitFusedMultiplyAdd compiles the package for arm64 and checks.
//  8. For every framework, Pair.Upper(a) = RD(U*(a)) and Pair.Lower(a) = RU(L*(a))
//     for the framework's real bounds (f-DP on an edge: U* = 1 − f_s, L* = f_s(1 − ·)):
//     μ-GDP from double-double ball enclosures of Φ and Φ⁻¹ (normaldd.go, gdpdd.go;
//     every truncation bounded, no float64 special function trusted), and where those
//     cannot decide the rounding from math/big enclosures (normal.go) at growing
//     precision; profiles as min/max of (ε,δ) bounds (only the pairs whose estimates
//     come within 2·ApproxMargin of the binding one are computed exactly), curves in
//     exact rationals. Invariants 1–4 hold for every framework; Allowed is the only
//     audit.
//  9. Across(x) is [RU(1 − U*(x)), RD(1 − L*(x))]: the float64 values allowed for the
//     other output's probability at a neighbour (across.go), exact for every
//     framework, and AcrossLower its lo by the fast paths; OneMinus rounds 1 − p in a
//     chosen direction and says when it is exact.
//  10. An exact value (exact.go) holds a dataset's mechanism in one float64: p_one
//     where that is exactly Pr[M = 1], else −p_true. ExactColumns writes it as p_one
//     and p_true, ExactValue reads it back from them, bit for bit.
//  11. Every framework is one registered Spec (registry.go), (ε,δ) first: its keys and
//     flags are its own, Make(Values(p)) states the same pair as p, and
//     ParseStatement(p.Statement()) is p again (TestRegistry). The layers above dp
//     look frameworks up there and never switch on their names.
package dp
