package pipeline

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/graph"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"

	"github.com/graphdp/graphdp/internal/version"
)

var quiet = slog.New(slog.DiscardHandler)

func exampleJob(t *testing.T, out string) job.Job {
	t.Helper()
	j := job.DefaultJob()
	unknown, err := j.LoadConfig("../configs/example.yaml")
	if err != nil || len(unknown) > 0 {
		t.Fatalf("example config: %v %v", err, unknown)
	}
	j.Out, j.Summary = out, ""
	if err := j.Validate("test"); err != nil {
		t.Fatal(err)
	}
	return j
}

// The shipped example (the paper's Figure 1) end to end, checked against hand-derived
// counts: 22 vertices, 24 edges, 6 boundary edges (docs/DESIGN.md §10.4), one component; the
// hitting set {l,h,u,s,t} (all answer 1) carries the balanced α. An answer-1 vertex at
// distance d gets the corollary's value at d (docs/DESIGN.md §10.3); an answer-0 vertex is one
// step behind: Pr[M(h)=0] = 1 − α and U(1 − α) = α, so it gets the value at d − 1.
func TestExample(t *testing.T) {
	dir := t.TempDir()
	j := exampleJob(t, filepath.Join(dir, "m.parquet"))
	j.Summary = filepath.Join(dir, "run.json")
	s, err := Run(context.Background(), j, quiet)
	if err != nil {
		t.Fatal(err)
	}
	if s.Vertices != 22 || s.EdgesRead != 24 || s.EdgesKept != 24 || s.BoundaryEdges != 6 || s.Uncovered != 0 ||
		s.Components != 1 || s.HittingSet != 5 || !s.Feasible || s.AuditWorst > 0 {
		t.Errorf("summary %+v", s)
	}
	if _, err := os.Stat(j.Summary); err != nil {
		t.Errorf("no summary JSON: %v", err)
	}
	tbl := readParquet(t, j.Out)
	defer tbl.Release()
	e, delta := math.Exp(0.5), 1e-6
	want := func(d int) float64 { // docs/DESIGN.md §10.3
		ed := math.Pow(e, float64(d))
		return min(1, 1-(e-1-delta*(e*ed+ed-2))/(ed*(e+1)*(e-1)))
	}
	ids := tbl.Column(0).Data().Chunk(0).(*array.String)
	pt := tbl.Column(2).Data().Chunk(0).(*array.Float64)
	bind := tbl.Column(5).Data().Chunk(0).(*array.String)
	dist := tbl.Column(6).Data().Chunk(0).(*array.Int32)
	// hop distance of each letter to the nearest of {l,h,u,s,t}, by hand from the edge list
	hand := map[string]int{"a": 3, "b": 3, "c": 1, "d": 2, "e": 2, "f": 1, "g": 2, "h": 0, "i": 1, "j": 2, "k": 1,
		"l": 0, "m": 2, "n": 1, "o": 2, "p": 3, "q": 1, "r": 1, "s": 0, "t": 0, "u": 0, "v": 1}
	blue := map[string]bool{}
	for _, c := range "abcghklstuv" {
		blue[string(c)] = true
	}
	for i := 0; i < ids.Len(); i++ {
		d := hand[ids.Value(i)]
		w := want(d)
		if !blue[ids.Value(i)] {
			w = want(d - 1)
		}
		if math.Abs(pt.Value(i)-w) > 1e-12 || int(dist.Value(i)) != d || bind.IsNull(i) {
			t.Errorf("%s: p_true %v at distance %d (bound by %s), corollary %v at %d",
				ids.Value(i), pt.Value(i), dist.Value(i), bind.Value(i), w, d)
		}
	}
}

