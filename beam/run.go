package beam

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	// Runners reachable by name through Options.Runner.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/report"
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

// planned is what the launcher learns from the footers.
type planned struct {
	strIDs     bool
	idType     arrow.DataType
	answerType arrow.DataType
	rows       [3]int64
	groups     [3]int
	schemaErrs []inputErr // edges / hitting-set schema rejections, ranked after vertex errors
}

// plan opens the three footers and checks the schemas as ingest does. A vertices
// problem is returned at once (ingest reads vertices first); edges and hitting-set
// problems wait until the vertices' cells are known to be good.
func plan(ctx context.Context, vpath, epath, hpath string, cols ingest.Columns) (*planned, error) {
	pl := &planned{}
	t, err := openTable(ctx, vpath)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	idc, err := t.Column(cols.ID)
	if err != nil {
		return nil, err
	}
	ac, err := t.Column(cols.Answer)
	if err != nil {
		return nil, err
	}
	if err := t.CheckVertexColumns(idc, ac); err != nil {
		return nil, err
	}
	pl.strIDs = !idc.IntIDs()
	pl.idType = arrow.PrimitiveTypes.Int64
	if pl.strIDs {
		pl.idType = arrow.BinaryTypes.String
	}
	pl.answerType = ac.Type()
	pl.rows[fileVertices], pl.groups[fileVertices] = t.Rows(), t.RowGroups()
	check := func(file int, path string, names [2]string, checks func(t *ingest.Table, c [2]*ingest.Column) error) {
		t, err := openTable(ctx, path)
		if err == nil {
			defer t.Close()
			var c [2]*ingest.Column
			for i, name := range names {
				if c[i], err = t.Column(name); err != nil {
					break
				}
			}
			if err == nil {
				err = checks(t, c)
			}
		}
		if err != nil {
			var ie *ingest.InputError
			if errors.As(err, &ie) {
				pl.schemaErrs = append(pl.schemaErrs, inputErr{File: file, Phase: -1, Row: -1, E: *ie})
			} else {
				pl.schemaErrs = append(pl.schemaErrs, inputErr{File: file, Phase: -1, Row: -1, E: ingest.InputError{File: path, Row: -1, Msg: err.Error()}})
			}
			return
		}
		pl.rows[file], pl.groups[file] = t.Rows(), t.RowGroups()
	}
	check(fileEdges, epath, [2]string{cols.Src, cols.Dst}, func(t *ingest.Table, c [2]*ingest.Column) error {
		for _, x := range c {
			if err := t.CheckRefColumn(x, !pl.strIDs, vpath); err != nil {
				return err
			}
		}
		return nil
	})
	check(fileHit, hpath, [2]string{cols.ID, cols.PTrue}, func(t *ingest.Table, c [2]*ingest.Column) error {
		return t.CheckHittingSetColumns(c[0], c[1], !pl.strIDs, vpath)
	})
	return pl, nil
}

// fingerprintFn streams one input through SHA-256 (the summary's and metadata's
// input fingerprints).
type fingerprintFn struct{ C Conf }

func (f *fingerprintFn) ProcessElement(ctx context.Context, k int) error {
	path := []string{f.C.Vertices, f.C.Edges, f.C.Hitting}[k]
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return err
	}
	defer r.Close()
	sum, err := ingest.Fingerprint(ctx, r)
	if err != nil {
		return err
	}
	return writeBlob(ctx, join(f.C.Staging, "fp", fmt.Sprint(k)), []byte(sum))
}

