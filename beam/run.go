package beam

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"os"
	"time"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	// Runners reachable by name through Options.Runner.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/graphdp/graphdp/beam/beamopt"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/internal/memstat"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/pipeline"
)

func init() {
	register.DoFn4x1[context.Context, []byte, func(int, []byte), func(int, []byte), error](&readFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(int, []byte), error](&join1Fn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&join2Fn{})
	register.DoFn2x0[[]byte, func(int, []byte)](&seedFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&edgeSplitsFn{})
	register.DoFn4x1[context.Context, int, []byte, func(int, []byte), error](&edgesFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&shardFn{})
	register.DoFn3x1[context.Context, int, func(int, []byte), error](&fingerprintFn{})
	register.DoFn3x1[context.Context, string, func(int, []byte), error](&settleFileFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&settleFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&pendingFn{})
	register.DoFn3x1[context.Context, string, func(int, []byte), error](&repairFn{})
	register.DoFn3x1[context.Context, string, func(int, []byte), error](&auditEmitFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&finishFn{})
	register.Emitter2[int, []byte]()
	register.Iter1[[]byte]()
}

// Options are the Beam backend's options: the job's beam: keys and flags
// (beamopt.Options), read once, by New.
type Options = beamopt.Options

// ShardArcs is the default shard's size in arcs (2 per edge row): a CSR block of
// about 8 MiB, so a 10^6-edge graph is one shard and 10^9 edges are about a thousand.
// Bigger shards cross fewer boundaries (fewer rounds, fewer offers); smaller ones
// spread over more workers.
const ShardArcs = 1 << 21

// DefaultRoundsPerPipeline is how many rounds one rounds pipeline runs by default. A
// round with no offers left costs one token per shard, so running past convergence
// is cheap; a pipeline launch is not.
const DefaultRoundsPerPipeline = 16

// shardSize is the vertices per shard for n vertices and edgeRows edge rows.
func shardSize(o Options, n, edgeRows int64) int {
	shards := int64(o.Shards)
	if o.ShardSize > 0 {
		return min(o.ShardSize, math.MaxInt32)
	}
	if shards <= 0 {
		shards = max(1, (2*edgeRows+ShardArcs-1)/ShardArcs)
	}
	return int(max(1, min((n+shards-1)/shards, math.MaxInt32)))
}

// BucketRows is about how many input rows (vertices, edges, hitting-set rows) one
// id-join bucket of the build holds by default, at least 64 buckets: a bucket's id
// index and blocks stay within tens of MiB on a worker at any input size (10^9
// edges: about a thousand buckets).
const BucketRows = 1 << 20

// buckets is the number of id-join buckets for an input of rows rows.
func buckets(o Options, rows int64) int {
	if o.Buckets > 0 {
		return o.Buckets
	}
	return int(min(max(64, (rows+BucketRows-1)/BucketRows), 1<<16))
}

// Engine is the engine name Beam runs record in the output's metadata.
const Engine = "beam-rounds"

// Run executes job as Beam pipelines and writes job.Out: see doc.go and BEAM.md.
func Run(ctx context.Context, job job.Job, log *slog.Logger) (*pipeline.Summary, error) {
	return pipeline.Drive(ctx, job, New(job, log), log)
}

// New is the Beam backend of job (pipeline.Backend): its options are job.Beam.
func New(job job.Job, log *slog.Logger) pipeline.Backend {
	return &backend{job: job, opts: job.Beam, log: log}
}

// backend runs a job's stages as Beam pipelines; between them, the launcher reads
// the small files the shards wrote to staging (gather.go).
type backend struct {
	job     job.Job
	opts    Options
	log     *slog.Logger
	cleanup []func()
	c       Conf
	pl      *planned
	l       graph.Layout
	fps     []string
	fd      *finished
	rs      *beamopt.Report
}

func (b *backend) Names() (string, string) { return "beam", Engine }

// exec runs pipeline p, then drops what the pipeline's end made obsolete (drop, in
// this process) and, on Prism, returns the process's free memory to the system
// (returnMemory).
func (b *backend) exec(ctx context.Context, p *sdk.Pipeline, drop ...func()) error {
	err := execute(ctx, b.opts, p, b.log)
	for _, f := range drop {
		f()
	}
	b.returnMemory()
	return err
}

// onPrism is whether the job runs on Prism: in this process unless Options.Endpoint
// names a job server (memory.go, returnMemory, stageOffers).
func (b *backend) onPrism() bool { return b.opts.RunnerName() == "prism" }

// returnMemory collects and hands the heap's free pages back to the system after a
// pipeline on Prism run in this process (no Endpoint: submit.go): each pipeline's
// peak is mostly Prism's buffers of its shuffles, garbage once it ends, and without
// this the process keeps that peak resident through the next pipeline, whose own
// live set is smaller (docs/BEAM.md, "Memory on Prism"). It
// costs one full collection and the page faults of touching the returned pages
// again; a launcher whose runner is elsewhere has nothing to return, and a small job
// (load.Return) too little.
func (b *backend) returnMemory() {
	if b.onPrism() && b.opts.Endpoint == "" && b.pl != nil {
		load.Return(b.pl.rows[fileEdges])
	}
}

