package beam

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	sdk "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/graphdp/graphdp/beam/beamopt"
	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/testgraph"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/sink"
)

func TestMain(m *testing.M) {
	flag.Parse()
	sdk.Init()
	var err error
	if binDir, err = os.MkdirTemp("", "graphdp-beam-test-bin"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(binDir)
	os.Exit(code)
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// testGraph is a generated test input: n vertices, edge rows, answers, hitting set.
type testGraph struct {
	name   string
	n      int
	src    []int
	dst    []int
	answer []bool
	hit    []int
	ptrue  []float64
	strIDs bool
	ids    []int64 // vertex ids (not dense: shuffled, with gaps)
}

// hitAtAlpha makes the vertices pick accepts, in vertex order, the hitting set, each
// at the balanced α = (e^ε+δ)/(e^ε+1) of ε = 1, δ = 0.01: feasible whenever the set
// hits every boundary edge.
func (g *testGraph) hitAtAlpha(pick func(v int) bool) {
	g.hit, g.ptrue = nil, nil
	for v := range g.n {
		if pick(v) {
			g.hit = append(g.hit, v)
			g.ptrue = append(g.ptrue, (math.E+0.01)/(math.E+1))
		}
	}
}

func (g *testGraph) id(v int) any {
	if g.strIDs {
		return fmt.Sprintf("v%d", g.ids[v])
	}
	return g.ids[v]
}

// edgesOf draws a graph of family fam (testgraph's families) as rows of int positions.
func edgesOf(r *rand.Rand, fam string, n int) (int, [][2]int) {
	n, e32 := testgraph.Named(fam).Make(r, n)
	e := make([][2]int, len(e32))
	for i, x := range e32 {
		e[i] = [2]int{int(x[0]), int(x[1])}
	}
	return n, e
}

var familyNames = []string{"path", "grid", "star", "tree", "random-multi"}

// gen draws an instance: answers, a boundary-hitting set (or sometimes not), values
// that are feasible (the balanced α, or a tiny ε-independent 1/2…) or random.
func gen(r *rand.Rand, fam string, n int, eps, delta float64) *testGraph {
	n, e := edgesOf(r, fam, n)
	g := &testGraph{name: fam, n: n, strIDs: r.IntN(3) == 0}
	perm := r.Perm(n)
	g.ids = make([]int64, n)
	for i := range g.ids {
		g.ids[i] = int64(perm[i]*3 + 7)
	}
	for _, x := range e {
		g.src, g.dst = append(g.src, x[0]), append(g.dst, x[1])
	}
	g.answer = make([]bool, n)
	t := r.IntN(n + 1)
	for v := range g.answer {
		if r.IntN(2) == 0 {
			g.answer[v] = v >= t
		} else {
			g.answer[v] = r.IntN(4) == 0
		}
	}
	in := make([]bool, n)
	for i := range g.src {
		u, v := g.src[i], g.dst[i]
		if g.answer[u] != g.answer[v] && !in[u] && !in[v] {
			if r.IntN(2) == 0 {
				in[u] = true
			} else {
				in[v] = true
			}
		}
	}
	if r.IntN(6) == 0 { // drop one: often not a hitting set any more
		for v := range in {
			if in[v] {
				in[v] = false
				break
			}
		}
	}
	for k := r.IntN(3); k > 0; k-- {
		in[r.IntN(n)] = true
	}
	alpha := (math.Exp(eps) + delta) / (math.Exp(eps) + 1)
	mode := r.IntN(4)
	for _, v := range r.Perm(n) {
		if !in[v] {
			continue
		}
		g.hit = append(g.hit, v)
		switch mode {
		case 0, 1:
			g.ptrue = append(g.ptrue, alpha)
		case 2:
			g.ptrue = append(g.ptrue, r.Float64())
		default:
			g.ptrue = append(g.ptrue, alpha+(1-alpha)*r.Float64()*0.01)
		}
	}
	return g
}

// write puts g's three tables into dir as Parquet with small row groups (so reading
// is split several ways) and returns a job.
func (g *testGraph) write(t testing.TB, dir string, rowGroup int64) job.Job {
	t.Helper()
	idType := arrow.DataType(arrow.PrimitiveTypes.Int64)
	if g.strIDs {
		idType = arrow.BinaryTypes.String
	}
	appendID := func(b array.Builder, v int) {
		if g.strIDs {
			b.(*array.StringBuilder).Append(g.id(v).(string))
		} else {
			b.(*array.Int64Builder).Append(g.ids[v])
		}
	}
	j := job.DefaultJob()
	// Generated graphs may have isolated datasets, which fail a run closed: the tests
	// compare what both backends write, and TestBeamRefusesNotPrivateLikeLocal the
	// refusal.
	j.AllowNonPrivate = true
	j.Vertices = filepath.Join(dir, "vertices.parquet")
	j.Edges = filepath.Join(dir, "edges.parquet")
	j.HittingSet = filepath.Join(dir, "hitting.parquet")
	writeTable(t, j.Vertices, rowGroup, arrow.NewSchema([]arrow.Field{{Name: "id", Type: idType}, {Name: "answer", Type: arrow.FixedWidthTypes.Boolean}}, nil),
		func(b *array.RecordBuilder) {
			for v := range g.n {
				appendID(b.Field(0), v)
				b.Field(1).(*array.BooleanBuilder).Append(g.answer[v])
			}
		})
	writeTable(t, j.Edges, rowGroup, arrow.NewSchema([]arrow.Field{{Name: "src", Type: idType}, {Name: "dst", Type: idType}}, nil),
		func(b *array.RecordBuilder) {
			for i := range g.src {
				appendID(b.Field(0), g.src[i])
				appendID(b.Field(1), g.dst[i])
			}
		})
	writeTable(t, j.HittingSet, rowGroup, arrow.NewSchema([]arrow.Field{{Name: "id", Type: idType}, {Name: "p_true", Type: arrow.PrimitiveTypes.Float64}}, nil),
		func(b *array.RecordBuilder) {
			for i, h := range g.hit {
				appendID(b.Field(0), h)
				b.Field(1).(*array.Float64Builder).Append(g.ptrue[i])
			}
		})
	return j
}

func writeTable(t testing.TB, path string, rowGroup int64, sc *arrow.Schema, fill func(*array.RecordBuilder)) {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	fill(b)
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(sc, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(rowGroup)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// runWith runs job on Beam with opts as its beam: keys.
func runWith(ctx context.Context, job job.Job, opts Options, log *slog.Logger) (*pipeline.Summary, error) {
	job.Beam = opts
	return Run(ctx, job, log)
}

// both runs job on this machine and on Beam (Prism) and returns the two outcomes.
func both(t *testing.T, job job.Job, eps, delta float64, opts Options) (local, beam []byte, lerr, berr error) {
	t.Helper()
	local, beam, _, _, lerr, berr = bothSummaries(t, job, eps, delta, opts)
	return
}

// bothSummaries is both with the two runs' summaries.
func bothSummaries(t *testing.T, job job.Job, eps, delta float64, opts Options) (local, beam []byte, ls, bs *pipeline.Summary, lerr, berr error) {
	t.Helper()
	job.SetEpsilon(eps)
	job.Delta = delta
	dir := filepath.Dir(job.Vertices)
	ctx := context.Background()
	lj, bj := job, job
	lj.Out = filepath.Join(dir, "local.csv")
	bj.Out = filepath.Join(dir, "beam.csv")
	ls, lerr = pipeline.Run(ctx, lj, quiet)
	bs, berr = runWith(ctx, bj, opts, quiet)
	local, _ = os.ReadFile(lj.Out)
	beam, _ = os.ReadFile(bj.Out)
	return
}

func sameOutcome(t *testing.T, name string, local, beam []byte, lerr, berr error) {
	t.Helper()
	if (lerr == nil) != (berr == nil) || (lerr != nil && lerr.Error() != berr.Error()) {
		t.Fatalf("%s: errors differ:\nlocal: %v\nbeam:  %v", name, lerr, berr)
	}
	if lerr != nil {
		var ie *ingest.InputError
		var re *pipeline.RejectError
		if errors.As(lerr, &ie) != errors.As(berr, &ie) || errors.As(lerr, &re) != errors.As(berr, &re) {
			t.Fatalf("%s: error types differ: %T vs %T", name, lerr, berr)
		}
		for _, kind := range ingest.Kinds() {
			if errors.Is(lerr, kind) != errors.Is(berr, kind) {
				t.Fatalf("%s: error kinds differ on %q: local %v, beam %v", name, kind, errors.Is(lerr, kind), errors.Is(berr, kind))
			}
		}
		return
	}
	if !bytes.Equal(local, beam) {
		t.Fatalf("%s: outputs differ (%d vs %d bytes)", name, len(local), len(beam))
	}
}

// joins are the build's two ways of joining ids, as Options.BroadcastVertices: the
// broadcast index (the default at these sizes) and the buckets' shuffles.
var joins = [2]int{0, -1}

// The Beam pipeline on Prism gives the single-machine run's output byte for byte
// (CSV: every p_true, p_one, binding id and distance, shortest round-trip floats), or
// the same rejection, on generated graphs: structured and random, feasible and
// infeasible, hitting sets and sets that miss boundary edges.
func TestBeamMatchesLocal(t *testing.T) {
	t.Parallel()
	count := 48
	if testing.Short() {
		count = 12
	}
	kinds := matchesLocal(t, rand.New(rand.NewPCG(17, 4)), count, Options{})
	if !testing.Short() && (kinds["ok"] < 10 || kinds["infeasible"] < 3 || kinds["not-hitting-set"] < 3) {
		t.Fatalf("too few of some outcome: %v", kinds)
	}
}

// The same with the worker cache off (beam.no_worker_cache): every round reads its
// shard's block and its candidates (a full file and the chain of deltas after it)
// from staging, as a worker that did not settle the shard in the round before must.
func TestBeamFromStagingMatchesLocal(t *testing.T) {
	t.Parallel()
	count := 24
	if testing.Short() {
		count = 6
	}
	kinds := matchesLocal(t, rand.New(rand.NewPCG(23, 5)), count, Options{NoWorkerCache: true})
	if !testing.Short() && kinds["ok"] < 5 {
		t.Fatalf("too few feasible runs: %v", kinds)
	}
}

// matchesLocal runs count generated jobs both ways, with base's Arcs and
// NoWorkerCache, and offers staged and shuffled (beam.offers) in turn.
func matchesLocal(t *testing.T, r *rand.Rand, count int, base Options) map[string]int {
	t.Helper()
	params := [][2]float64{{math.Ln2, 0}, {0.5, 1e-6}, {1, 0.1}, {3, 0.01}, {0.1, 0}, {0, 0.05}}
	kinds := map[string]int{}
	for k := range count {
		fam := familyNames[k%len(familyNames)]
		pr := params[(k/len(familyNames))%len(params)]
		g := gen(r, fam, 2+r.IntN(60), pr[0], pr[1])
		dir := t.TempDir()
		job := g.write(t, dir, int64(1+r.IntN(16)))
		opts := Options{ShardSize: 1 + r.IntN(9), Buckets: 1 + r.IntN(5), RoundsPerPipeline: 1 + r.IntN(4), BroadcastVertices: joins[k%2],
			Arcs: base.Arcs, NoWorkerCache: base.NoWorkerCache}
		// Offers through staging (Prism's default) and through the shuffle (a cluster's).
		opts.Offers = [2]string{beamopt.Staged, beamopt.Shuffled}[k%4/2]
		name := fmt.Sprintf("#%d %s n=%d ε=%v δ=%v str=%v %+v", k, fam, g.n, pr[0], pr[1], g.strIDs, opts)
		local, beam, lerr, berr := both(t, job, pr[0], pr[1], opts)
		sameOutcome(t, name, local, beam, lerr, berr)
		var re *pipeline.RejectError
		switch {
		case lerr == nil:
			kinds["ok"]++
		case errors.As(lerr, &re):
			kinds[re.Kind]++
		default:
			kinds["other"]++
		}
	}
	t.Logf("outcomes: %v", kinds)
	return kinds
}

// Bad inputs are rejected with the single-machine run's error, word for word and of
// the same type (exit status 3 in the CLI): bad cells, unknown ids, duplicates,
// missing columns, wrong types — several at once, to check which one is reported.
func TestBeamRejectsLikeLocal(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	type mutation struct {
		name string
		fn   func(g *testGraph, dir string, job *job.Job)
	}
	rewriteHit := func(t *testing.T, job *job.Job, g *testGraph, ids []any, p []float64) {
		writeTable(t, job.HittingSet, 3, arrow.NewSchema([]arrow.Field{{Name: "id", Type: idArrowType(g)}, {Name: "p_true", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil),
			func(b *array.RecordBuilder) {
				for i, id := range ids {
					appendAny(b.Field(0), id)
					if math.IsNaN(p[i]) {
						b.Field(1).AppendNull()
					} else {
						b.Field(1).(*array.Float64Builder).Append(p[i])
					}
				}
			})
	}
	muts := []mutation{
		{"unknown edge ids", func(g *testGraph, dir string, job *job.Job) {
			writeTable(t, job.Edges, 2, arrow.NewSchema([]arrow.Field{{Name: "src", Type: idArrowType(g)}, {Name: "dst", Type: idArrowType(g)}}, nil),
				func(b *array.RecordBuilder) {
					for i := range g.src {
						s, d := g.id(g.src[i]), g.id(g.dst[i])
						if i%5 == 3 {
							d = bogus(g, i)
						}
						if i%7 == 6 {
							s = bogus(g, i+1000)
						}
						appendAny(b.Field(0), s)
						appendAny(b.Field(1), d)
					}
				})
		}},
		{"duplicate vertex ids", func(g *testGraph, dir string, job *job.Job) {
			writeTable(t, job.Vertices, 4, arrow.NewSchema([]arrow.Field{{Name: "id", Type: idArrowType(g)}, {Name: "answer", Type: arrow.FixedWidthTypes.Boolean}}, nil),
				func(b *array.RecordBuilder) {
					for v := range g.n {
						id := g.id(v)
						if v > 2 && v%4 == 0 {
							id = g.id(v / 3)
						}
						appendAny(b.Field(0), id)
						b.Field(1).(*array.BooleanBuilder).Append(g.answer[v])
					}
				})
		}},
		{"hitting set: unknown, duplicate, null, out of range", func(g *testGraph, dir string, job *job.Job) {
			var ids []any
			var p []float64
			for i, h := range g.hit {
				ids = append(ids, g.id(h))
				p = append(p, g.ptrue[i])
			}
			if len(ids) > 0 {
				ids = append(ids, ids[0])
				p = append(p, 0.5)
			}
			switch r.IntN(3) {
			case 0:
				ids = append(ids, bogus(g, 3))
				p = append(p, 0.5)
			case 1:
				ids = append(ids, g.id(0))
				p = append(p, math.NaN()) // null
			default:
				ids = append(ids, g.id(0))
				p = append(p, 1.5)
			}
			r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j], p[i], p[j] = ids[j], ids[i], p[j], p[i] })
			rewriteHit(t, job, g, ids, p)
		}},
		{"missing column", func(g *testGraph, dir string, job *job.Job) {
			job.Columns.Dst = "to"
		}},
		{"wrong id type in the hitting set", func(g *testGraph, dir string, job *job.Job) {
			writeTable(t, job.HittingSet, 3, arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Float64}, {Name: "p_true", Type: arrow.PrimitiveTypes.Float64}}, nil),
				func(b *array.RecordBuilder) {
					b.Field(0).(*array.Float64Builder).Append(1)
					b.Field(1).(*array.Float64Builder).Append(1)
				})
		}},
		{"vertices: answer 2 and a duplicate; edges bad too", func(g *testGraph, dir string, job *job.Job) {
			writeTable(t, job.Vertices, 3, arrow.NewSchema([]arrow.Field{{Name: "id", Type: idArrowType(g)}, {Name: "answer", Type: arrow.PrimitiveTypes.Int32}}, nil),
				func(b *array.RecordBuilder) {
					for v := range g.n {
						id := g.id(v)
						if v == g.n-1 && v > 0 {
							id = g.id(0)
						}
						appendAny(b.Field(0), id)
						a := int32(0)
						if g.answer[v] {
							a = 1
						}
						if v == g.n/2 {
							a = 2
						}
						b.Field(1).(*array.Int32Builder).Append(a)
					}
				})
			job.Columns.Src = "from"
		}},
	}
	for k, m := range muts {
		for rep := range 3 {
			g := gen(r, familyNames[(k+rep)%len(familyNames)], 3+r.IntN(30), 1, 0.01)
			dir := t.TempDir()
			job := g.write(t, dir, int64(1+r.IntN(8)))
			m.fn(g, dir, &job)
			opts := Options{ShardSize: 1 + r.IntN(5), Buckets: 1 + r.IntN(4), RoundsPerPipeline: 2, BroadcastVertices: joins[rep%2]}
			local, beam, lerr, berr := both(t, job, 1, 0.01, opts)
			if lerr == nil {
				t.Fatalf("%s: accepted", m.name)
			}
			sameOutcome(t, fmt.Sprintf("%s #%d", m.name, rep), local, beam, lerr, berr)
		}
	}
}

func idArrowType(g *testGraph) arrow.DataType {
	if g.strIDs {
		return arrow.BinaryTypes.String
	}
	return arrow.PrimitiveTypes.Int64
}

func bogus(g *testGraph, i int) any {
	if g.strIDs {
		return fmt.Sprintf("nope%d", i)
	}
	return int64(-1 - i)
}

func appendAny(b array.Builder, v any) {
	switch x := v.(type) {
	case string:
		b.(*array.StringBuilder).Append(x)
	case int64:
		b.(*array.Int64Builder).Append(x)
	}
}

// The Parquet and Arrow outputs are the single-machine file's bytes except for the
// engine's name in the metadata: the local run's table and metadata, with Beam's
// engine name, written by sink.Write, are Beam's file byte for byte — though Beam
// streams it shard by shard (sink.WriteBatches: here 6 shards of 16 rows make the
// one row group). Int and string ids (binding ids resolved across shards).
func TestBeamParquetOutput(t *testing.T) {
	for _, ext := range []string{".parquet", ".arrow"} {
		for _, str := range []bool{false, true} {
			r := rand.New(rand.NewPCG(8, 8))
			g := gen(r, "grid", 80, 1, 0.01)
			g.strIDs = str
			// Every answer-1 vertex is in: a boundary-hitting set.
			g.hitAtAlpha(func(v int) bool { return v%3 == 0 || g.answer[v] })
			dir := t.TempDir()
			job := g.write(t, dir, 16)
			job.SetEpsilon(1)
			job.Delta = 0.01
			lj, bj := job, job
			lj.Out, bj.Out = filepath.Join(dir, "local"+ext), filepath.Join(dir, "beam"+ext)
			if _, err := pipeline.Run(context.Background(), lj, quiet); err != nil {
				t.Fatal(err)
			}
			s, err := runWith(context.Background(), bj, Options{ShardSize: 16, Buckets: 3}, quiet)
			if err != nil {
				t.Fatal(err)
			}
			if s.Runner != "beam" || s.Vertices != g.n || s.EdgesRead != int64(len(g.src)) || s.Backend.(*beamopt.Report).Shards < 5 {
				t.Errorf("summary %+v", s)
			}
			rec, meta := readTable(t, lj.Out)
			if meta["graphdp.engine"] != "propagate" {
				t.Fatalf("local engine %q", meta["graphdp.engine"])
			}
			meta["graphdp.engine"] = Engine
			ref := filepath.Join(dir, "ref"+ext)
			if err := sink.Write(context.Background(), ref, rec, meta); err != nil {
				t.Fatal(err)
			}
			a, _ := os.ReadFile(ref)
			b, _ := os.ReadFile(bj.Out)
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Fatalf("%s, string ids %v: Beam's file (%d bytes) is not the local one with Beam's engine name (%d bytes); schema read back %s",
					ext, str, len(b), len(a), rec.Schema())
			}
		}
	}
}