func readParquet(t *testing.T, path string) arrow.Table {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tbl, err := pqarrow.ReadTable(context.Background(), f, nil, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// writeInputs writes a random instance as Parquet: ids are dense ints, sparse ints, or
// strings; hitting-set values come from a random DP mechanism (so they are feasible).
func writeInputs(t *testing.T, dir string, r *rand.Rand, idKind int, pair dp.Pair) {
	t.Helper()
	n := 2 + r.IntN(300)
	m := r.IntN(4 * n)
	src, dst := make([]int32, m), make([]int32, m)
	for i := range src {
		src[i], dst[i] = int32(r.IntN(n)), int32(r.IntN(n))
	}
	g, _ := graph.Build(n, src, dst)
	ans := make([]bool, n)
	for v := range ans {
		ans[v] = r.IntN(3) == 0
	}
	// every boundary vertex, with values of a random DP mechanism (Gibbs steps)
	pone := make([]float64, n)
	for v := range pone {
		pone[v] = 0.5
	}
	for s := 0; s < 20*n; s++ {
		v := int32(r.IntN(n))
		lo, hi := 0.0, 1.0
		for _, u := range g.Neighbours(v) {
			lo, hi = max(lo, pair.Lower(pone[u])), min(hi, pair.Upper(pone[u]))
		}
		if lo <= hi {
			pone[v] = lo + r.Float64()*(hi-lo)
		}
	}
	var hit []int32
	var pt []float64
	for v := int32(0); int(v) < n; v++ {
		for _, u := range g.Neighbours(v) {
			if ans[u] != ans[v] {
				hit = append(hit, v)
				p := pone[v]
				if !ans[v] {
					p = 1 - p
				}
				pt = append(pt, p)
				break
			}
		}
	}
	perm := r.Perm(n) // sparse ids: a random permutation scaled far apart
	id := func(v int32) any {
		switch idKind {
		case 0:
			return int64(v)
		case 1:
			return int64(perm[v])*1_000_003 - 7_000_000
		}
		return "ds-" + strconv.Itoa(perm[v])
	}
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	writeTable(t, filepath.Join(dir, "vertices.parquet"), []string{"id", "answer"}, []any{mapIDs(all, id), ans})
	writeTable(t, filepath.Join(dir, "edges.parquet"), []string{"src", "dst"}, []any{mapIDs(src, id), mapIDs(dst, id)})
	writeTable(t, filepath.Join(dir, "hitting.parquet"), []string{"id", "p_true"}, []any{mapIDs(hit, id), pt})
}

func mapIDs(vs []int32, id func(int32) any) any {
	if _, ok := id(0).(string); ok {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = id(v).(string)
		}
		return out
	}
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = id(v).(int64)
	}
	return out
}

func writeTable(t *testing.T, path string, names []string, cols []any) {
	t.Helper()
	mem := memory.NewGoAllocator()
	var fields []arrow.Field
	var arrs []arrow.Array
	for i, c := range cols {
		var a arrow.Array
		switch c := c.(type) {
		case []int64:
			b := array.NewInt64Builder(mem)
			b.AppendValues(c, nil)
			a = b.NewArray()
		case []string:
			b := array.NewStringBuilder(mem)
			b.AppendValues(c, nil)
			a = b.NewArray()
		case []bool:
			b := array.NewBooleanBuilder(mem)
			b.AppendValues(c, nil)
			a = b.NewArray()
		case []float64:
			b := array.NewFloat64Builder(mem)
			b.AppendValues(c, nil)
			a = b.NewArray()
		}
		fields = append(fields, arrow.Field{Name: names[i], Type: a.DataType()})
		arrs = append(arrs, a)
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(arrs[0].Len()))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(64)), pqarrow.DefaultWriterProps())
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