func buildPipeline(c Conf, pl *planned) *sdk.Pipeline {
	p, s := sdk.NewPipelineWithRoot()
	s = s.Scope("build")
	var splits [][]byte
	bad := map[int]bool{}
	for _, e := range pl.schemaErrs {
		bad[e.File] = true
	}
	for file := range 3 {
		if bad[file] {
			continue
		}
		for g := range pl.groups[file] {
			splits = append(splits, split{File: file, G: g}.encode())
		}
	}
	sdk.ParDo0(s, &fingerprintFn{C: c}, sdk.Create(s, fileVertices, fileEdges, fileHit))
	toJoin, toShard := sdk.ParDo2(s, &readFn{C: c}, sdk.CreateList(s, splits))
	toJoin2, hitToShard := sdk.ParDo2(s, &join1Fn{C: c}, sdk.GroupByKey(s, toJoin))
	arcs := sdk.ParDo(s, &join2Fn{C: c}, sdk.GroupByKey(s, toJoin2))
	sdk.ParDo0(s, &shardFn{C: c}, sdk.GroupByKey(s, sdk.Flatten(s, toShard, hitToShard, arcs)))
	return p
}

// firstInputError is the rejection the single-machine run would report, or nil.
func firstInputError(ctx context.Context, staging string, schema []inputErr) error {
	names, err := listBlobs(ctx, join(staging, "errors", "*"))
	if err != nil {
		return err
	}
	var best *inputErr
	all := slices.Clone(schema)
	for _, n := range names {
		b, err := readBlob(ctx, n)
		if err != nil {
			return err
		}
		x, err := decodeErr(b)
		if err != nil {
			return err
		}
		all = append(all, x)
	}
	for i := range all {
		if best == nil || all[i].less(*best) {
			best = &all[i]
		}
	}
	if best == nil {
		return nil
	}
	e := best.E
	return &e
}

type buildStats struct {
	kept, selfLoops, boundary, uncovered, hits int64
	first                                      []uncovered
}

func gatherBuild(ctx context.Context, staging string, l graph.Layout) (*buildStats, error) {
	st := &buildStats{}
	j2, err := listBlobs(ctx, join(staging, "stats", "join2-*"))
	if err != nil {
		return nil, err
	}
	for _, n := range j2 {
		b, err := readBlob(ctx, n)
		if err != nil {
			return nil, err
		}
		d := dec{b: b}
		st.selfLoops += d.i64()
		if d.err != nil {
			return nil, d.err
		}
	}
	for s := range l.Shards() {
		b, err := readBlob(ctx, join(staging, "stats", fmt.Sprintf("shard-%06d", s)))
		if err != nil {
			return nil, err
		}
		x, err := decodeShardStats(b)
		if err != nil {
			return nil, err
		}
		st.kept += x.Kept
		st.boundary += x.Boundary
		st.uncovered += x.Uncovered
		st.hits += x.Hits
		st.first = append(st.first, x.First...) // shards in position order: CSR order
	}
	return st, nil
}

// roundsReport is the launcher's sum of the shards' reports of one rounds pipeline.
type roundsReport struct {
	excess
	Pending int64 // offer blocks waiting for the next round
	Rounds  []pipeline.BeamRound
}

// gatherReport sums the shards' reports of the pipeline that ended at round.
func gatherReport(ctx context.Context, staging string, round int, l graph.Layout) (roundsReport, error) {
	var total roundsReport
	for sh := range l.Shards() {
		b, err := readBlob(ctx, reportFile(staging, round, sh))
		if err != nil {
			return total, err
		}
		d := dec{b: b}
		total.Pending += d.i64()
		if d.err != nil {
			return total, d.err
		}
		tok, err := decodeToken(d.b)
		if err != nil {
			return total, err
		}
		total.Beyond += tok.Excess.Beyond
		total.Above[0] += tok.Excess.Above[0]
		total.Above[1] += tok.Excess.Above[1]
		for k, st := range tok.Stats {
			if k == len(total.Rounds) {
				total.Rounds = append(total.Rounds, pipeline.BeamRound{})
			}
			r := &total.Rounds[k]
			r.Shards += int(st.Settled)
			r.Changed += st.Changed
			r.Offers += st.Offers
			r.Bytes += st.Bytes
			r.Written += st.Written
		}
	}
	return total, nil
}

