package pipeline

import (
	"fmt"
	"maps"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/version"
)

// buildRecord lays the mechanism out as the output table, in the vertices file's order
// (Record over every vertex).
func buildRecord(mem memory.Allocator, l *load.Loaded, names sink.Names, sol *bfs.Solution) (arrow.RecordBatch, error) {
	return Record(l, names, mem, nil, &sol.Mechanism)
}

// Record lays out the output table of some vertices (graphdp query), or of every
// vertex in order when rows is nil: row i is vertex rows[i], with m's entries at
// index i (m holds one entry per row, Bind as vertex positions), its columns named by
// names. mem may be nil (Go allocator). It is Rows.Record with the ids, answers and
// hitting set of l.
func Record(l *load.Loaded, names sink.Names, mem memory.Allocator, rows []int32, m *bfs.Mechanism) (arrow.RecordBatch, error) {
	vs := l.Vertices
	inH := make([]bool, vs.IDs.Len())
	for _, h := range l.Hit.Vertex {
		inH[h] = true
	}
	ans := vs.Answer
	if rows != nil {
		hit := make([]bool, len(rows))
		ans = make([]bool, len(rows))
		for i, v := range rows {
			ans[i], hit[i] = vs.Answer[v], inH[v]
		}
		inH = hit
	}
	r := Rows{Names: names, IDType: vs.IDType, AnswerType: vs.AnswerType, IDs: vs.IDs, At: rows, Answer: ans, InH: inH, M: m, BindIDs: vs.IDs}
	return r.Record(mem)
}

// Rows are rows of the output table as columns: the whole table (Record),
// or a part of it (a Beam shard's, written batch by batch with sink.WriteBatches).
type Rows struct {
	Names              sink.Names     // the id and answer columns' names (the job's: Job.OutputNames)
	IDType, AnswerType arrow.DataType // the vertices file's id and answer types
	// IDs are the rows' ids: row i's is IDs[At[i]], or IDs[i] when At is nil.
	IDs ingest.IDs
	At  []int32
	// Answer, InH and M hold one entry per row; M.Bind indexes BindIDs (< 0: no
	// binding vertex).
	Answer, InH []bool
	M           *bfs.Mechanism
	BindIDs     ingest.IDs
}

// Record lays r out as the output table (sink.Names.MechanismSchema, whose column
// order it follows). mem may be nil (Go allocator). Fixed-width columns already in
// the output's layout — int64 ids when At is nil, p_true, p_one, binding_distance —
// are wrapped, not copied (Arrow buffers over the Go slices, which the record keeps
// alive and which must not change while it is in use); only nullable columns get a
// validity bitmap, and binding ids a gathered array.
func (r *Rows) Record(mem memory.Allocator) (arrow.RecordBatch, error) {
	m := r.M
	n := len(r.At)
	if r.At == nil {
		n = r.IDs.Len()
	}
	if len(m.POne) != n || len(m.PTrue) != n || len(m.Bind) != n || len(m.Dist) != n || len(r.Answer) != n || len(r.InH) != n {
		return nil, fmt.Errorf("pipeline: %d rows but answers %d, hitting-set flags %d, mechanism entries %d/%d/%d/%d",
			n, len(r.Answer), len(r.InH), len(m.POne), len(m.PTrue), len(m.Bind), len(m.Dist))
	}
	if mem == nil {
		mem = memory.NewGoAllocator()
	}
	// Validity of binding_id and binding_distance: a binding vertex exists.
	valid := make([]byte, (n+7)/8)
	nulls := 0
	for v, b := range m.Bind {
		if b >= 0 {
			valid[v>>3] |= 1 << (v & 7)
		} else {
			nulls++
		}
	}
	schema := r.Names.MechanismSchema(r.IDType, r.AnswerType)
	cols := make([]arrow.Array, 0, 7)
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	build := func(t arrow.DataType, fill func(array.Builder) error) error {
		b := array.NewBuilder(mem, t)
		defer b.Release()
		b.Reserve(n)
		if err := fill(b); err != nil {
			return err
		}
		cols = append(cols, b.NewArray())
		return nil
	}
	if r.IDs.Int != nil && r.At == nil {
		cols = append(cols, wrap(arrow.PrimitiveTypes.Int64, n, nil, 0, arrow.Int64Traits.CastToBytes(r.IDs.Int)))
	} else if err := build(r.IDType, func(b array.Builder) error { return appendIDs(b, r.IDs, r.At) }); err != nil {
		return nil, err
	}
	if err := build(r.AnswerType, func(b array.Builder) error { return appendAnswers(b, r.Answer) }); err != nil {
		return nil, err
	}
	cols = append(cols,
		wrap(arrow.PrimitiveTypes.Float64, n, nil, 0, arrow.Float64Traits.CastToBytes(m.PTrue)),
		wrap(arrow.PrimitiveTypes.Float64, n, nil, 0, arrow.Float64Traits.CastToBytes(m.POne)))
	if err := build(arrow.FixedWidthTypes.Boolean, func(b array.Builder) error {
		b.(*array.BooleanBuilder).AppendValues(r.InH, nil)
		return nil
	}); err != nil {
		return nil, err
	}
	if r.BindIDs.Int != nil {
		bound := make([]int64, n)
		for v, b := range m.Bind {
			if b >= 0 {
				bound[v] = r.BindIDs.Int[b]
			}
		}
		cols = append(cols, wrap(arrow.PrimitiveTypes.Int64, n, valid, nulls, arrow.Int64Traits.CastToBytes(bound)))
	} else if err := build(r.IDType, func(b array.Builder) error { return appendIDs(b, r.BindIDs, m.Bind) }); err != nil {
		return nil, err
	}
	cols = append(cols, wrap(arrow.PrimitiveTypes.Int32, n, valid, nulls, arrow.Int32Traits.CastToBytes(m.Dist)))
	return array.NewRecordBatch(schema, cols, int64(n)), nil
}

