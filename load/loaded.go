package load

import (
	"context"
	"fmt"
	"runtime/debug"

	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/memstat"
	"github.com/graphdp/graphdp/job"
)

// Loaded is a job's inputs, read and checked against each other.
type Loaded struct {
	Vertices  *ingest.Vertices
	Edges     *ingest.Edges          // File, Rows and Fingerprint: the rows are not kept (BuildGraph)
	Hit       *ingest.HittingSet     // Request.HittingSet, else nil
	Mechanism *ingest.Mechanism      // Request.Mechanism, else nil
	Table     *ingest.MechanismTable // Request.Table, else nil
	// DropBehind: the edges file is read without keeping it in the page cache
	// (dropBehind).
	DropBehind bool
	// Memory is the job's modelled memory and the budget Load checked it against.
	Memory MemoryModel
	// Provenance digests the inputs for the summary and the outputs' metadata.
	Provenance job.Provenance

	// The arcs of the edges file, added in Load's pass (BuildGraph finishes it).
	builder *graph.Builder
}

// Load reads a job's inputs: vertices first (they define the ids), then the edges
// and, concurrently, what req asks for (the hitting set, the mechanism). It is the
// one reader of inputs for every command (load.go). The edges' one pass checks every
// row and adds its arcs to the graph's build (graph.Builder); BuildGraph finishes
// it: the edge rows are never held (docs/PERFORMANCE.md, "Memory model"). Before the
// pass, Load refuses a job whose modelled memory exceeds the budget (memory.go:
// checkMemory; the engine's share when req reads a hitting set).
func Load(ctx context.Context, j *job.Job, req Request) (*Loaded, error) {
	prov, err := j.Provenance()
	if err != nil {
		return nil, &job.ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	ctx = j.Context(ctx)
	cols := j.IngestColumns()
	vs, err := ingest.ReadVertices(ctx, j.Vertices, cols)
	if err != nil {
		return nil, err
	}
	es, err := ingest.OpenEdges(ctx, j.Edges, cols, vs)
	if err != nil {
		return nil, err
	}
	defer es.Close()
	model := estimateMemory(vs, es.Rows(), req.Engine, j.Relabel, j.Workers)
	model.Build += csvBytes(j, req, es.Rows())
	budget, source := memoryBudget()
	if err := checkMemory(j, req, vs, es.Rows(), model, budget, source); err != nil {
		return nil, err
	}
	// When the file and the run's memory do not fit in the machine together, the
	// file's pages would crowd out the run's huge pages in the page cache
	// (docs/PERFORMANCE.md, "Read"): each row group's are
	// dropped once read.
	mem, _ := memstat.Machine()
	drop := dropBehind(es.Size(), model, mem)
	if drop {
		es.DropBehind()
	}
	// Return the vertices' garbage to the OS before the scratch (12 bytes a row) is
	// allocated: Go clears a large allocation on one core, page faults included,
	// when any of its pages were used before, but not one made only of pages fresh
	// from the OS, which Add then touches first on every core (docs/PERFORMANCE.md,
	// "Fresh memory and huge pages"). Below freshScratchRows the clear costs less than the collection.
	if es.Rows() >= freshScratchRows {
		debug.FreeOSMemory()
	}
	b := graph.NewBuilder(vs.IDs.Len(), es.Rows(), es.Workers())
	l := &Loaded{Vertices: vs, Edges: &ingest.Edges{File: es.File, Rows: es.Rows()}, DropBehind: drop, builder: b, Provenance: prov,
		Memory: MemoryModel{Memory: model, BudgetBytes: max(budget, 0), BudgetSource: source}}
	grp, gctx := errgroup.WithContext(ctx)
	grp.Go(func() error {
		return es.Scan(gctx, func(_ int, src, dst []int32) error {
			if err := b.Add(src, dst); err != nil {
				return fmt.Errorf("%s: %w", es.File, err)
			}
			return nil
		})
	})
	req.read(gctx, grp, j, l)
	if err = grp.Wait(); err == nil {
		l.Edges.Fingerprint, err = es.Fingerprint()
	}
	if err != nil {
		return nil, err
	}
	return l, nil
}

// dropBehind decides whether a run reads an edges file of size bytes without
// keeping it in the page cache: when the file and the run's modelled peak m do not
// fit in the machine's memory (0: unknown, keep) together.
func dropBehind(size int64, m Memory, machine int64) bool {
	return machine > 0 && size+m.Peak() > machine
}

// freshScratchRows is the edge-row count (12 bytes a row of scratch: 192 MiB)
// from which Load returns free memory to the OS before allocating it.
const freshScratchRows = 1 << 24

// BuildGraph builds the CSR graph from the arcs Load added, on at most workers
// goroutines (0: one per core).
func (l *Loaded) BuildGraph(ctx context.Context, workers int) (*graph.Graph, graph.BuildStats, error) {
	if l.builder == nil {
		return nil, graph.BuildStats{}, fmt.Errorf("load: BuildGraph called twice")
	}
	b := l.builder
	l.builder = nil
	if err := ctx.Err(); err != nil {
		return nil, graph.BuildStats{}, err
	}
	// The read's garbage (decoding buffers, batches: a few hundred MB at 10^8
	// rows) goes before the offsets and the build's buffers are allocated, so that
	// they reuse its pages instead of adding fresh ones on top of the scratch, at
	// the build's peak (the heap holds almost no pointers: a collection costs
	// milliseconds).
	Collect(l.Edges.Rows)
	g, st, err := b.Finish(ctx, workers)
	if err != nil {
		return nil, st, fmt.Errorf("%s: %w", l.Edges.File, err)
	}
	return g, st, nil
}

// Close releases what Load holds for BuildGraph (the build's scratch) when the
// graph is not built.
func (l *Loaded) Close() { l.builder = nil }
