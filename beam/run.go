package beam

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	// Runners reachable by name through Options.Runner.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
)

func init() {
	register.DoFn4x1[context.Context, []byte, func(int, []byte), func(int, []byte), error](&readFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(int, []byte), error](&join1Fn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&join2Fn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&shardFn{})
	register.DoFn2x1[context.Context, int, error](&fingerprintFn{})
	register.DoFn3x1[context.Context, string, func(int, []byte), error](&settleFileFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&settleFn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&pendingFn{})
	register.DoFn2x1[context.Context, string, error](&repairFn{})
	register.DoFn3x1[context.Context, string, func(int, []byte), error](&auditEmitFn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&finishFn{})
	register.Emitter2[int, []byte]()
	register.Iter1[[]byte]()
}

// Options choose the Beam runner. The CLI fills them from --beam-runner, --endpoint
// and extra runner flags.
type Options struct {
	Runner   string   // prism (default, in-process), flink, spark, dataflow, universal
	Endpoint string   // job service host:port (flink, spark, universal)
	Extra    []string // further runner flags, "--name=value", set on Beam's flags
	// Staging is a folder on a filesystem every worker can reach (gs://…, s3://…, or a
	// shared mount) for shard states between pipelines; "" means a temporary local
	// folder, which only Prism can use. It is removed after the run.
	Staging string
	// ShardSize is the number of vertices per shard, or Shards their number (0 and
	// 0: shards of about ShardArcs arcs); Buckets the number of id-join buckets (0:
	// one per BucketRows input rows, at least 64); RoundsPerPipeline how many rounds one pipeline runs (0:
	// DefaultRoundsPerPipeline). Zero fields take the job's beam: keys.
	ShardSize, Shards, Buckets, RoundsPerPipeline int
	// WorkerTimeout is how long a job submitted to a job server (an Endpoint, or
	// Flink, Spark) may run before some worker reports progress; then the job is
	// cancelled and Run fails with a *WorkerError (0: DefaultWorkerTimeout).
	WorkerTimeout time.Duration
}

// ShardArcs is the default shard's size in arcs (2 per edge row): a CSR block of
// about 8 MiB, so a 10^6-edge graph is one shard and 10^9 edges are about a thousand.
// Bigger shards cross fewer boundaries (fewer rounds, fewer offers); smaller ones
// spread over more workers.
const ShardArcs = 1 << 21

// DefaultRoundsPerPipeline is how many rounds one rounds pipeline runs by default. A
// round with no offers left costs one token per shard, so running past convergence
// is cheap; a pipeline launch is not.
const DefaultRoundsPerPipeline = 16

// withJob fills o's zero partition fields from the job's beam: keys.
func (o Options) withJob(b pipeline.Beam) Options {
	for _, f := range []struct {
		dst *int
		src int
	}{{&o.ShardSize, b.ShardSize}, {&o.Shards, b.Shards}, {&o.Buckets, b.Buckets}, {&o.RoundsPerPipeline, b.RoundsPerPipeline}} {
		if *f.dst <= 0 {
			*f.dst = f.src
		}
	}
	return o
}

