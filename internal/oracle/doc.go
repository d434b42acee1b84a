// Package oracle is the tests' independent reference for graphdp's arithmetic: every
// framework's real bounds (Bounds: (ε,δ) as Pair, μ-GDP as GDP, privacy profiles as
// Profile, f-DP trade-off curves as Curve), their iterates, the paper's Algorithm 1
// (Optimum, from exact p_true in own-answer coordinates), the exact per-edge audit of
// a real mechanism (Private) and a float64 rounding of the optimum as a witness that
// it is representable (Rounded), in math/big with no rounding to float64 between
// steps. It is a folder of its own so that dp's and bfs's tests share one reference,
// under internal because nothing else may use it.
//
// Invariants:
//
//  1. It shares no code with package dp, and where it can, no method: e^ε is summed
//     from its Taylor series directly, without dp's argument reduction or directed
//     rounding; Φ is the alternating Taylor series and the even contraction of the
//     continued fraction of erfc (dp: a positive series and Laplace's fraction), π the
//     arithmetic–geometric mean (dp: given digits), Φ⁻¹ Newton's method from a
//     bisection estimate (normal.go); a curve's f and f⁻¹ are weighted means of the
//     segment's ends in big.Float (dp: big.Rat), symmetrised as max(f, f⁻¹)
//     (docs/DESIGN.md §11.1, derived again in curve.go). A mistake in dp cannot be
//     repeated here.
//  2. No intermediate value is rounded to float64. (ε,δ), profiles and curves work at
//     Bits bits (e^ε summed to two thirds of them), μ-GDP at NormalBits (about 77
//     digits) of relative precision; sums,
//     differences and products of float64 values and of the values built from them
//     are exact (Sum, Diff, Prod, OneMinus size their precision to the result).
//  3. A probability near 1 keeps the relative precision of its complement: 1 − p_true
//     and every bound of the form 1 − q are exact subtractions from 1 (OneMinus), so a
//     value below 1 is never rounded to 1, and Pr[M ≠ answer] of a dataset with
//     p_true 1 − 2^-53 or 1e-300 is exact.
//  4. Every framework's pair is symmetric, L(a) = 1 − U(1 − a), so an edge's four
//     inequalities are b ≤ U(a) and a ≤ U(b) for each output's probabilities; Private
//     checks exactly those, both outputs, both directions. For a Shift (μ-GDP), U^d
//     and the audit are taken in its coordinate (Φ⁻¹), which is exact: U^d(a) =
//     Φ(Φ⁻¹(a) + d·μ).
//  5. It is imported by tests only.
package oracle
