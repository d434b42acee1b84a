package pipeline

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/ingest"
)

// OutputSchema is run's output: one row per vertex (README, "Output").
func OutputSchema(idType, answerType arrow.DataType) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: idType},
		{Name: "answer", Type: answerType},
		{Name: "p_true", Type: arrow.PrimitiveTypes.Float64},
		{Name: "p_one", Type: arrow.PrimitiveTypes.Float64},
		{Name: "in_hitting_set", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "binding_id", Type: idType, Nullable: true},
		{Name: "binding_distance", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
}

// BuildRecord lays the mechanism out as the output table, in the vertices file's order.
// mem may be nil (Go allocator). Fixed-width columns the solver already holds in
// the output's layout — int64 ids, p_true, p_one, binding_distance — are wrapped,
// not copied (Arrow buffers over the Go slices, which the record keeps alive and
// which must not change while it is in use); only nullable columns get a validity
// bitmap, and binding ids a gathered array.
func BuildRecord(mem memory.Allocator, l *Loaded, sol *bfs.Solution) (arrow.RecordBatch, error) {
	if mem == nil {
		mem = memory.NewGoAllocator()
	}
	vs := l.Vertices
	n := vs.IDs.Len()
	inH := make([]bool, n)
	for _, h := range l.Hit.Vertex {
		inH[h] = true
	}
	// Validity of binding_id and binding_distance: a binding vertex exists.
	valid := make([]byte, (n+7)/8)
	nulls := 0
	for v, b := range sol.Bind {
		if b >= 0 {
			valid[v>>3] |= 1 << (v & 7)
		} else {
			nulls++
		}
	}
	schema := OutputSchema(vs.IDType, vs.AnswerType)
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
	if vs.IDs.Int != nil {
		cols = append(cols, wrap(arrow.PrimitiveTypes.Int64, n, nil, 0, arrow.Int64Traits.CastToBytes(vs.IDs.Int)))
	} else if err := build(vs.IDType, func(b array.Builder) error { return appendIDs(b, vs.IDs, nil) }); err != nil {
		return nil, err
	}
	if err := build(vs.AnswerType, func(b array.Builder) error { return appendAnswers(b, vs.Answer) }); err != nil {
		return nil, err
	}
	cols = append(cols,
		wrap(arrow.PrimitiveTypes.Float64, n, nil, 0, arrow.Float64Traits.CastToBytes(sol.PTrue)),
		wrap(arrow.PrimitiveTypes.Float64, n, nil, 0, arrow.Float64Traits.CastToBytes(sol.POne)))
	if err := build(arrow.FixedWidthTypes.Boolean, func(b array.Builder) error {
		b.(*array.BooleanBuilder).AppendValues(inH, nil)
		return nil
	}); err != nil {
		return nil, err
	}
	if vs.IDs.Int != nil {
		bound := make([]int64, n)
		for v, b := range sol.Bind {
			if b >= 0 {
				bound[v] = vs.IDs.Int[b]
			}
		}
		cols = append(cols, wrap(arrow.PrimitiveTypes.Int64, n, valid, nulls, arrow.Int64Traits.CastToBytes(bound)))
	} else if err := build(vs.IDType, func(b array.Builder) error { return appendIDs(b, vs.IDs, sol.Bind) }); err != nil {
		return nil, err
	}
	cols = append(cols, wrap(arrow.PrimitiveTypes.Int32, n, valid, nulls, arrow.Int32Traits.CastToBytes(sol.Dist)))
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
		return nil
	}
	for _, a := range ans {
		var v int64
		if a {
			v = 1
		}
		switch b := b.(type) {
		case *array.Int8Builder:
			b.Append(int8(v))
		case *array.Int16Builder:
			b.Append(int16(v))
		case *array.Int32Builder:
			b.Append(int32(v))
		case *array.Int64Builder:
			b.Append(v)
		case *array.Uint8Builder:
			b.Append(uint8(v))
		case *array.Uint16Builder:
			b.Append(uint16(v))
		case *array.Uint32Builder:
			b.Append(uint32(v))
		case *array.Uint64Builder:
			b.Append(uint64(v))
		default:
			return fmt.Errorf("pipeline: unsupported answer column type %s", b.Type())
		}
	}
	return nil
}

// Metadata is what every output records about how it was made.
func Metadata(job *Job, engine string, l *Loaded) map[string]string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return Build().metadata(map[string]string{
		"graphdp.engine":             engine,
		"graphdp.epsilon":            f(job.Epsilon),
		"graphdp.delta":              f(job.Delta),
		"graphdp.tolerance":          f(bfs.Tolerance),
		"graphdp.vertices.sha256":    l.Vertices.Fingerprint,
		"graphdp.edges.sha256":       l.Edges.Fingerprint,
		"graphdp.hitting_set.sha256": l.Hit.Fingerprint,
	})
}
