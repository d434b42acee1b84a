package pipeline

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
)

// Memory is the model of docs/PERFORMANCE.md ("Memory model"): the bytes a run holds
// live at the peak of each phase, from the sizes of its inputs. The Go runtime's
// slack (garbage between collections) comes on top; a memory limit (GOMEMLIMIT)
// bounds it.
type Memory struct {
	Build  int64 // the graph build: scratch of 12 bytes an edge row and its slack, offsets, vertices
	Engine int64 // the engines, the audit and the write: the graph, vertices, fields
}

// Peak is the larger phase.
func (m Memory) Peak() int64 { return max(m.Build, m.Engine) }

// Per-vertex and per-row bytes of the model; memory_test.go checks them against the
// code's allocations.
const (
	// The graph: Adj (two int32 arcs a kept edge: at most 8 a row) and Off (int64).
	adjBytesPerRow    = 8
	offBytesPerVertex = 8
	// Both colours' fields (value, binding, distance: 16 bytes each), their FIFOs
	// (8-byte entries; a queue was measured to hold up to about three quarters of
	// the vertices on uniform random graphs, so about 6 bytes a vertex each), the
	// hitting-set check's index and the output's own columns. The vertices' id
	// index is dropped before the build but still counted here (4 bytes a vertex
	// with dense ids): the model errs high.
	engineBytesPerVertex = 64
)

// EstimateMemory models a run on vs and an edges file of rows rows.
func EstimateMemory(vs *ingest.Vertices, rows int64) Memory {
	n := int64(vs.IDs.Len())
	base := vs.Bytes() + offBytesPerVertex*n
	return Memory{
		Build:  base + graph.ScratchBytes(rows), // heads (→ Adj) and tails' block offsets, 12 bytes a row, and slack
		Engine: base + adjBytesPerRow*rows + engineBytesPerVertex*n,
	}
}

// memoryBudget is MemoryBudget; tests swap it.
var memoryBudget = MemoryBudget

// MemoryBudget is what a run may hold: the Go runtime's memory limit (GOMEMLIMIT)
// when one is set, else the machine's memory (MachineMemory). source says which.
func MemoryBudget() (bytes int64, source string) {
	if l := debug.SetMemoryLimit(-1); l < math.MaxInt64 {
		return l, "the Go memory limit (GOMEMLIMIT)"
	}
	return MachineMemory()
}

// MachineMemory is the memory this process may use: its cgroup's limit (v2
// memory.max, v1 memory.limit_in_bytes) when there is one, else the machine's
// MemTotal; 0 where neither can be read.
func MachineMemory() (bytes int64, source string) {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err == nil && v > 0 && v < 1<<60 {
			return v, "the cgroup limit (" + f + ")"
		}
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10, "the machine's memory (MemTotal)"
			}
		}
	}
	return 0, ""
}

// checkMemory refuses, before the work, a job whose modelled peak exceeds the
// budget: a *ConfigError (exit status 2), nothing written, instead of a run the
// kernel kills half way. engine is false for commands that only build the graph.
func checkMemory(job *Job, vs *ingest.Vertices, rows int64, engine bool) error {
	budget, source := memoryBudget()
	if budget <= 0 {
		return nil
	}
	m := EstimateMemory(vs, rows)
	need, phase := m.Build, "the graph build"
	if engine && m.Engine > need {
		need, phase = m.Engine, "the engine"
	}
	if need <= budget {
		return nil
	}
	return &ConfigError{Source: job.Edges, Problems: []string{fmt.Sprintf(
		"the job needs about %s at its peak (%s; %d vertices, %d edge rows: docs/PERFORMANCE.md, \"Memory model\"), more than the %s %s allows; nothing written (a machine with more memory, or a higher GOMEMLIMIT if the machine has it)",
		gib(need), phase, vs.IDs.Len(), rows, gib(budget), source)}}
}

func gib(b int64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }
