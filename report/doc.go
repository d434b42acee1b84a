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
//     has an SVG title without it); nothing fetched (no scripts, fonts, stylesheets
//     or images by URL). All text from the inputs (ids, paths) goes through
//     html/template's escaping; the script reads ids only from attributes and writes
//     them only as text.
//  5. The dataset graph is drawn when it has at most MaxDrawnDatasets datasets and
//     MaxDrawnEdges edges (else the page says why): one mark per dataset in position
//     order, a circle for answer 0 and a square for answer 1, ringed exactly when in
//     the hitting set; boundary edges (ends answering differently) in a path of their
//     own; each dataset's binding path a shortest path of the graph from it to its
//     binding vertex. The layout is computed in Go from the graph alone (seeded,
//     fixed schedule), so the same inputs give the same page byte for byte
//     (invariant 1); the script changes only what the page shows, never its bytes.
//  6. The least-accurate table of the page has one row per accuracy level (p_true to
//     9 decimals) among the LeastLevelsShown lowest, with every dataset at that level
//     counted and the first few by position named; JSON and text keep the
//     LeastAccurateListed datasets one by one.
package report