// Generated Parquet jobs: all three engines succeed, give byte-identical CSV (CSV carries
// no engine metadata), and the same engine gives byte-identical Parquet on 1 and 2 cores.
func TestEnginesAndCoresByteIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	pairs := [][2]float64{{0.5, 1e-6}, {math.Ln2, 0}, {0, 0.01}, {2, 0.1}}
	for k := 0; k < 24; k++ {
		dir := t.TempDir()
		eps, delta := pairs[k%len(pairs)][0], pairs[k%len(pairs)][1]
		pair, _ := dp.New(eps, delta)
		writeInputs(t, dir, r, k%3, pair)
		job := func(out, engine string) job.Job {
			j := job.DefaultJob()
			j.Vertices, j.Edges, j.HittingSet = filepath.Join(dir, "vertices.parquet"), filepath.Join(dir, "edges.parquet"), filepath.Join(dir, "hitting.parquet")
			j.SetEpsilon(eps)
			j.Delta, j.Out, j.Engine = delta, filepath.Join(dir, out), engine
			j.AllowNonPrivate = true // the generated graphs have isolated datasets: the bytes are compared
			return j
		}
		var outs [][]byte
		for _, c := range []struct {
			out, engine string
			procs       int
		}{{"a.csv", "propagate", 2}, {"b.csv", "per-source", 2}, {"c.parquet", "propagate", 1}, {"d.parquet", "propagate", 2}, {"e.csv", "rounds", 2}} {
			prev := runtime.GOMAXPROCS(c.procs)
			s, err := Run(context.Background(), job(c.out, c.engine), quiet)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatalf("case %d %s: %v", k, c.engine, err)
			}
			if !s.Feasible || s.AuditWorst > 0 {
				t.Fatalf("case %d: %+v", k, s)
			}
			data, _ := os.ReadFile(filepath.Join(dir, c.out))
			outs = append(outs, data)
		}
		if !bytes.Equal(outs[0], outs[1]) || !bytes.Equal(outs[0], outs[4]) {
			t.Fatalf("case %d: propagate, per-source and rounds outputs differ", k)
		}
		if !bytes.Equal(outs[2], outs[3]) {
			t.Fatalf("case %d: 1 and 2 cores give different Parquet bytes", k)
		}
	}
}

// The output carries the metadata README promises, with the inputs' digests as
// provenance.go allows them: the edges file's plain SHA-256 (computed here
// independently), none of the private inputs' without a key, and with a key their
// HMAC-SHA256 of the hex SHA-256 (FORMATS.md, "Provenance").
func TestMetadata(t *testing.T) {
	dir := t.TempDir()
	sum := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(data)
		return hex.EncodeToString(h[:])
	}
	key := []byte("a key of the operator's: 32 byte")
	keyed := func(path string) string {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(sum(path)))
		return hex.EncodeToString(m.Sum(nil))
	}
	kfile := filepath.Join(dir, "key")
	if err := os.WriteFile(kfile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, withKey := range []bool{false, true} {
		j := exampleJob(t, filepath.Join(dir, "m.arrow"))
		if withKey {
			j.ProvenanceKey = kfile
		}
		if _, err := Run(context.Background(), j, quiet); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(j.Out)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ipc.NewFileReader(f)
		if err != nil {
			t.Fatal(err)
		}
		md := r.Schema().Metadata()
		r.Close()
		f.Close()
		want := map[string]string{
			"graphdp.version": version.Version, "graphdp.engine": "propagate", "graphdp.epsilon": "0.5", "graphdp.delta": "1e-06",
			"graphdp.tolerance": "1e-09", "graphdp.edges.sha256": sum(j.Edges),
		}
		absent := []string{"graphdp.vertices.sha256", "graphdp.hitting_set.sha256"}
		if withKey {
			want["graphdp.vertices.hmac_sha256"] = keyed(j.Vertices)
			want["graphdp.edges.hmac_sha256"] = keyed(j.Edges)
			want["graphdp.hitting_set.hmac_sha256"] = keyed(j.HittingSet)
		} else {
			absent = append(absent, "graphdp.vertices.hmac_sha256", "graphdp.edges.hmac_sha256", "graphdp.hitting_set.hmac_sha256")
		}
		for k, v := range want {
			if i := md.FindKey(k); i < 0 || md.Values()[i] != v {
				t.Errorf("key %v: metadata %s = %q, want %q", withKey, k, md.Values()[max(i, 0)], v)
			}
		}
		for _, k := range absent {
			if i := md.FindKey(k); i >= 0 {
				t.Errorf("key %v: metadata has %s = %q", withKey, k, md.Values()[i])
			}
		}
	}
}

// runRequest is what run asks Load for: the hitting set, and the job's engine.
func runRequest(j job.Job) load.Request { return load.Request{HittingSet: true, Engine: j.Engine} }

// toolRequest is what the toolkit asks: the job's hitting set and mechanism when
// it names them, solved by propagate.
func toolRequest(j job.Job) load.Request {
	return load.Request{HittingSet: j.HittingSet != "", Mechanism: j.Mechanism != "", Engine: "propagate"}
}
