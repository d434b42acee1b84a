// Package check holds the whole-graph checks graphdp applies around the engines: that a
// hitting set touches every boundary edge (Hitting, before solving) and the exact
// (ε,δ)-DP audit of a mechanism on every edge (Verify, Auditor, after solving; the
// paper's definition of DP for a binary mechanism, docs/DESIGN.md §1.4). They are apart
// from the engines (package bfs) so that the audit cannot share a mistake with what it
// audits: it reads only the graph, the p_one values and the bound functions of package
// dp. It also compares a mechanism with a hitting set and the optimum (CompareOptimal,
// graphdp verify), and decides which datasets a mechanism answers deterministically
// and whether that is private (FindDeterministic, deterministic.go: used by run, the
// Beam runner and report alike), and a mechanism's Stats (stats.go), likewise. It imports graph, dp and internal helpers only.
//
// Invariants:
//
//  1. Each undirected edge is examined once, as (u, v) with u < v in CSR order; vertex
//     ranges are scanned concurrently and merged in order, so every result (counts,
//     the first `limit` edges listed, the worst edge) equals one sequential pass and
//     does not depend on GOMAXPROCS.
//  2. The audit decides every inequality exactly (dp invariant 3: Lower(x) ≤ y ≤
//     Upper(x) ⟺ the four inequalities hold as real numbers); float64 shortcuts
//     (dp.ApproxBounds) only skip edges clearly inside both bounds. A NaN probability
//     always fails.
//  3. Audit.Worst is the most violated (edge, output) when any inequality is broken,
//     else the tightest one, and its Excess is exact (dp invariant 5).
//  4. Auditor and HitCheck.Edge are the per-edge rules: Verify and Hitting are
//     loops over them, and a cluster runner that calls them per shard and sums gets
//     the same counts. Verify's merge of its ranges (Audit.Merge), its second pass
//     (Audit.Unranked) and its exact worst (Audit.Exact) are functions too, so a
//     runner that applies them to its shards gets Verify's Audit field for field.
//  5. A deterministic dataset (p_one exactly 0 or 1) is private exactly when it has
//     neighbours and every DP inequality on its edges holds; Private + NotPrivate =
//     Count and Isolated + Unconstrained + Forced = Count (Deterministic).
//  6. Stats (stats.go) are a mechanism's figures — mean p_true, the truthful count,
//     the per-answer Classes — summed in the order datasets are added: run, the
//     Beam launcher and report add them in position order and agree to the bit.
package check
