package beam

import (
	"fmt"

	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
)

// The memory of a run on Prism (docs/BEAM.md, "Memory on Prism"). Prism runs the
// whole job in the launcher's process: its job service, its element manager, which
// holds every GroupByKey's input until the stage reads it, the SDK harness that runs
// our DoFns (each bundle's input arrives as one gRPC message and is decoded there,
// and the stage's output is buffered by Prism as it comes back), the worker cache of
// blocks (cache.go) and the launcher's gathers. So a Prism run holds several copies
// of each shuffle at once: the model is per edge row and per vertex, measured on
// uniform random graphs (10^6 to 10^8 edge rows) as the peak RSS of the build
// pipeline and of the solve (rounds, audit, finish), with the Go collector's slack
// included (GOGC = 25). On a cluster the workers hold this, spread over them, and the
// launcher only its gathers (O(hitting set) and one shard's output rows): the model
// is checked on Prism only.
const (
	// The binary, Prism's job service and harness, their buffers.
	prismFixedBytes = 64 << 20
	// The build: three shuffles of the edge rows (two id joins and the shard
	// assembly, 30–45 bytes a row encoded), each held by Prism and the harness in
	// several copies, and the joins' id index and the blocks being assembled.
	// Measured 141–152 bytes a row (151.6 at 10^8 rows). Below 2^22 vertices the
	// broadcast join (broadcast.go) shuffles the rows once, but reads and assembles
	// more of them at once: 10^7 rows peaked at 1.26–1.30 GiB (135–139 bytes a row,
	// everything included), still under the model.
	prismBuildBytesPerRow    = 160
	prismBuildBytesPerVertex = 40 // vertex and hitting-set rows, the id index
	// The solve: the blocks (4 bytes an arc, kept by the worker cache), their cuts
	// (bfs.Cut: 8 bytes a cut arc), a round's offers as Prism and the harness hold
	// them and as the settle decodes them, the candidates of both colours and the
	// finish's neighbour values. Measured 140 bytes a row and about 200 a vertex at
	// 10^7 rows (10 shards); at 10^8 rows (96 shards, 99% of the arcs cut) the
	// rounds reached 218 bytes a row and were still held at the Go memory limit.
	// Since the rounds on Prism pass their offers through staging and the process
	// returns each pipeline's garbage, the solve measured 63–70 bytes a
	// row at 10^7 rows (peak RSS 605–665 MiB against the model's 2.3 GiB): the
	// model now errs high for the solve, and is kept until the 10^8-row run is
	// measured again (docs/BEAM.md, "Memory on Prism").
	prismSolveBytesPerRow    = 220
	prismSolveBytesPerVertex = 220
)

// prismMemory models the peak of a Prism run over pl's inputs: Build is the build
// pipeline's, Engine the solve's.
func prismMemory(pl *planned) load.Memory {
	rows, n, hit := pl.rows[fileEdges], pl.rows[fileVertices], pl.rows[fileHit]
	return load.Memory{
		Build:  prismFixedBytes + prismBuildBytesPerRow*rows + prismBuildBytesPerVertex*(n+hit),
		Engine: prismFixedBytes + prismSolveBytesPerRow*rows + prismSolveBytesPerVertex*n,
	}
}

// checkMemory refuses, before any pipeline runs, a Prism job whose modelled peak m
// exceeds the budget: a *job.ConfigError (exit status 2), nothing written.
// Only the inputs' plans (ingest.PlanFile) have been made.
func checkMemory(j *job.Job, pl *planned, m load.Memory, budget int64, source string) error {
	need, phase := m.Build, "the build pipeline"
	if m.Engine > need {
		need, phase = m.Engine, "the rounds and the finish"
	}
	if budget <= 0 || need <= budget {
		return nil
	}
	return &job.ConfigError{Source: j.Edges, Problems: []string{fmt.Sprintf(
		"on Prism the job needs about %s at its peak (%s; %d vertices, %d edge rows: Prism runs every stage in this process and holds each shuffle in memory, docs/BEAM.md, \"Memory on Prism\"), more than the %s %s allows; nothing written. "+
			"More shards or workers do not lower it on Prism: run it on a cluster (beam: runner flink, spark or dataflow, with a staging folder), whose workers share it, or with --runner local, which holds the graph in a tenth of the memory",
		gib(need), phase, pl.rows[fileVertices], pl.rows[fileEdges], gib(budget), source)}}
}

func gib(b int64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }
