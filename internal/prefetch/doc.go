// Package prefetch asks the CPU to start loading cache lines that a hot loop will
// read a little later. The engine (package bfs) and the audit (package check)
// read one random cache line per settled vertex or per arc: the vertex's offsets
// and list, its reached and settled bits, its field slots. A plain load issued
// early as a "prefetch" still has to complete before the instructions after it
// retire, so with a few hundred instructions of work per vertex such loads wait
// one after another; a prefetch instruction does not wait, so the misses of
// several vertices ahead overlap (docs/PERFORMANCE.md, "Engine (propagate)").
//
// Go has no prefetch intrinsic for user code, so the instructions are in
// assembly for amd64 (PREFETCHT0) and arm64 (PRFM PLDL1KEEP); on other
// architectures the functions do nothing.
//
// Invariants:
//
//  1. A prefetch never changes what a program computes: it reads nothing into
//     registers, writes nothing, and cannot fault (an address outside the
//     process is ignored by the CPU). Callers still pass addresses inside their
//     slices, so the package is correct on any CPU.
//  2. The functions do no bounds checks: the indices given to At, Each and Bits
//     are the caller's, and are within the slice whenever the caller's later
//     loads are.
package prefetch
