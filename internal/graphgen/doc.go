// Package graphgen makes synthetic dataset graphs for benchmarks and tests: the graph
// families of PERFORMANCE.md, "The graphs" (uniform random, R-MAT, grid, hypercube, the
// per-source engine's bad path), each with answers and a feasible partial mechanism on
// a boundary-hitting set, in vertex positions 0..n−1.
//
// Invariants:
//
//  1. Deterministic: a Spec gives the same vertices, edges and hitting set
//     whatever GOMAXPROCS is (edge chunks are generated in parallel from
//     per-chunk seeds and delivered in order).
//  2. The hitting set is a boundary-hitting set and its values admit a DP
//     extension: either the balanced α of the paper's corollary
//     (docs/DESIGN.md §10.3) on boundary vertices, or (path) values whose
//     consecutive pairs satisfy the paper's feasibility lemma (docs/DESIGN.md
//     §3.3), hence every pair does (U is monotone).
//  3. Edges are streamed in chunks; nothing of size E is held in memory.
//
// Why this folder: scripts/gen (writes a job), scripts/bench (the benchmark table)
// and pipeline's benchmarks all need the same graph families, and none of the
// pipeline's stages is their home; internal/ keeps the generators out of the
// module's public API.
package graphgen
