// Package load is graphdp's shared loader and its memory model: Load and
// LoadInputs read a job's tables as a Request says (which tables, whether a graph,
// which engine the memory check models), for run (package pipeline) and for every
// other command's use case (package toolkit), so that all of them get the same
// readers, typed errors, streamed graph build and memory check.
//
// Invariants:
//
//  1. The vertices are read first (they define the ids); the edges in one pass that
//     checks every row and adds its arcs to the graph's build (graph.Builder), the
//     other tables a Request names concurrently with it. The edge rows are never held
//     (docs/PERFORMANCE.md, "Memory model").
//  2. Before the edges' pass, a job whose modelled memory (memory.go) exceeds the
//     budget is refused: a *job.ConfigError (exit status 2), nothing read further,
//     nothing written. The engine's share counts only when a hitting set is read.
//  3. Load reads what the Request says and nothing else: no caller edits the job to
//     steer it.
package load
