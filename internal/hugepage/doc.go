// Package hugepage asks the kernel to back graphdp's large arrays — the CSR build's
// scratch, Adj and Off, the engine's bitmaps and fields — with transparent huge pages
// (2 MiB). The hot loops read these arrays at random, one access per arc or per
// settled vertex; with 4 KiB pages every such access also misses the TLB, and at 10^9
// edges the page tables themselves (tens of MB) no longer fit in the cache, so the
// page walk misses too (docs/PERFORMANCE.md, "Fresh memory and huge pages"). Huge pages make the
// page tables 512× smaller and first touch 512× fewer page faults.
//
// Invariants:
//
//  1. Advice never changes what a program computes: a slice holds the same values
//     before and after Advise, and Make and Alloc return what make returns (all zero). Where
//     huge pages are unavailable (another OS, THP "never", an old kernel) both are
//     plain allocation.
//  2. Only whole 2 MiB-aligned pages inside the slice are advised, so the advice never
//     reaches memory the slice does not own.
package hugepage
