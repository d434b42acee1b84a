// Package report explains a mechanism to the people who use it: how accurate it is
// (p_true = Pr[M(v) = answer(v)]) across datasets, why (mean accuracy by distance to
// the binding hitting-set vertex), how it compares with randomized response, and
// whether it passes the (ε,δ)-DP audit, which datasets are least accurate, and the
// dataset graph itself (whole when small, else one dataset's neighbourhood at a
// time). Compute gathers the numbers; Text, JSON and HTML render them.
//
// Invariants:
//
//  1. Every number is a pure function of the mechanism, the graph and (ε, δ): no
//     sampling, no timing, so reports of the same inputs are identical.
//  2. Counts partition the datasets: the histogram bins, the accuracy levels, the
//     distance groups, and gain + equal + lose against randomized response each sum to
//     Datasets.
//  3. Definitions (also in docs/TOOLKIT.md, "graphdp report"): histogram bins are [k/20, (k+1)/20), the last one
//     closed; quantiles are nearest-rank (the ⌈q·n⌉-th smallest); an accuracy level is
//     p_true rounded to 9 decimals; a dataset gains on randomized response when its
//     p_true exceeds α = (e^ε+δ)/(e^ε+1) by more than Tolerance, loses when below by
//     more, and is equal otherwise. The audit is check.Verify with zero tolerance.
//     Per answer (check.Stats, check/stats.go): sensitivity and specificity are the unweighted mean
//     p_true of the answer-1 and answer-0 datasets (1 for an answer with none), the
//     balanced accuracy their mean; a mechanism is degenerate when p_one varies by at
//     most check.ConstantWithin while both answers occur, or an answer's mean is below
//     PoorMean. A deterministic dataset (p_one 0 or 1) is private exactly when it has
//     neighbours and every DP inequality on its edges holds (check.FindDeterministic:
//     the rule lives beside the audit; report only states it).
//  4. The HTML pages are self-contained: styles inline (style.css, shared by the
//     report and optimize's region page), plots as inline SVG, and on the report one
//     inline script (graph.js: hover, click, search, zoom and pan; every dataset also
//     has an SVG title without it; or explore.js, invariant 7); nothing fetched (no
//     scripts, fonts, stylesheets or images by URL). All text from the inputs (ids,
//     paths) goes through html/template's escaping, or (the neighbourhood view's
//     ids) is inert data the script reads; the script reads ids only from attributes
//     or that data and writes them only as text. Every count on the page has its
//     thousands grouped (words.Thousands).
//  5. The dataset graph is drawn whole when it has at most MaxDrawnDatasets datasets
//     and MaxDrawnEdges edges: one mark per dataset in position order, a circle for
//     answer 0 and a square for answer 1, ringed exactly when in the hitting set;
//     boundary edges (ends answering differently) in a path of their own; each
//     dataset's binding path a shortest path of the graph from it to its binding
//     vertex, each hop to the lowest-position neighbour one hop closer. The layout
//     is computed in Go from the graph alone (seeded, fixed schedule), so the same
//     inputs give the same page byte for byte (invariant 1); the script changes only
//     what the page shows, never its bytes.
//  6. The least-accurate table of the page has one row per accuracy level (p_true to
//     9 decimals) among the LeastLevelsShown lowest, with every dataset at that level
//     counted and the first few by position named; JSON and text keep the
//     LeastAccurateListed datasets one by one.
//  7. A larger graph, up to MaxEmbeddedDatasets datasets and MaxEmbeddedEdges
//     edges, is embedded whole (explore.go: each edge once, as varint gaps from its
//     lower end; every dataset's id, answer, p_true, hitting-set membership,
//     determinism, binding dataset and distance), and explore.js draws the
//     neighbourhood of a dataset searched for: its binding path, by the rule of
//     invariant 5, and the datasets within k ≤ MaxHops hops, the nearest first (by
//     breadth-first order), at most MaxDrawnDatasets datasets and MaxDrawnEdges
//     edges. The data are a pure function of the inputs (invariant 1); the layout,
//     in the browser, of the neighbourhood alone, from a fixed start. Past those
//     limits the page says it draws no graph, and why.
//  8. The histogram's count axis is linear from 0, or logarithmic (powers of ten)
//     when the largest bin holds more than LogRatio times the smallest non-empty
//     one; the y-axis title sits left of the widest tick label.
package report