// plainSchema is sc's fields without metadata (readers add their own).
func plainSchema(sc *arrow.Schema) *arrow.Schema {
	fs := sc.Fields()
	for i := range fs {
		fs[i].Metadata = arrow.Metadata{}
	}
	return arrow.NewSchema(fs, nil)
}

// readTable is an output file's rows as one record (released with the test) and
// its metadata, Parquet or Arrow IPC.
func readTable(t *testing.T, path string) (arrow.RecordBatch, map[string]string) {
	t.Helper()
	var cols []arrow.Array
	var sc *arrow.Schema
	md := map[string]string{}
	if filepath.Ext(path) == ".parquet" {
		tb, m := readParquet(t, path)
		md = m
		sc = plainSchema(tb.Schema())
		for i := range int(tb.NumCols()) {
			c, err := array.Concatenate(tb.Column(i).Data().Chunks(), memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			cols = append(cols, c)
		}
	} else {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rd, err := ipc.NewFileReader(f)
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		m := rd.Schema().Metadata()
		for i, k := range m.Keys() {
			md[k] = m.Values()[i]
		}
		sc = plainSchema(rd.Schema())
		chunks := make([][]arrow.Array, sc.NumFields())
		for i := range rd.NumRecords() {
			rec, err := rd.RecordBatch(i)
			if err != nil {
				t.Fatal(err)
			}
			for j := range chunks {
				chunks[j] = append(chunks[j], rec.Column(j))
			}
		}
		for j := range chunks {
			c, err := array.Concatenate(chunks[j], memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			cols = append(cols, c)
		}
	}
	rec := array.NewRecordBatch(sc, cols, int64(cols[0].Len()))
	for _, c := range cols {
		c.Release()
	}
	t.Cleanup(rec.Release)
	return rec, md
}

func readParquet(t *testing.T, path string) (arrow.Table, map[string]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	md := map[string]string{}
	kv := rd.MetaData().KeyValueMetadata()
	for i, k := range kv.Keys() {
		if k != "ARROW:schema" {
			md[k] = kv.Values()[i]
		}
	}
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tb.Release)
	return tb, md
}

// Values accepted within bfs.Tolerance above their bounds are repaired by re-solving
// (bfs.Solve); Beam repairs on the shards and gives the same bytes. Inputs: the
// balanced α on every boundary vertex (exactly on the feasibility edge), some of them
// nudged up by 1e-10 (divided by e^ε: a neighbour's bound moves e^ε times as far, and
// it must stay within Tolerance), and a few set members further inside. Local repairs are counted
// to check the test reaches the repair loop, also for several repair rounds.
func TestBeamRepairMatchesLocal(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 11))
	params := [][2]float64{{1, 0.01}, {math.Ln2, 0}, {0.5, 1e-6}, {3, 0.01}, {0.1, 0}, {0, 0.05}, {0, 0}}
	count := 21
	if testing.Short() {
		count = 7
	}
	repairs := map[int]int{}
	for k := range count {
		fam := familyNames[k%len(familyNames)]
		pr := params[k%len(params)]
		g := gen(r, fam, 2+r.IntN(60), pr[0], pr[1])
		alpha := (math.Exp(pr[0]) + pr[1]) / (math.Exp(pr[0]) + 1)
		onBoundary := make([]bool, g.n)
		for i := range g.src {
			if u, v := g.src[i], g.dst[i]; g.answer[u] != g.answer[v] {
				onBoundary[u], onBoundary[v] = true, true
			}
		}
		g.hit, g.ptrue = nil, nil
		for _, v := range r.Perm(g.n) {
			if !onBoundary[v] && r.IntN(8) != 0 {
				continue
			}
			p := alpha
			if r.IntN(2) == 0 {
				p += 1e-10 / math.Exp(pr[0])
			}
			g.hit, g.ptrue = append(g.hit, v), append(g.ptrue, min(p, 1))
		}
		if len(g.hit) == 0 {
			g.hit, g.ptrue = []int{0}, []float64{alpha}
		}
		dir := t.TempDir()
		job := g.write(t, dir, int64(1+r.IntN(16)))
		job.SetEpsilon(pr[0])
		job.Delta = pr[1]
		opts := Options{ShardSize: 1 + r.IntN(9), Buckets: 1 + r.IntN(5), RoundsPerPipeline: 1 + r.IntN(4), BroadcastVertices: joins[k%2]}
		name := fmt.Sprintf("#%d %s n=%d ε=%v δ=%v str=%v %+v", k, fam, g.n, pr[0], pr[1], g.strIDs, opts)
		local, beam, ls, bs, lerr, berr := bothSummaries(t, job, pr[0], pr[1], opts)
		sameOutcome(t, name, local, beam, lerr, berr)
		if lerr != nil {
			t.Fatalf("%s: rejected: %v", name, lerr)
		}
		// bfs.Solve's repair rule (bfs.RepairKept) on both: the same values moved.
		if ls.Repaired != bs.Repaired {
			t.Fatalf("%s: repaired values: local %d, beam %d", name, ls.Repaired, bs.Repaired)
		}
		x, err := load.LoadInputs(context.Background(), &job, load.Request{HittingSet: true, Engine: "propagate"})
		if err != nil {
			t.Fatal(err)
		}
		c, err := pipeline.Check(context.Background(), job, x)
		if err != nil {
			t.Fatal(err)
		}
		repairs[c.Solution.Repairs]++
	}
	t.Logf("local repairs: %v", repairs)
	if repairs[0] == count {
		t.Fatalf("no case was repaired: %v", repairs)
	}
}

