// Package graph holds the dataset graph of graphdp in compressed sparse row form:
// its build from edge rows (Build, in parallel blocks) or of one shard from its arcs
// (BuildShard, the same code: a cluster worker's block), its split into shards of
// consecutive vertices for the block-centric engines (Layout, Shard), how many
// cores a pass over it is worth (Workers) and that pass split among them
// (Parallel), and its connected components
// (CountComponents; per shard, LocalRoots and Spanning), a renaming of its
// vertices in breadth-first order so that shards hold connected pieces (BFSOrder,
// Relabel, CutArcs), and hop distances from a set of vertices (Distances, a
// direction-optimising search; DistancesFrom, several at once). It knows nothing
// of privacy;
// of graphdp it imports only internal/hugepage and internal/prefetch (advice to the
// kernel and the processor, no semantics).
//
// Invariants:
//
//  1. Vertices are dense positions 0..n−1 (int32); a Graph's Off has n+1 entries,
//     Off[0] = 0, Off[n] = len(Adj), and Adj[Off[v]:Off[v+1]] lists v's neighbours
//     sorted ascending, without duplicates and without v itself. Every edge is stored
//     in both directions.
//  2. Build's result depends only on its input rows, never on the number of workers
//     or GOMAXPROCS; BuildStats counts every input row once (Rows = SelfLoops +
//     Duplicates + Kept). A Builder given the same rows, in any units and batches,
//     builds the same Graph and BuildStats as Build.
//  3. A Layout's shards partition 0..N−1 into consecutive ranges of Size vertices (the
//     last may be shorter); a Shard is invariant 1 restricted to its range, with Adj
//     holding global positions.
//  4. Workers depends only on the graph's size and GOMAXPROCS, and no result of
//     the package depends on it (Build: invariant 2).
//  5. A Forest's root is the smallest element of its set. Shard.LocalRoots names each
//     local component by its smallest global position, so components labelled in
//     different shards, joined along their cut arcs by Spanning, are the components
//     Graph.CountComponents counts.
//  6. BFSOrder is a permutation of 0..n−1 (old → new) that depends only on the graph:
//     each component's vertices get consecutive numbers, in the order its lowest
//     position comes, breadth-first within. Relabel(perm) is g with every vertex and
//     every arc renamed by perm, a Graph of invariant 1: u–v is an edge of g exactly
//     when perm[u]–perm[v] is one of the result.
package graph