// shardSize is the vertices per shard for n vertices and edgeRows edge rows.
func (o Options) shardSize(n, edgeRows int64) int {
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
func (o Options) buckets(rows int64) int {
	if o.Buckets > 0 {
		return o.Buckets
	}
	return int(min(max(64, (rows+BucketRows-1)/BucketRows), 1<<16))
}

// Engine is the engine name Beam runs record in the output's metadata.
const Engine = "beam-rounds"

// Run executes job as Beam pipelines and writes job.Out: see doc.go and BEAM.md.
func Run(ctx context.Context, job pipeline.Job, opts Options, log *slog.Logger) (*pipeline.Summary, error) {
	start := time.Now()
	var phases []pipeline.Phase
	last := start
	done := func(name string) {
		now := time.Now()
		phases = append(phases, pipeline.Phase{Name: name, Seconds: now.Sub(last).Seconds()})
		last = now
	}
	if !sdk.Initialized() {
		sdk.Init()
	}
	// The SDK and Prism log through slog's default logger (sdk.Init points it at
	// stderr, level info): make it the run's, so --log-level and --log-format apply.
	slog.SetDefault(log)
	if _, err := dp.New(job.Epsilon, job.Delta); err != nil {
		return nil, &pipeline.ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	prov, err := job.Provenance()
	if err != nil {
		return nil, &pipeline.ConfigError{Source: "job", Problems: []string{err.Error()}}
	}
	cols := job.IngestColumns()
	for _, p := range []string{job.Vertices, job.Edges, job.HittingSet} {
		if !strings.EqualFold(filepath.Ext(p), ".parquet") {
			return nil, &pipeline.ConfigError{Source: "job", Problems: []string{fmt.Sprintf("%s: the beam runner reads Parquet inputs only", p)}}
		}
	}
	staging := opts.Staging
	if staging == "" {
		if opts.Runner != "" && opts.Runner != "prism" {
			return nil, &pipeline.ConfigError{Source: "job", Problems: []string{"beam: a staging folder every worker can reach is required with runner " + opts.Runner}}
		}
		dir, err := os.MkdirTemp("", "graphdp-beam-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		staging = dir
		defer dropCache(staging)
	} else {
		staging = join(staging, fmt.Sprintf("graphdp-%d", time.Now().UnixNano()))
		defer removeStaging(context.WithoutCancel(ctx), staging)
		defer dropCache(staging)
	}
	exec := func(p *sdk.Pipeline) error { return execute(ctx, opts, p, log) }

	// Plan: footers only.
	pl, err := plan(ctx, job.Vertices, job.Edges, job.HittingSet, cols)
	if err != nil {
		return nil, err
	}
	c := Conf{Staging: staging, Vertices: job.Vertices, Edges: job.Edges, Hitting: job.HittingSet, Cols: cols,
		StrIDs: pl.strIDs, N: int32(pl.rows[fileVertices]), List: job.List, Epsilon: job.Epsilon, Delta: job.Delta}
	opts = opts.withJob(job.Beam)
	c.ShardSize = int32(opts.shardSize(int64(c.N), pl.rows[fileEdges]))
	c.Buckets = opts.buckets(pl.rows[fileVertices] + pl.rows[fileEdges] + pl.rows[fileHit])
	per := opts.RoundsPerPipeline
	if per <= 0 {
		per = DefaultRoundsPerPipeline
	}
	l := c.layout()
	log.Info("beam build", "stage", "read", "runner", runnerName(opts), "vertices", c.N, "shards", l.Shards(), "buckets", c.Buckets, "staging", staging)
	if err := exec(buildPipeline(c, pl)); err != nil {
		return nil, fmt.Errorf("beam: build: %w", err)
	}
	if err := firstInputError(ctx, staging, pl.schemaErrs); err != nil {
		return nil, err
	}
	done("read")

	s := &pipeline.Summary{Version: pipeline.Build().Version, Build: pipeline.Build(), Runner: "beam", Engine: Engine, Epsilon: job.Epsilon, Delta: job.Delta}
	s.Vertices, s.EdgesRead, s.HittingSet = int(c.N), pl.rows[fileEdges], int(pl.rows[fileHit])
	fps := make([]string, 3)
	for k := range fps {
		b, err := readBlob(ctx, join(staging, "fp", fmt.Sprint(k)))
		if err != nil {
			return nil, err
		}
		fps[k] = string(b)
	}
	// Digests as the local runner gives them (pipeline/provenance.go).
	s.Inputs.Vertices = pipeline.Input{Path: job.Vertices, Digest: prov.Private(fps[fileVertices]), Rows: int64(s.Vertices)}
	s.Inputs.Edges = pipeline.Input{Path: job.Edges, Digest: prov.Public(fps[fileEdges]), Rows: s.EdgesRead}
	s.Inputs.HittingSet = pipeline.Input{Path: job.HittingSet, Digest: prov.Private(fps[fileHit]), Rows: int64(s.HittingSet)}
	st, err := gatherBuild(ctx, staging, l)
	if err != nil {
		return nil, err
	}
	s.EdgesKept, s.SelfLoops = st.kept, st.selfLoops
	s.Duplicates = s.EdgesRead - s.SelfLoops - s.EdgesKept
	s.BoundaryEdges, s.Uncovered = st.boundary, st.uncovered
	if st.uncovered > 0 {
		return nil, notHitting(ctx, c, st)
	}
	done("check")

	// Rounds: pipelines of `per` block-centric rounds until no offer is pending. Then
	// bfs.Solve's repair: when the first solve is feasible but hitting-set values lie
	// above their bounds (within Tolerance), move colour 1's onto them, else colour
	// 0's, and run the rounds again from the repaired values; at most bfs.MaxRepairs
	// times. Round numbers (staging versions) continue across repairs.
	rs := &pipeline.BeamRun{Shards: l.Shards(), ShardSize: int(c.ShardSize), Buckets: c.Buckets, RoundsPerPipeline: per}
	pending := func(round int) []string {
		files := make([]string, l.Shards())
		for sh := range files {
			files[sh] = pendingFile(staging, round, sh)
		}
		return files
	}
	round, repairs, first := 0, 0, 0
	var x roundsReport
	for {
		for {
			if err := exec(roundsPipeline(c, pending(round), round, per)); err != nil {
				return nil, fmt.Errorf("beam: rounds %d-%d: %w", round+1, round+per, err)
			}
			rs.Pipelines++
			if x, err = gatherReport(ctx, staging, round+per, l); err != nil {
				return nil, err
			}
			for k, r := range x.Rounds {
				r.Round = round + 1 + k
				if r.Shards > 0 {
					rs.Rounds++
					rs.Offers += r.Offers
					rs.OfferBytes += r.Bytes
					rs.Written += r.Written
					rs.CutArcs += r.CutArcs
					rs.PerRound = append(rs.PerRound, r)
				}
			}
			round += per
			log.Info("beam rounds", "stage", "propagate", "round", round, "pending_offers", x.Pending, "rounds_with_work", rs.Rounds)
			if x.Pending == 0 {
				break // the fixed point: doc.go invariant 4
			}
		}
		if repairs == 0 {
			first = round
		}
		if repairs == bfs.MaxRepairs || (repairs == 0 && x.Beyond > 0) {
			break // infeasible is decided on the first solve, by the finish
		}
		colour := 1
		if x.Above[1] == 0 {
			colour = 0
		}
		if x.Above[colour] == 0 {
			break
		}
		if err := exec(repairPipeline(c, pending(round), colour, round+1)); err != nil {
			return nil, fmt.Errorf("beam: repair %d: %w", repairs+1, err)
		}
		rs.Pipelines++
		round++
		repairs++
		log.Info("beam repair", "stage", "propagate", "repair", repairs, "colour", colour, "values", x.Above[colour])
	}
	if err := exec(finishPipeline(c, pending(round), repairs == 0, bfs.Tolerance)); err != nil {
		return nil, fmt.Errorf("beam: finish: %w", err)
	}
	rs.Pipelines++
	fd, err := gatherFinish(ctx, c, l)
	if err != nil {
		return nil, err
	}
	if repairs > 0 && !repairKept(x.Above[0]+x.Above[1] > 0, fd.MaxMove) {
		// bfs.Solve's failed repair: the input is rejected with the first solve's
		// values above their bounds at all (tolerance 0).
		if err := exec(finishPipeline(c, pending(first), true, 0)); err != nil {
			return nil, fmt.Errorf("beam: finish: %w", err)
		}
		rs.Pipelines++
		if fd, err = gatherFinish(ctx, c, l); err != nil {
			return nil, err
		}
	}
	s.Beam = rs
	done("propagate")
	s.Components = fd.Components
	s.Violations, s.Feasible, s.Repaired = int(fd.Infeasible), fd.Infeasible == 0, int(fd.Moved)
	if fd.Infeasible > 0 {
		return s, infeasible(ctx, c, job, fd)
	}
	s.AuditWorst = max(fd.Audit.Worst.Excess, 0)
	if fd.Audit.Edges == 0 {
		s.AuditWorst = 0
	}
	if fd.Audit.Violations > 0 {
		return s, fmt.Errorf("internal error: the computed mechanism fails the DP audit on %d edge outputs (excess %g); nothing written", fd.Audit.Violations, fd.Audit.Worst.Excess)
	}
	s.Deterministic = &fd.Deterministic
	if d := s.Deterministic; d.Count > 0 {
		log.Warn("datasets answered deterministically (p_one = 0 or 1)", "stage", "audit", "count", d.Count,
			"not_private", d.NotPrivate, "private", d.Private,
			"no_neighbours", d.Isolated, "no_constraint", d.Unconstrained, "forced_by_hitting_set", d.Forced)
	}
	if err := pipeline.CheckDeterministic(job, s); err != nil {
		return s, err
	}
	done("audit")
	// The mechanism and the summary are published together or not at all.
	out := sink.NewOutputs()
	defer out.Abort()
	if err := assemble(ctx, c, job, prov, pl, fps, l, fd, s, out); err != nil {
		return nil, err
	}
	s.Out = job.Out
	done("write")
	s.Phases = phases
	s.WallSeconds = time.Since(start).Seconds()
	s.PeakRSSBytes = pipeline.PeakRSS()
	if job.Summary != "" {
		if err := out.WriteFile(ctx, job.Summary, s.EncodeJSON); err != nil {
			return s, err
		}
	}
	if err := out.Commit(ctx); err != nil {
		return s, err
	}
	log.Info("written", "stage", "write", "out", job.Out, "summary", job.Summary, "rounds", rs.Rounds)
	return s, nil
}

// repairKept is bfs.RepairKept (a variable for the test of a failed repair).
var repairKept = bfs.RepairKept

func runnerName(o Options) string {
	if o.Runner == "" {
		return "prism"
	}
	return o.Runner
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
