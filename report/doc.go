// Package report explains a mechanism to the people who use it: how accurate it is
// (p_true = Pr[M(v) = answer(v)]) across datasets, why (mean accuracy by distance to
// the binding hitting-set vertex), how it compares with randomized response, and
// whether it passes the (ε,δ)-DP audit, which datasets are least accurate, and (when
// small) the dataset graph itself. Compute gathers the numbers; Text, JSON and HTML
// render them.
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
//     Per answer (classes.go): sensitivity and specificity are the unweighted mean
//     p_true of the answer-1 and answer-0 datasets (1 for an answer with none), the
//     balanced accuracy their mean; a mechanism is degenerate when p_one varies by at
//     most ConstantWithin while both answers occur, or an answer's mean is below
//     PoorMean. A deterministic dataset (p_one 0 or 1) is private exactly when it has
//     neighbours and every DP inequality on its edges holds (deterministic.go).
//  4. The HTML page is self-contained: styles inline, plots as inline SVG, one inline
//     script (the graph's hover; every dataset also has an SVG title without it),
//     nothing fetched (no scripts, fonts, stylesheets or images by URL). All text from
//     the inputs (ids, paths) goes through html/template's escaping.
//  5. The dataset graph is drawn when it has at most MaxDrawnDatasets datasets and
//     MaxDrawnEdges edges (else the page says why): one node per dataset in position
//     order, ringed exactly when in the hitting set, and each dataset's hover path is
//     a shortest path of the graph from it to its binding vertex. The layout is
//     computed in Go from the graph alone (seeded, fixed schedule), so the same
//     inputs give the same page byte for byte (invariant 1).
package report
