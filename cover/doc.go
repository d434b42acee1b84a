// Package cover finds a minimum boundary-hitting set: the smallest set of datasets
// that touches every boundary edge (an edge whose ends answer differently), which is
// what a hitting set must be before graphdp can solve (docs/DESIGN.md §7). The
// boundary edges form a bipartite graph (answer 0 against answer 1), so a minimum
// vertex cover is a maximum matching's size by König's theorem, and Hopcroft–Karp
// finds the matching in O(E·√V) (Boundary). It also holds the policies that give a
// hitting set its values (Policy: the paper's balanced α, one value, or one per
// answer). It imports graph and dp only.
//
// Invariants:
//
//  1. Mate is a matching of boundary edges (Mate[Mate[v]] = v, answers differ) and
//     it is maximum: no augmenting path is left when Boundary returns.
//  2. Vertices (ascending) touches every boundary edge and len(Vertices) = Matching, so it
//     is a minimum cover (König); it is König's construction in the answer-0
//     orientation, the same for every maximum matching (whichever side the matching
//     grows from), so it depends on the graph and the answers alone.
//  3. Cancellation is checked once per Hopcroft–Karp phase; a cancelled call returns
//     ctx.Err() and no cover.
//  4. A Policy's value depends only on a vertex's answer; the Balanced policy is
//     feasible on every boundary-hitting set (docs/DESIGN.md §10.3).
package cover