// The graph stays put and rounds count shard crossings: on a path of 200 vertices in
// 10 shards with its one hitting-set vertex at an end and δ = 0 (no value reaches the
// top, so every vertex is bound), the run takes 10 rounds (one per shard: no offer
// goes back across a boundary, bfs.Stepper.Offer), each vertex changes once per
// colour, and each round shuffles at most one offer per colour across one boundary
// — a few dozen bytes, not the graph. The output is the single-machine file's.
func TestBeamRoundsShuffleOnlyTheFrontier(t *testing.T) {
	const n, size = 200, 20
	g := &testGraph{name: "path", n: n, ids: make([]int64, n), answer: make([]bool, n), hit: []int{0}, ptrue: []float64{0.6}}
	for v := range n {
		g.ids[v] = int64(v)
		if v > 0 {
			g.src, g.dst = append(g.src, v-1), append(g.dst, v)
		}
	}
	dir := t.TempDir()
	job := g.write(t, dir, 64)
	job.SetEpsilon(0.5)
	lj, bj := job, job
	lj.Out, bj.Out = filepath.Join(dir, "local.csv"), filepath.Join(dir, "beam.csv")
	if _, err := pipeline.Run(context.Background(), lj, quiet); err != nil {
		t.Fatal(err)
	}
	bj.Beam.ShardSize, bj.Beam.RoundsPerPipeline = size, 4 // the job's beam: keys
	s, err := Run(context.Background(), bj, quiet)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(lj.Out)
	b, _ := os.ReadFile(bj.Out)
	if !bytes.Equal(a, b) {
		t.Fatalf("beam output differs from the local run's")
	}
	br, _ := s.Backend.(*beamopt.Report)
	shards := n / size
	if br == nil || br.Shards != shards || br.ShardSize != size || br.Rounds != shards || br.Offers != int64(2*(shards-1)) {
		t.Fatalf("beam run %+v: want %d shards of %d, %d rounds, %d offers", br, shards, size, shards, 2*(shards-1))
	}
	var changed int64
	for _, r := range br.PerRound {
		changed += r.Changed
		if r.Offers > 2 || r.Bytes > 2*64 {
			t.Errorf("round %d shuffled %d offers in %d bytes", r.Round, r.Offers, r.Bytes)
		}
	}
	if changed != 2*n {
		t.Errorf("%d vertex changes, want %d (each vertex once per colour)", changed, 2*n)
	}
	if want := (shards + 3) / 4; br.Pipelines != want+1 { // rounds pipelines + finish
		t.Errorf("%d pipelines, want %d", br.Pipelines, want+1)
	}
}