// Build is the build pipeline: every input's read units (splits) read, ids joined, each
// shard's block assembled, its hitting-set check done (on the shard's edges u < v)
// and written to staging (build.go); the first rejection the single-machine run
// would report, if any; then the shards' counts of the graph and the check, summed.
// The launcher waits on whole pipelines: its stages show elapsed time only. The
// read stage is the build pipeline and the csr stage the gathering; the check
// stage, done by the shards in the build, has nothing left, and is begun so that
// the summary's phases are the local run's.
func (b *backend) Build(ctx context.Context, st pipeline.Stages) (*pipeline.Built, error) {
	built, err := b.build(st.Begin(ctx, pipeline.StageRead))
	if err != nil {
		return nil, err
	}
	gs, err := gatherBuild(st.Begin(ctx, pipeline.StageCSR), b.c.Staging, b.l)
	if err != nil {
		return nil, err
	}
	edges := b.pl.rows[fileEdges]
	built.Graph = pipeline.GraphFigures{Kept: gs.kept, SelfLoops: gs.selfLoops, Duplicates: edges - gs.selfLoops - gs.kept}
	st.Begin(ctx, pipeline.StageCheck)
	built.Boundary, built.Uncovered = gs.boundary, gs.uncovered
	return built, nil
}

// build runs the build pipeline and returns the inputs' figures.
func (b *backend) build(ctx context.Context) (*pipeline.Built, error) {
	if !sdk.Initialized() {
		sdk.Init()
	}
	// The SDK and Prism log through slog's default logger (sdk.Init points it at
	// stderr, level info): make it the run's, so --log-level and --log-format apply.
	slog.SetDefault(b.log)
	job, opts := &b.job, b.opts
	staging, err := b.staging(ctx)
	if err != nil {
		return nil, err
	}
	cols := job.IngestColumns()
	pl, err := plan(job.Context(ctx), [3]string{job.Vertices, job.Edges, job.HittingSet}, cols) // the inputs' plans only (ingest.PlanFile)
	if err != nil {
		return nil, err
	}
	var model *load.MemoryModel
	if opts.RunnerName() == "prism" { // the whole job in this process (memory.go)
		m := prismMemory(pl)
		budget, source := memstat.Budget() // the local runner's budget too
		if err := checkMemory(job, pl, m, budget, source); err != nil {
			return nil, err
		}
		model = &load.MemoryModel{Memory: m, BudgetBytes: max(budget, 0), BudgetSource: source}
	}
	c := Conf{Staging: staging, Tables: pl.tables, Cols: cols, Delimiter: job.Delimiter, Store: job.Store(),
		StrIDs: pl.strIDs, N: int32(pl.rows[fileVertices]), List: job.List}
	pair, err := job.Pair(ctx)
	if err != nil {
		return nil, err
	}
	c.setPair(pair)
	c.ShardSize = int32(shardSize(opts, int64(c.N), pl.rows[fileEdges]))
	c.Buckets = buckets(opts, pl.rows[fileVertices]+pl.rows[fileEdges]+pl.rows[fileHit])
	c.Broadcast = useBroadcast(opts, pl.rows[fileVertices])
	c.StageArcs, c.StageOffers, c.NoCache = opts.StageArcs(), opts.StageOffers(), opts.NoWorkerCache
	b.c, b.pl, b.l = c, pl, c.layout()
	b.log.Info("beam build", "stage", "read", "runner", opts.RunnerName(), "vertices", c.N, "shards", b.l.Shards(), "buckets", c.Buckets, "broadcast", c.Broadcast, "staging", staging)
	err = b.exec(ctx, buildPipeline(c, pl), func() { dropIndex(staging) }) // only the build's edge reads use the index (broadcast.go)
	if err != nil {
		return nil, fmt.Errorf("beam: build: %w", err)
	}
	if err := firstInputError(ctx, staging, pl.schemaErrs); err != nil {
		return nil, err
	}
	b.fps = make([]string, 3)
	for k := range b.fps {
		fp, err := readBlob(ctx, join(staging, "fp", fmt.Sprint(k)))
		if err != nil {
			return nil, err
		}
		b.fps[k] = string(fp)
	}
	return &pipeline.Built{
		Memory:     model,
		Vertices:   pl.input(fileVertices, b.fps),
		Edges:      pl.input(fileEdges, b.fps),
		HittingSet: pl.input(fileHit, b.fps),
	}, nil
}

// staging makes the run's staging folder (removed by Close): a temporary local one
// (Prism only), or a fresh one under the options' Staging.
func (b *backend) staging(ctx context.Context) (string, error) {
	if b.opts.Staging == "" {
		if !b.onPrism() {
			return "", &job.ConfigError{Source: "job", Problems: []string{"beam: a staging folder every worker can reach is required with runner " + b.opts.Runner}}
		}
		dir, err := os.MkdirTemp("", "graphdp-beam-*")
		if err != nil {
			return "", err
		}
		b.cleanup = append(b.cleanup, func() { os.RemoveAll(dir) }, func() { dropCache(dir) })
		return dir, nil
	}
	dir := join(b.opts.Staging, fmt.Sprintf("graphdp-%d", time.Now().UnixNano()))
	b.cleanup = append(b.cleanup, func() { removeStaging(context.WithoutCancel(ctx), dir) }, func() { dropCache(dir) })
	return dir, nil
}

func (b *backend) Close() {
	for i := len(b.cleanup) - 1; i >= 0; i-- {
		b.cleanup[i]()
	}
}

func removeStaging(ctx context.Context, dir string) {
	fs, err := filesystem.New(ctx, dir)
	if err != nil {
		return
	}
	defer fs.Close()
	names, _ := fs.List(ctx, join(dir, "*", "*"))
	if r, ok := fs.(filesystem.Remover); ok {
		for _, n := range names {
			r.Remove(ctx, n)
		}
	}
}
