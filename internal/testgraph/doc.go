// Package testgraph holds the small graphs the tests of graph, check, cover and bfs
// share (as gonum's graph/testgraph does): named graph families, the paper's Figure 1,
// random boundary-hitting sets and feasible hitting-set values drawn from random DP
// mechanisms. It is for tests only (internal/), and imports only graph and dp, so the
// in-package tests of bfs can use it.
//
// Invariants:
//
//  1. Every generator is a function of its *rand.Rand: the same seed gives the same
//     graph, hitting set and values.
//  2. BoundaryHittingSet touches every boundary edge (an edge whose ends answer
//     differently).
//  3. RandomProblem's values are the restriction of a DP mechanism (Gibbs steps inside
//     the DP set, exactly: package dp), the balanced α, or 0/1 where that mechanism
//     reaches them, so a DP extension always exists (the paper's feasibility lemma,
//     docs/DESIGN.md §3.3).
package testgraph