// idsAt looks up the ids of a few positions in their shards' info files.
func idsAt(ctx context.Context, c Conf, pos []int32) (map[int32]string, map[int32]bool, error) {
	out, answer := make(map[int32]string, len(pos)), make(map[int32]bool, len(pos))
	l := c.layout()
	cache := map[int32]*info{}
	for _, p := range pos {
		if p < 0 {
			continue
		}
		s := l.Of(p)
		x := cache[s]
		if x == nil {
			b, err := readBlob(ctx, infoFile(c.Staging, int(s)))
			if err != nil {
				return nil, nil, err
			}
			if x, err = decodeInfo(b); err != nil {
				return nil, nil, err
			}
			cache[s] = x
		}
		lo, _ := l.Range(s)
		out[p], answer[p] = x.IDs.text(int(p-lo)), x.Answer[p-lo]
	}
	return out, answer, nil
}

// num is pipeline's number format in messages: the shortest decimal that reads back.

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// notHitting is pipeline's rejection of a set that misses boundary edges, worded the same.
func notHitting(ctx context.Context, c Conf, st *buildStats) error {
	first := st.first[:min(len(st.first), c.List)]
	var vs []int32
	for _, x := range first {
		vs = append(vs, x.V)
	}
	idv, _, err := idsAt(ctx, c, vs)
	if err != nil {
		return err
	}
	var lines []pipeline.Uncovered
	for _, x := range first {
		lines = append(lines, pipeline.Uncovered{U: x.IDU, V: idv[x.V]})
	}
	return pipeline.NotHittingSet(c.Hitting, st.uncovered, st.boundary, lines)
}

type finished struct {
	violations    []violation
	Infeasible    int64
	Audit         check.Audit // check.Verify's result: the shards' audits merged, the worst made exact
	MaxMove       float64     // Solution.MaxMove
	Moved         int64       // Solution.Moved
	Components    int         // of the whole graph
	Deterministic check.Deterministic
	hitPos        []int32 // the hitting set's vertices, ascending
	hitIDs        ids     // and their ids
}

func gatherFinish(ctx context.Context, c Conf, l graph.Layout) (*finished, error) {
	staging, limit := c.Staging, c.List
	pair, err := c.pair()
	if err != nil {
		return nil, err
	}
	fd := &finished{}
	// check.Verify over the shards, in position order (CSR order, check doc.go
	// invariant 1): the first passes merged, or the second ones when no shard ranked an
	// edge; then the winner's excess made exact from its ends' p_one.
	first, second := check.NewAudit(), check.NewAudit()
	var ends, ends2 [2]float64
	var parts []shardComps
	for s := range l.Shards() {
		b, err := readBlob(ctx, join(staging, "finish", fmt.Sprintf("shard-%06d", s)))
		if err != nil {
			return nil, err
		}
		x, err := decodeFinding(b)
		if err != nil {
			return nil, err
		}
		fd.violations = append(fd.violations, x.Violations...)
		fd.Infeasible += x.Infeasible
		if first.Merge(&x.Audit.Audit, 0) {
			ends = x.Audit.Ends
		}
		if second.Merge(&x.RankAll.Audit, 0) {
			ends2 = x.RankAll.Ends
		}
		fd.MaxMove = max(fd.MaxMove, x.MaxMove)
		fd.Moved += x.Moved
		fd.hitPos = append(fd.hitPos, x.HitPos...) // shards in position order
		fd.hitIDs.Str = x.HitIDs.Str
		fd.hitIDs.Int = append(fd.hitIDs.Int, x.HitIDs.Int...)
		fd.hitIDs.S = append(fd.hitIDs.S, x.HitIDs.S...)
		parts = append(parts, x.Comps)
	}
	if first.Unranked() {
		first, ends = second, ends2
	}
	first.Exact(pair, ends[0], ends[1])
	fd.Audit = first
	fd.Components, fd.Deterministic = joinComps(parts)
	slices.SortFunc(fd.violations, func(a, b violation) int {
		if a.Output != b.Output {
			if !a.Output {
				return -1
			}
			return 1
		}
		return int(a.Row - b.Row)
	})
	fd.violations = fd.violations[:min(len(fd.violations), limit)]
	return fd, nil
}