// bothPolicy runs job on this machine and on Beam under the repair policy rp
// (pipeline.Policy.Drive: one policy, passed to both backends).
func bothPolicy(t *testing.T, job job.Job, eps, delta float64, opts Options, p pipeline.Policy) (local, beam []byte, lerr, berr error) {
	t.Helper()
	job.SetEpsilon(eps)
	job.Delta = delta
	dir := filepath.Dir(job.Vertices)
	ctx := context.Background()
	lj, bj := job, job
	lj.Out, bj.Out = filepath.Join(dir, "local-policy.csv"), filepath.Join(dir, "beam-policy.csv")
	bj.Beam = opts
	lb, err := pipeline.Local(lj)
	if err != nil {
		t.Fatal(err)
	}
	_, lerr = p.Drive(ctx, lj, lb, quiet)
	_, berr = p.Drive(ctx, bj, New(bj, quiet), quiet)
	local, _ = os.ReadFile(lj.Out)
	beam, _ = os.ReadFile(bj.Out)
	return
}

// failedRepairPath is a path whose one hitting-set value lies 5e-10 above its bound
// (within bfs.Tolerance): the default policy repairs it (1 move).
func failedRepairPath(t *testing.T) job.Job {
	pair, err := dp.New(1, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	x := 0.2
	g := &testGraph{name: "path", n: 3, src: []int{0, 1}, dst: []int{1, 2}, answer: []bool{true, true, true},
		hit: []int{0, 1}, ptrue: []float64{x, pair.Upper(x) + 5e-10}, ids: []int64{10, 20, 30}}
	return g.write(t, t.TempDir(), 2)
}

// A repair the policy refuses is rejected by both backends as bfs.Solve rejects it:
// with the first solve's values above their bounds at all (tolerance 0), nothing
// written. No input is known that makes the default policy refuse (it needs float
// pathologies), so the refusal is forced on failedRepairPath, whose one value is
// repaired by default; refused, the pair is listed once (private: Conflicts) for both outputs (Pr[M=1] of id
// 20 above U(Pr[M=1] of id 10), hence Pr[M=0] of id 10 above U(Pr[M=0] of id 20):
// the DP relation is symmetric).
func TestBeamRejectsAFailedRepair(t *testing.T) {
	job := failedRepairPath(t)
	opts := Options{ShardSize: 1, Buckets: 2, RoundsPerPipeline: 1}
	_, _, ls, _, lerr, _ := bothSummaries(t, job, 1, 0.01, opts)
	if lerr != nil || ls.Repaired != 1 {
		t.Fatalf("local, default policy: %v, %d repaired; want a repair of 1 value", lerr, ls.Repaired)
	}
	refuse := bfs.Repair{Max: bfs.MaxRepairs, Kept: func(bool, float64) bool { return false }}
	local, beam, lerr, berr := bothPolicy(t, job, 1, 0.01, opts, pipeline.Policy{Repair: refuse})
	sameOutcome(t, "refused repair", local, beam, lerr, berr)
	var re *pipeline.RejectError
	if !errors.As(berr, &re) || re.Kind != "infeasible" || len(re.Conflicts) != 1 || fmt.Sprint(re.Conflicts[0].Datasets) != "[10 20]" || len(beam) != 0 || len(local) != 0 {
		t.Fatalf("beam: %v, conflicts %v (%d bytes written); want the pair listed once, nothing written", berr, re.Conflicts, len(beam))
	}
}

// The audit is the net under the engines (bfs doc.go, invariant 4): a mechanism that
// fails it is an internal error, the same message on both backends, naming the
// first failing edge (CSR order) by its ends' ids, and nothing is written. The
// engines never produce one, so the driver's policy makes the audit check a
// smaller ε (0.5) than the mechanism was made for (1): on failedRepairPath, whose
// value at id 20 lies on the bound id 10 imposes at ε = 1, the edge 10–20 fails.
func TestBeamInternalErrorLikeLocal(t *testing.T) {
	job := failedRepairPath(t)
	tighter, err := dp.New(0.5, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	p := pipeline.Policy{Repair: bfs.DefaultRepair, Audit: &tighter}
	for _, opts := range []Options{{ShardSize: 1, Buckets: 2, RoundsPerPipeline: 1}, {ShardSize: 3, Buckets: 1, RoundsPerPipeline: 2}} {
		local, beam, lerr, berr := bothPolicy(t, job, 1, 0.01, opts, p)
		sameOutcome(t, fmt.Sprintf("%+v", opts), local, beam, lerr, berr)
		if berr == nil || !strings.HasPrefix(berr.Error(), "internal error: the computed mechanism fails the DP audit on ") ||
			!strings.Contains(berr.Error(), "e.g. 10–20 (excess ") || len(beam) != 0 || len(local) != 0 {
			t.Fatalf("%+v: %v (%d, %d bytes written); want the audit's internal error naming 10–20, nothing written", opts, berr, len(local), len(beam))
		}
	}
}

// comparable is s without what differs between runners by design: the runner and
// engine names, timings and memory, the engine's relaxation count (the local
// engine's), the Beam rounds' report, the output path. The audit's worst excess is
// compared: the shards' audits merged (check.Audit.Merge) and the winner made exact
// (Audit.Exact) are check.Verify's, so a worst edge exactly on its bound reads 0 on
// both runners, not a float64 estimate's 1.4e-17 (case #3 below).
func comparable(s pipeline.Summary) pipeline.Summary {
	s.Runner, s.Engine, s.Out = "", "", ""
	s.Phases, s.WallSeconds, s.PeakRSSBytes, s.Relaxations, s.RelaxPerSec, s.Backend = nil, 0, 0, 0, 0, nil
	s.Memory = nil // the local run's model of its own memory
	return s
}

// A Beam run's summary is the local run's, components included (counted per shard
// and joined along the cut, finish.go), on graphs with many components: sparse random
// graphs below and around the giant component's threshold, with isolated vertices,
// and disjoint paths, with shuffled ids (components spread over every shard), cut
// into shards of every size, infeasible runs too.
func TestBeamSummaryMatchesLocal(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 2))
	count := 16
	if testing.Short() {
		count = 4
	}
	components := map[bool]int{}
	for k := range count {
		n := 20 + r.IntN(80)
		g := gen(r, "path", n, 1, 0.01) // answers, ids; edges and hitting set replaced
		g.src, g.dst = nil, nil
		if k%2 == 0 { // sparse random: m ≈ n/4 … 3n/4
			for range n/4 + r.IntN(n/2) {
				g.src, g.dst = append(g.src, r.IntN(n)), append(g.dst, r.IntN(n))
			}
		} else { // paths of 1–8 vertices along a random order
			order := r.Perm(n)
			for i := 1; i < n; i++ {
				if r.IntN(4) != 0 {
					g.src, g.dst = append(g.src, order[i-1]), append(g.dst, order[i])
				}
			}
		}
		pr := [][2]float64{{1, 0.01}, {0.5, 0}, {math.Ln2, 1e-6}}[k%3]
		g.hit, g.ptrue = nil, nil
		in := map[int]bool{}
		for i := range g.src {
			if u, v := g.src[i], g.dst[i]; g.answer[u] != g.answer[v] && !in[u] && !in[v] {
				in[u] = true
				p := (math.Exp(pr[0]) + pr[1]) / (math.Exp(pr[0]) + 1)
				if k%5 == 4 {
					p = r.Float64() // often infeasible
				}
				g.hit, g.ptrue = append(g.hit, u), append(g.ptrue, p)
			}
		}
		if len(g.hit) == 0 {
			g.hit, g.ptrue = []int{0}, []float64{0.5}
		}
		job := g.write(t, t.TempDir(), int64(1+r.IntN(16)))
		opts := Options{ShardSize: 1 + r.IntN(n/2), Buckets: 1 + r.IntN(5), RoundsPerPipeline: 1 + r.IntN(4)}
		name := fmt.Sprintf("#%d n=%d m=%d %+v", k, n, len(g.src), opts)
		local, beam, ls, bs, lerr, berr := bothSummaries(t, job, pr[0], pr[1], opts)
		sameOutcome(t, name, local, beam, lerr, berr)
		if ls == nil || bs == nil {
			t.Fatalf("%s: no summary (local %v, beam %v): %v", name, ls != nil, bs != nil, lerr)
		}
		if ls.Components < n/8 {
			t.Fatalf("%s: only %d components: not the case this test is for", name, ls.Components)
		}
		lj, _ := json.Marshal(comparable(*ls))
		bj, _ := json.Marshal(comparable(*bs))
		if !bytes.Equal(lj, bj) {
			t.Fatalf("%s: summaries differ:\nlocal: %s\nbeam:  %s", name, lj, bj)
		}
		// Printed: the same lines but for the engine's name, the output's path, the
		// Beam rounds' line and the times.
		printed := func(s *pipeline.Summary) string {
			var b bytes.Buffer
			s.Human(&b)
			var keep []string
			pairs := []string{s.Engine, "ENGINE"}
			if s.Out != "" {
				pairs = append(pairs, s.Out, "OUT")
			}
			for _, line := range strings.Split(strings.NewReplacer(pairs...).Replace(b.String()), "\n") {
				if !strings.HasPrefix(line, "  beam: ") && !strings.HasPrefix(line, "  time ") {
					keep = append(keep, line)
				}
			}
			return strings.Join(keep, "\n")
		}
		if lp, bp := printed(ls), printed(bs); lp != bp {
			t.Fatalf("%s: printed summaries differ:\n%q\n%q", name, lp, bp)
		}
		components[lerr == nil]++
	}
	if !testing.Short() && (components[true] < 3 || components[false] < 1) {
		t.Fatalf("too few feasible or infeasible runs: %v", components)
	}
}
