package beam

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
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
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	// Runners reachable by name through Options.Runner.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
)

func init() {
	register.DoFn4x1[context.Context, []byte, func(int, []byte), func(int, []byte), error](&readFn{})
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(int, []byte), func(int, []byte), error](&join1Fn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&join2Fn{})
	register.DoFn3x1[context.Context, int, func(*[]byte) bool, error](&shardFn{})
	register.DoFn2x1[context.Context, int, error](&fingerprintFn{})
	register.DoFn3x1[context.Context, string, func(int, []byte), error](&readStateFn{})
	register.DoFn3x1[int, []byte, func(int, []byte), error](&emitFn{})
	register.DoFn3x1[int, func(*[]byte) bool, func(int, []byte), error](&relaxFn{})
	register.DoFn3x1[context.Context, int, []byte, error](&writeStateFn{})
	register.DoFn2x1[context.Context, string, error](&repairFn{})
	register.DoFn3x1[int, []byte, func(int, []byte), error](&auditEmitFn{})
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
	// ShardSize is the number of vertices per shard (0: n/64, at least 4096);
	// Buckets the number of id-join buckets (0: 64); RoundsPerPipeline how many
	// rounds one pipeline runs (0: 8).
	ShardSize, Buckets, RoundsPerPipeline int
}

// Engine is the engine name Beam runs record in the output's metadata.
const Engine = "beam-rounds"