// infeasible is pipeline's rejection of conflicting hitting-set values, worded the same.
func infeasible(ctx context.Context, c Conf, job pipeline.Job, fd *finished) error {
	var at []int32
	for _, v := range fd.violations {
		at = append(at, v.H, v.By)
	}
	id, ans, err := idsAt(ctx, c, at)
	if err != nil {
		return err
	}
	var conflicts []pipeline.Conflict
	for _, v := range fd.violations {
		conflicts = append(conflicts, pipeline.Conflict{Output: v.Output, H: v.IDH, By: id[v.By], AnsH: ans[v.H], AnsBy: ans[v.By],
			Dist: v.Dist, Given: v.Given, ByValue: v.ByValue, Bound: v.Bound})
	}
	return pipeline.Infeasible(c.Hitting, job.Epsilon, job.Delta, fd.Infeasible, conflicts)
}

// assemble stages job.Out in out (doc.go invariant 6) shard by shard: each shard's rows
// (its info and output blocks, in position order), laid out by pipeline.Rows and
// streamed into sink.WriteBatches — the single-machine run's bytes, except the
// engine named in the metadata. It never reads a graph block and holds one shard's
// rows (and the sink one row group) at a time, plus the hitting set's ids, which
// name the binding vertices (fd, from the finish).
func assemble(ctx context.Context, c Conf, job pipeline.Job, prov pipeline.Provenance, pl *planned, fps []string, l graph.Layout, fd *finished, s *pipeline.Summary, out *sink.Outputs) error {
	bindIDs := fd.hitIDs.ingest(c.StrIDs)
	sh := 0
	var tally report.ClassTally // the per-answer figures, summed in position order as the local run does
	next := func() (arrow.RecordBatch, error) {
		if sh == l.Shards() {
			return nil, nil
		}
		b, err := readBlob(ctx, infoFile(c.Staging, sh))
		if err != nil {
			return nil, err
		}
		x, err := decodeInfo(b)
		if err != nil {
			return nil, err
		}
		ob, err := readBlob(ctx, join(c.Staging, "out", fmt.Sprintf("shard-%06d", sh)))
		if err != nil {
			return nil, err
		}
		this := sh
		sh++
		d := dec{b: ob}
		m := &bfs.Mechanism{PTrue: d.f64s(), POne: d.f64s()}
		inH := d.bools()
		m.Bind, m.Dist = d.i32s(), d.i32s()
		if d.err != nil {
			return nil, d.err
		}
		for i, v := range m.Bind { // a binding vertex is in the hitting set: its index there
			if v < 0 {
				continue
			}
			j, found := slices.BinarySearch(fd.hitPos, v)
			if !found {
				return nil, fmt.Errorf("beam: shard %d: binding vertex %d is not in the hitting set", this, v)
			}
			m.Bind[i] = int32(j)
		}
		for i, p := range m.PTrue { // in position order, as the local run sums
			s.MeanPTrue += p
			if p == 1 {
				s.Truthful++
			}
			tally.Add(x.Answer[i], m.POne[i], p)
		}
		r := pipeline.Rows{IDType: pl.idType, IDs: x.IDs.ingest(c.StrIDs), AnswerType: pl.answerType, Answer: x.Answer, InH: inH, M: m, BindIDs: bindIDs}
		return r.Record(nil)
	}
	ld := &pipeline.Loaded{Vertices: &ingest.Vertices{Fingerprint: fps[fileVertices]}, Edges: &ingest.Edges{Fingerprint: fps[fileEdges]},
		Hit: &ingest.HittingSet{Fingerprint: fps[fileHit]}, Provenance: prov}
	err := out.WriteBatches(ctx, job.Out, pipeline.OutputSchema(pl.idType, pl.answerType), next, pipeline.Metadata(&job, Engine, ld))
	if c.N > 0 {
		s.MeanPTrue /= float64(c.N)
	}
	cl := tally.Classes()
	s.Classes = &cl
	return err
}
