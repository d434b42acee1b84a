package load

import (
	"fmt"
	"runtime"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/memstat"
	"github.com/graphdp/graphdp/job"
)

// Memory is the model of docs/PERFORMANCE.md ("Memory model"): the bytes a run holds
// live at the peak of each phase, from the sizes of its inputs and the engine it
// names. The Go runtime's slack (garbage between collections) comes on top; a memory
// limit (GOMEMLIMIT) bounds it.
type Memory struct {
	Build  int64 `json:"build_bytes"`  // the graph build: scratch of 12 bytes an edge row and its slack, offsets, vertices
	Engine int64 `json:"engine_bytes"` // the engines, the audit and the write: the graph, vertices, fields
}

// Peak is the larger phase.
func (m Memory) Peak() int64 { return max(m.Build, m.Engine) }

// MemoryModel is a run's modelled memory (estimateMemory) and the budget it was
// checked against (defaultMemoryBudget; 0 when unknown).
type MemoryModel struct {
	Memory
	BudgetBytes  int64  `json:"budget_bytes"`
	BudgetSource string `json:"budget_source,omitempty"`
}

// Per-vertex and per-row bytes of the model; memory_test.go checks them against the
// code's allocations.
const (
	// The graph: Adj (two int32 arcs a kept edge: at most 8 a row) and Off (int64).
	adjBytesPerRow    = 8
	offBytesPerVertex = 8
	// Both colours' fields (value, binding, distance: 16 bytes each), their FIFOs
	// (8-byte entries; a queue was measured to hold up to about three quarters of
	// the vertices on uniform random graphs, so about 6 bytes a vertex each), the
	// count of components' union-find (4) and the output's own columns. The
	// vertices' id index is dropped before the build, and the hitting-set check now
	// reads bitmaps instead of a 4-byte index, but both are still counted here:
	// the model errs high.
	engineBytesPerVertex = 64
	// What the other engines hold beyond that. per-source runs both colours at once
	// (bfs.Solve), and each worker of a colour has its own field (16 bytes a vertex),
	// its keys' source values (8) and its visited stamps (4).
	perSourceBytesPerVertexWorker = 2 * (16 + 8 + 4)
	// rounds runs its colours one after the other (bfs.Rounds). A colour's pass has
	// its shards' candidates (bfs.Cand, 24 bytes a vertex) and their values apart
	// (8, what the merge of offers reads), their copies of the
	// offsets (8 bytes a vertex, 10 with the allocator's rounding: a default shard's
	// 4097 offsets take a 40 KiB block) and its field (16); the first colour's field
	// stays while the second runs (16), and the shard's cut (bfs.Cut, built once per
	// instance: its offsets, 4 bytes a vertex, and the numbers of its cut arcs and
	// foreign neighbours; 9 bytes a vertex measured by TestEngineMemoryPerVertex)...
	roundsPassBytesPerVertex = 24 + 8 + 10 + 16 + 9
	// The offers between shards are merged, a few steps of a round at a time, into
	// per-shard boxes for the next round (bfs/roundbox.go): the least candidate a
	// vertex was offered and its sender (32 bytes, side by side) and a bit, for the
	// round being read and the next one (65 bytes a vertex; the round's floor, a bit a
	// vertex, fits in its rounding), plus the lists held until a merge, at most bfs's
	// roundHeldOffers (2^22) offers of 28 bytes (112 MiB), and fewer when the graph has
	// fewer cut arcs (2 a row, 56 bytes)...
	roundsBytesPerVertex   = roundsPassBytesPerVertex + 16 + 65
	roundsHeldBytes        = 28 << 22
	roundsOfferBytesPerRow = 2 * 28
	// ...and the cuts, built once per instance: each cut arc's foreign number, its
	// position (bfs.Cut.ArcAt, which the senders read the floor by) and at most one
	// foreign vertex for it, 4 + 4 + 4 bytes, 2 arcs a row.
	roundsBytesPerRow = 2 * (4 + 4 + 4)
	// rounds with relabel other than none (bfs.Rounds.Relabel; auto is modelled as
	// if it renamed) also holds the renamed graph beside the instance's: its Adj (8
	// bytes a row, as adjBytesPerRow) and Off (8 a vertex), and the permutation both
	// ways (8), and the breadth-first order's queue (4) while it is made.
	relabelBytesPerVertex = 8 + 8 + 4
	relabelBytesPerRow    = adjBytesPerRow
)