// wrap makes a fixed-width array over values (and a validity bitmap when nulls > 0)
// without copying them.
func wrap(t arrow.DataType, n int, valid []byte, nulls int, values []byte) arrow.Array {
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(valid)
	}
	d := array.NewData(t, n, []*memory.Buffer{vb, memory.NewBufferBytes(values)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// appendIDs appends every id (at == nil) or the id at each position at[i] (null where < 0).
func appendIDs(b array.Builder, ids ingest.IDs, at []int32) error {
	pos := func(i int) (int, bool) {
		if at == nil {
			return i, true
		}
		return int(at[i]), at[i] >= 0
	}
	n := ids.Len()
	if at != nil {
		n = len(at)
	}
	switch b := b.(type) {
	case *array.Int64Builder:
		if at == nil {
			b.AppendValues(ids.Int, nil)
			return nil
		}
		for i := 0; i < n; i++ {
			if p, ok := pos(i); ok {
				b.Append(ids.Int[p])
			} else {
				b.AppendNull()
			}
		}
	case *array.StringBuilder:
		for i := 0; i < n; i++ {
			if p, ok := pos(i); ok {
				b.Append(ids.Str[p])
			} else {
				b.AppendNull()
			}
		}
	default:
		return fmt.Errorf("pipeline: unsupported id column type %s", b.Type())
	}
	return nil
}

// appendAnswers writes answers back in the input's type: bool, or the integer type it had.
func appendAnswers(b array.Builder, ans []bool) error {
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.AppendValues(ans, nil)
	case *array.Int8Builder:
		appendBits(b.Append, ans)
	case *array.Int16Builder:
		appendBits(b.Append, ans)
	case *array.Int32Builder:
		appendBits(b.Append, ans)
	case *array.Int64Builder:
		appendBits(b.Append, ans)
	case *array.Uint8Builder:
		appendBits(b.Append, ans)
	case *array.Uint16Builder:
		appendBits(b.Append, ans)
	case *array.Uint32Builder:
		appendBits(b.Append, ans)
	case *array.Uint64Builder:
		appendBits(b.Append, ans)
	default:
		return fmt.Errorf("pipeline: unsupported answer column type %s", b.Type())
	}
	return nil
}

// appendBits appends each answer as 0 or 1.
func appendBits[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](app func(T), ans []bool) {
	for _, a := range ans {
		var v T
		if a {
			v = 1
		}
		app(v)
	}
}

// Metadata is what an output made from l under pair records about how it was made:
// the privacy framework (dp.Pair.Statement), for run's and query's outputs the
// engine (engine != "") and its tolerance, then extra, through OutputMetadata.
func Metadata(l *load.Loaded, pair dp.Pair, engine string, extra map[string]string) map[string]string {
	meta := pair.Statement()
	if engine != "" {
		meta["graphdp.engine"] = engine
		meta["graphdp.tolerance"] = words.Num(bfs.Tolerance)
	}
	maps.Copy(meta, extra)
	return OutputMetadata(pair.Epsilon, pair.Delta, l, meta)
}

// OutputMetadata is the one builder of an output's metadata: the version, ε and δ,
// the digest of each input l holds that was read from a file (l may be nil) as
// provenance.go allows (no plain digest of a file holding private data), and extra.
func OutputMetadata(epsilon, delta float64, l *load.Loaded, extra map[string]string) map[string]string {
	meta := map[string]string{
		"graphdp.epsilon": words.Num(epsilon),
		"graphdp.delta":   words.Num(delta),
	}
	if l != nil {
		p := l.Provenance
		if l.Vertices != nil {
			digestMetadata(p.Private(l.Vertices.Fingerprint), meta, "vertices")
		}
		if l.Edges != nil {
			digestMetadata(p.Public(l.Edges.Fingerprint), meta, "edges")
		}
		if l.Hit != nil {
			digestMetadata(p.Private(l.Hit.Fingerprint), meta, "hitting_set")
		}
	}
	maps.Copy(meta, extra)
	if fw, ok := extra["graphdp.framework"]; ok && fw != string(dp.EpsilonDelta) {
		// Another framework: an ε and δ here would be read as what the output spends.
		delete(meta, "graphdp.epsilon")
		delete(meta, "graphdp.delta")
	}
	return version.Build().Metadata(meta)
}

// digestMetadata adds d to an output's metadata under graphdp.<role>.sha256 and
// graphdp.<role>.hmac_sha256 (the parts it has).
func digestMetadata(d job.Digest, meta map[string]string, role string) {
	if d.SHA256 != "" {
		meta["graphdp."+role+".sha256"] = d.SHA256
	}
	if d.HMACSHA256 != "" {
		meta["graphdp."+role+".hmac_sha256"] = d.HMACSHA256
	}
}