// InitWorker must be called first thing in main: when a runner starts the binary as
// a Beam worker (with --worker), it parses Beam's flags and serves the harness, and
// never returns. Otherwise it does nothing.
func InitWorker() {
	for _, a := range os.Args[1:] {
		if a == "--worker" || a == "-worker" || strings.HasPrefix(a, "--worker=") || strings.HasPrefix(a, "-worker=") {
			flag.Parse()
			sdk.Init()
			return
		}
	}
}

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
	pair, err := bfs.NewDP(job.Epsilon, job.Delta)
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
	} else {
		staging = join(staging, fmt.Sprintf("graphdp-%d", time.Now().UnixNano()))
		defer removeStaging(context.WithoutCancel(ctx), staging)
	}
	exec := func(p *sdk.Pipeline) error { return execute(ctx, opts, p) }

	// Plan: footers only.
	pl, err := plan(ctx, job.Vertices, job.Edges, job.HittingSet, cols)
	if err != nil {
		return nil, err
	}
	c := Conf{Staging: staging, Vertices: job.Vertices, Edges: job.Edges, Hitting: job.HittingSet, Cols: cols,
		StrIDs: pl.strIDs, N: int32(pl.rows[fileVertices]), List: job.List, Epsilon: job.Epsilon, Delta: job.Delta}
	size := opts.ShardSize
	if size <= 0 {
		size = max(4096, int(c.N)/64)
	}
	c.ShardSize = int32(min(size, math.MaxInt32))
	c.Buckets = opts.Buckets
	if c.Buckets <= 0 {
		c.Buckets = 64
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

	s := &pipeline.Summary{Version: pipeline.Version, Runner: "beam", Engine: Engine, Epsilon: job.Epsilon, Delta: job.Delta}
	s.Vertices, s.EdgesRead, s.HittingSet = int(c.N), pl.rows[fileEdges], int(pl.rows[fileHit])
	fps := make([]string, 3)
	for k := range fps {
		b, err := readBlob(ctx, join(staging, "fp", fmt.Sprint(k)))
		if err != nil {
			return nil, err
		}
		fps[k] = string(b)
	}
	s.Inputs.Vertices = pipeline.Input{Path: job.Vertices, SHA256: fps[fileVertices], Rows: int64(s.Vertices)}
	s.Inputs.Edges = pipeline.Input{Path: job.Edges, SHA256: fps[fileEdges], Rows: s.EdgesRead}
	s.Inputs.HittingSet = pipeline.Input{Path: job.HittingSet, SHA256: fps[fileHit], Rows: int64(s.HittingSet)}
	st, err := gatherBuild(ctx, staging, l)
	if err != nil {
		return nil, err
	}
	s.EdgesKept, s.SelfLoops = st.kept, st.selfLoops
	s.Duplicates = s.EdgesRead - s.SelfLoops - s.EdgesKept
	s.Components = -1 // not computed on Beam (BEAM.md)
	s.BoundaryEdges, s.Uncovered = st.boundary, st.uncovered
	if st.uncovered > 0 {
		return nil, notHitting(ctx, c, st)
	}
	done("check")

	// Rounds: at most the a-priori bound (bfs.Pass.Depth), stopping at the first round
	// that changes nothing. Then bfs.Solve's repair: when the first solve is feasible
	// but hitting-set values lie above their bounds (within Tolerance), move colour 1's
	// onto them, else colour 0's, and run the rounds again from the repaired values; at
	// most bfs.MaxRepairs times. Round numbers (state folders) continue across repairs.
	depth := func(minA [2]float64, hits int64) int {
		d := 0
		if hits > 0 {
			for ci, one := range []bool{false, true} {
				d = max(d, bfs.NewPass(pair, one).Depth(minA[ci], max(int(c.N)-1, 0)))
			}
		}
		return d
	}
	bound := depth(st.minA, st.hits)
	per := opts.RoundsPerPipeline
	if per <= 0 {
		per = 8
	}
	rounds, repairs := 0, 0
	for {
		from := rounds
		for rounds < bound {
			k := min(per, bound-rounds)
			files, err := listBlobs(ctx, join(staging, fmt.Sprintf("state-%06d", rounds), "shard-*"))
			if err != nil {
				return nil, err
			}
			if err := exec(roundsPipeline(c, files, rounds, k)); err != nil {
				return nil, fmt.Errorf("beam: rounds %d-%d: %w", rounds+1, rounds+k, err)
			}
			rounds += k
			x, err := gatherRound(ctx, staging, rounds)
			if err != nil {
				return nil, err
			}
			log.Info("beam rounds", "stage", "propagate", "rounds", rounds, "bound", bound, "changed", x.Changed)
			if x.Changed == 0 {
				break
			}
		}
		if rounds == from || repairs == bfs.MaxRepairs {
			break // no round ran: every value is its own, nothing lies above a bound
		}
		x, err := gatherRound(ctx, staging, rounds)
		if err != nil {
			return nil, err
		}
		if repairs == 0 && x.Beyond > 0 {
			break // infeasible: decided on the first solve, by the finish
		}
		colour := 1
		if x.Above[1] == 0 {
			colour = 0
		}
		if x.Above[colour] == 0 {
			break
		}
		files, err := listBlobs(ctx, join(staging, fmt.Sprintf("state-%06d", rounds), "shard-*"))
		if err != nil {
			return nil, err
		}
		if err := exec(repairPipeline(c, files, colour, rounds+1)); err != nil {
			return nil, fmt.Errorf("beam: repair %d: %w", repairs+1, err)
		}
		rounds++
		repairs++
		minA, err := gatherMinA(ctx, staging, rounds, l)
		if err != nil {
			return nil, err
		}
		bound = rounds + depth(minA, st.hits)
		log.Info("beam repair", "stage", "propagate", "repair", repairs, "colour", colour, "values", x.Above[colour], "bound", bound)
	}
	files, err := listBlobs(ctx, join(staging, fmt.Sprintf("state-%06d", rounds), "shard-*"))
	if err != nil {
		return nil, err
	}
	if err := exec(finishPipeline(c, files, repairs == 0)); err != nil {
		return nil, fmt.Errorf("beam: finish: %w", err)
	}
	done("propagate")
	fd, err := gatherFinish(ctx, staging, l, c.List)
	if err != nil {
		return nil, err
	}
	s.Violations, s.Feasible = int(fd.Infeasible), fd.Infeasible == 0
	if fd.Infeasible > 0 {
		return s, infeasible(ctx, c, job, fd)
	}
	s.AuditWorst = max(fd.Worst, 0)
	if fd.Edges == 0 {
		s.AuditWorst = 0
	}
	if fd.AuditBad > 0 {
		return s, fmt.Errorf("internal error: the computed mechanism fails the DP audit on %d edge outputs (excess %g); nothing written", fd.AuditBad, fd.Worst)
	}
	done("audit")
	if err := assemble(ctx, c, job, pl, fps, l, s); err != nil {
		return nil, err
	}
	s.Out = job.Out
	done("write")
	s.Phases = phases
	s.WallSeconds = time.Since(start).Seconds()
	s.PeakRSSBytes = pipeline.PeakRSS()
	log.Info("written", "stage", "write", "out", job.Out, "rounds", rounds)
	if job.Summary != "" {
		if err := s.WriteJSON(job.Summary); err != nil {
			return s, err
		}
	}
	return s, nil
}

func runnerName(o Options) string {
	if o.Runner == "" {
		return "prism"
	}
	return o.Runner
}

// execute runs p on the chosen runner and waits for it.
func execute(ctx context.Context, opts Options, p *sdk.Pipeline) error {
	name := runnerName(opts)
	if name == "prism" && opts.Endpoint == "" {
		_, err := prism.Execute(ctx, p)
		return err
	}
	if opts.Endpoint != "" {
		*jobopts.Endpoint = opts.Endpoint
	}
	for _, a := range opts.Extra {
		k, v, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !ok {
			v = "true"
		}
		if err := flag.CommandLine.Set(k, v); err != nil {
			return fmt.Errorf("beam: runner flag %q: %w", a, err)
		}
	}
	_, err := sdk.Run(ctx, name, p)
	return err
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
	defer t.close()
	idc, err := t.column(cols.ID)
	if err != nil {
		return nil, err
	}
	ac, err := t.column(cols.Answer)
	if err != nil {
		return nil, err
	}
	if idc.kind != kindInt && idc.kind != kindBytes {
		return nil, colErr(vpath, idc.name, "ids must be integers or strings, not "+idc.typeName)
	}
	if ac.kind != kindInt && ac.kind != kindBool {
		return nil, colErr(vpath, ac.name, "answer must be a boolean or an integer 0/1 column, not "+ac.typeName)
	}
	n := t.rows()
	if n == 0 {
		return nil, &ingest.InputError{File: vpath, Row: -1, Msg: "no vertices"}
	}
	if n > math.MaxInt32 {
		return nil, &ingest.InputError{File: vpath, Row: -1, Msg: fmt.Sprintf("%d vertices; at most %d are supported", n, math.MaxInt32)}
	}
	pl.strIDs = idc.kind == kindBytes
	pl.idType = arrow.PrimitiveTypes.Int64
	if pl.strIDs {
		pl.idType = arrow.BinaryTypes.String
	}
	pl.answerType = arrowAnswerType(ac.typeName)
	pl.rows[fileVertices], pl.groups[fileVertices] = n, len(t.starts)-1
	check := func(file int, path string, names [2]string, checks func(t *table, c [2]*column) error) {
		t, err := openTable(ctx, path)
		if err == nil {
			defer t.close()
			var c [2]*column
			for i, name := range names {
				if c[i], err = t.column(name); err != nil {
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
		pl.rows[file], pl.groups[file] = t.rows(), len(t.starts)-1
	}
	check(fileEdges, epath, [2]string{cols.Src, cols.Dst}, func(t *table, c [2]*column) error {
		for _, x := range c {
			if err := checkRef(epath, x, pl.strIDs, vpath); err != nil {
				return err
			}
		}
		return nil
	})
	check(fileHit, hpath, [2]string{cols.ID, cols.PTrue}, func(t *table, c [2]*column) error {
		if err := checkRef(hpath, c[0], pl.strIDs, vpath); err != nil {
			return err
		}
		if c[1].kind != kindFloat {
			return colErr(hpath, c[1].name, "p_true must be a float64 or float32 column, not "+c[1].typeName)
		}
		if t.rows() > math.MaxInt32 {
			return &ingest.InputError{File: hpath, Row: -1, Msg: "more rows than there can be vertices"}
		}
		return nil
	})
	return pl, nil
}

func arrowAnswerType(name string) arrow.DataType {
	switch name {
	case "bool":
		return arrow.FixedWidthTypes.Boolean
	case "int8":
		return arrow.PrimitiveTypes.Int8
	case "int16":
		return arrow.PrimitiveTypes.Int16
	case "int32":
		return arrow.PrimitiveTypes.Int32
	case "uint8":
		return arrow.PrimitiveTypes.Uint8
	case "uint16":
		return arrow.PrimitiveTypes.Uint16
	case "uint32":
		return arrow.PrimitiveTypes.Uint32
	case "uint64":
		return arrow.PrimitiveTypes.Uint64
	}
	return arrow.PrimitiveTypes.Int64
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
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return err
	}
	return writeBlob(ctx, join(f.C.Staging, "fp", fmt.Sprint(k)), []byte(hex.EncodeToString(h.Sum(nil))))
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
	minA                                       [2]float64
}

func gatherBuild(ctx context.Context, staging string, l bfs.Layout) (*buildStats, error) {
	st := &buildStats{minA: [2]float64{math.Inf(1), math.Inf(1)}}
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
		st.minA[0], st.minA[1] = min(st.minA[0], x.MinA[0]), min(st.minA[1], x.MinA[1])
	}
	return st, nil
}

// gatherRound sums the shards' reports of the round that ended a rounds pipeline.
func gatherRound(ctx context.Context, staging string, round int) (excess, error) {
	var total excess
	names, err := listBlobs(ctx, join(staging, fmt.Sprintf("changed-%06d", round), "shard-*"))
	if err != nil {
		return total, err
	}
	for _, n := range names {
		b, err := readBlob(ctx, n)
		if err != nil {
			return total, err
		}
		d := dec{b: b}
		total.Changed += d.i64()
		total.Beyond += d.i64()
		total.Above[0] += d.i64()
		total.Above[1] += d.i64()
		if d.err != nil {
			return total, d.err
		}
	}
	return total, nil
}

// gatherMinA is the least pass value per colour after a repair (the round bound).
func gatherMinA(ctx context.Context, staging string, round int, l bfs.Layout) ([2]float64, error) {
	m := [2]float64{math.Inf(1), math.Inf(1)}
	for s := range l.Shards() {
		b, err := readBlob(ctx, join(staging, fmt.Sprintf("mina-%06d", round), fmt.Sprintf("shard-%06d", s)))
		if err != nil {
			return m, err
		}
		d := dec{b: b}
		m[0], m[1] = min(m[0], d.f64()), min(m[1], d.f64())
		if d.err != nil {
			return m, d.err
		}
	}
	return m, nil
}

// idsAt looks up the ids of a few positions in their shards' state files.
func idsAt(ctx context.Context, c Conf, round int, pos []int32) (map[int32]string, error) {
	out := make(map[int32]string, len(pos))
	l := c.layout()
	cache := map[int32]*state{}
	for _, p := range pos {
		if p < 0 {
			continue
		}
		s := l.Of(p)
		st := cache[s]
		if st == nil {
			b, err := readBlob(ctx, stateFile(c.Staging, round, int(s)))
			if err != nil {
				return nil, err
			}
			if st, err = decodeState(b); err != nil {
				return nil, err
			}
			cache[s] = st
		}
		out[p] = st.IDs.text(int(p - st.Shard.Lo))
	}
	return out, nil
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
	idv, err := idsAt(ctx, c, 0, vs)
	if err != nil {
		return err
	}
	var lines []pipeline.Uncovered
	for _, x := range first {
		lines = append(lines, pipeline.Uncovered{U: x.IDU, V: idv[x.V], AnsU: x.AnsU, AnsV: x.AnsV})
	}
	return pipeline.NotHittingSet(c.Hitting, st.uncovered, st.boundary, lines)
}

type finished struct {
	violations []violation
	Infeasible int64
	Edges      int64
	AuditBad   int64
	Worst      float64
	round      int
}

func gatherFinish(ctx context.Context, staging string, l bfs.Layout, limit int) (*finished, error) {
	fd := &finished{Worst: math.Inf(-1)}
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
		fd.Edges += x.Edges
		fd.AuditBad += x.AuditBad
		fd.Worst = max(fd.Worst, x.Worst)
	}
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
	var by []int32
	for _, v := range fd.violations {
		by = append(by, v.By)
	}
	rounds, err := lastRound(ctx, c.Staging)
	if err != nil {
		return err
	}
	idb, err := idsAt(ctx, c, rounds, by)
	if err != nil {
		return err
	}
	var conflicts []pipeline.Conflict
	for _, v := range fd.violations {
		conflicts = append(conflicts, pipeline.Conflict{Output: v.Output, H: v.IDH, By: idb[v.By], Dist: v.Dist,
			Given: v.Given, ByValue: v.ByValue, Bound: v.Bound})
	}
	return pipeline.Infeasible(c.Hitting, job.Epsilon, job.Delta, fd.Infeasible, conflicts)
}