// estimateMemory models a run of engine (a Job.Engine; "" is propagate) with relabel
// (a Job.Relabel; "" is none) on workers cores (0: GOMAXPROCS) on vs and an edges
// file of rows rows.
func estimateMemory(vs *ingest.Vertices, rows int64, engine, relabel string, workers int) Memory {
	n := int64(vs.IDs.Len())
	base := vs.Bytes() + offBytesPerVertex*n
	eng := base + adjBytesPerRow*rows + engineBytesPerVertex*n
	switch engine {
	case "per-source":
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		eng += perSourceBytesPerVertexWorker * int64(workers) * n
	case "rounds":
		eng += roundsBytesPerVertex*n + roundsBytesPerRow*rows + min(roundsOfferBytesPerRow*rows, roundsHeldBytes)
		if relabel != "" && relabel != bfs.RelabelNone {
			eng += relabelBytesPerVertex*n + relabelBytesPerRow*rows
		}
	}
	return Memory{
		Build:  base + graph.ScratchBytes(rows), // heads (→ Adj) and tails' block offsets, 12 bytes a row, and slack
		Engine: eng,
	}
}

// csvBytes is what a job's CSV inputs hold during Load's pass, beside the model's
// build: each CSV file read then (the edges, the hitting set, the mechanism, read at
// once) holds its reader's buffers, at most ingest.CSVReadBytes whatever its rows
// (ingest's 64 KiB limit on a row bounds it), and a CSV edges file is read whole
// first, its positions held until the pass ends (Src and Dst: 8 bytes a row). The
// vertices file is read before and its reader is gone by then.
func csvBytes(job *job.Job, req Request, rows int64) int64 {
	var b int64
	for _, p := range append([]string{job.Edges}, req.files(job)...) {
		if p != "" && ingest.IsCSV(p) {
			b += ingest.CSVReadBytes
		}
	}
	if ingest.IsCSV(job.Edges) {
		b += 8 * rows
	}
	return b
}

// memoryBudget is what a run may hold (memstat.Budget); tests swap it.
var memoryBudget = memstat.Budget

// checkMemory refuses, before the work, a job whose modelled peak exceeds the
// budget: a *job.ConfigError (exit status 2), nothing written, instead of a run the
// kernel kills half way. The engine's share counts only when req reads a hitting set
// (the engine runs from one); else the graph build's.
func checkMemory(j *job.Job, req Request, vs *ingest.Vertices, rows int64, m Memory, budget int64, source string) error {
	if budget <= 0 {
		return nil
	}
	need, phase := m.Build, "the graph build"
	engine := req.HittingSet
	if engine && m.Engine > need {
		need, phase = m.Engine, "the engine"
		if req.Engine != "" && req.Engine != "propagate" {
			phase = "the " + req.Engine + " engine"
		}
	}
	if need <= budget {
		return nil
	}
	remedy := "a machine with more memory, or a higher GOMEMLIMIT if the machine has it"
	if p := estimateMemory(vs, rows, "propagate", "", j.Workers).Peak(); engine && p <= budget && p < need {
		remedy = fmt.Sprintf("--engine propagate, the same mechanism in about %s; or %s", gib(p), remedy)
	}
	return &job.ConfigError{Source: j.Edges, Problems: []string{fmt.Sprintf(
		"the job needs about %s at its peak (%s; %d vertices, %d edge rows: docs/PERFORMANCE.md, \"Memory model\"), more than the %s %s allows; nothing written (%s)",
		gib(need), phase, vs.IDs.Len(), rows, gib(budget), source, remedy)}}
}

func gib(b int64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }
