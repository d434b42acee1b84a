// Package report explains a mechanism to the people who use it: how accurate it is
// (p_true = Pr[M(v) = answer(v)]) across datasets, why (mean accuracy by distance to
// the binding hitting-set vertex), how it compares with randomized response, and
// whether it passes the (ε,δ)-DP audit. Compute gathers the numbers; Text, JSON and
// HTML render them.
//
// Invariants:
//
//  1. Every number is a pure function of the mechanism, the graph and (ε, δ): no
//     sampling, no timing, so reports of the same inputs are identical.
//  2. Counts partition the datasets: the histogram bins, the accuracy levels, the
//     distance groups, and gain + equal + lose against randomized response each sum to
//     Datasets.
//  3. Definitions (also in README): histogram bins are [k/20, (k+1)/20), the last one
//     closed; quantiles are nearest-rank (the ⌈q·n⌉-th smallest); an accuracy level is
//     p_true rounded to 9 decimals; a dataset gains on randomized response when its
//     p_true exceeds α = (e^ε+δ)/(e^ε+1) by more than Tolerance, loses when below by
//     more, and is equal otherwise. The audit is check.Verify with zero tolerance.
//  4. The HTML page is self-contained: styles inline, plots as inline SVG, nothing
//     fetched (no scripts, fonts, stylesheets or images by URL). All text from the
//     inputs (ids, paths) goes through html/template's escaping.
package report