// lastRound finds the newest state folder (any one holds every shard's ids).
func lastRound(ctx context.Context, staging string) (int, error) {
	names, err := listBlobs(ctx, join(staging, "state-*", "shard-000000"))
	if err != nil || len(names) == 0 {
		return 0, err
	}
	var r int
	_, err = fmt.Sscanf(filepath.Base(filepath.Dir(names[len(names)-1])), "state-%d", &r)
	return r, err
}

// assemble writes job.Out: the shards' output blocks, in position order, laid out by
// pipeline.BuildRecord and written by sink.Write — the single-machine run's bytes,
// except the engine named in the metadata. The launcher holds one row per vertex
// (not the graph) while doing so.
func assemble(ctx context.Context, c Conf, job pipeline.Job, pl *planned, fps []string, l bfs.Layout, s *pipeline.Summary) error {
	rounds, err := lastRound(ctx, c.Staging)
	if err != nil {
		return err
	}
	n := int(c.N)
	vs := &ingest.Vertices{File: job.Vertices, IDType: pl.idType, AnswerType: pl.answerType, Answer: make([]bool, 0, n), Fingerprint: fps[fileVertices]}
	sol := &bfs.Solution{}
	hit := &ingest.HittingSet{File: job.HittingSet, Fingerprint: fps[fileHit]}
	for sh := range l.Shards() {
		b, err := readBlob(ctx, stateFile(c.Staging, rounds, sh))
		if err != nil {
			return err
		}
		st, err := decodeState(b)
		if err != nil {
			return err
		}
		vs.IDs.Str = append(vs.IDs.Str, st.IDs.S...)
		vs.IDs.Int = append(vs.IDs.Int, st.IDs.Int...)
		vs.Answer = append(vs.Answer, st.Answer...)
		hit.Vertex = append(hit.Vertex, st.HitPos...)
		ob, err := readBlob(ctx, join(c.Staging, "out", fmt.Sprintf("shard-%06d", sh)))
		if err != nil {
			return err
		}
		d := dec{b: ob}
		d.i64()
		sol.PTrue = append(sol.PTrue, d.f64s()...)
		sol.POne = append(sol.POne, d.f64s()...)
		d.bools()
		sol.Bind = append(sol.Bind, d.i32s()...)
		sol.Dist = append(sol.Dist, d.i32s()...)
		if d.err != nil {
			return d.err
		}
	}
	if c.StrIDs {
		vs.IDs.Int = nil
	} else {
		vs.IDs.Str = nil
	}
	for _, p := range sol.PTrue {
		s.MeanPTrue += p
		if p == 1 {
			s.Truthful++
		}
	}
	if len(sol.PTrue) > 0 {
		s.MeanPTrue /= float64(len(sol.PTrue))
	}
	ld := &pipeline.Loaded{Vertices: vs, Edges: &ingest.Edges{File: job.Edges, Fingerprint: fps[fileEdges]}, Hit: hit}
	rec, err := pipeline.BuildRecord(nil, ld, sol)
	if err != nil {
		return err
	}
	defer rec.Release()
	return sink.Write(ctx, job.Out, rec, pipeline.Metadata(&job, Engine, ld))
}
