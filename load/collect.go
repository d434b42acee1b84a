package load

import (
	"runtime"
	"runtime/debug"
)

// Collect is the collection between a run's stages, where the garbage is known (the
// read's buffers, the build's scratch, the engine's queues): it goes before the next
// stage allocates, so that the next arrays reuse its pages instead of adding fresh
// ones to the run's peak (docs/PERFORMANCE.md, "Fresh memory and huge pages"). A
// collection is of the whole process's heap, which may be much more than the run's (a
// test binary's, a library caller's), and below collectRows edge rows the pages it
// saves are fewer than what it costs, so a smaller run skips it.
func Collect(rows int64) {
	if rows >= collectRows {
		runtime.GC()
	}
}

// Return is Collect that also hands the free pages back to the system
// (debug.FreeOSMemory), for a peak that is garbage once a stage ends.
func Return(rows int64) {
	if rows >= collectRows {
		debug.FreeOSMemory()
	}
}

// collectRows is the edge-row count from which a run collects between its stages:
// 2^20 rows are 12 MiB of build scratch.
const collectRows = 1 << 20
