// Package oracle is the tests' independent reference for graphdp's arithmetic: the
// (ε,δ)-DP bounds, their iterates and the paper's Algorithm 1, in math/big at Bits
// bits with no rounding between steps. It is a folder of its own so that dp's and
// bfs's tests share one reference, under internal because nothing else may use it.
//
// Invariants:
//
//  1. It shares no code with package dp: e^ε is summed from its Taylor series
//     directly, without dp's argument reduction or directed rounding, so a mistake in
//     dp cannot be repeated here.
//  2. Every step is computed at Bits bits; no intermediate value is rounded to
//     float64 (sums of float64 values in [0, 1] are exact at that precision).
//  3. It is imported by tests only.
package oracle
