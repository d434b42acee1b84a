package pipeline

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/ingest"
)

// BuildRecordRows is BuildRecord for some vertices only (graphdp query): row i is
// vertex rows[i], with m's entries at index i (m holds len(rows) entries, Bind as
// vertex positions). Same schema and values as BuildRecord.
func BuildRecordRows(mem memory.Allocator, l *Loaded, rows []int32, m *bfs.Mechanism) (arrow.RecordBatch, error) {
	if len(m.POne) != len(rows) || len(m.PTrue) != len(rows) || len(m.Bind) != len(rows) || len(m.Dist) != len(rows) {
		return nil, fmt.Errorf("pipeline: %d rows but mechanism entries %d/%d/%d/%d", len(rows), len(m.POne), len(m.PTrue), len(m.Bind), len(m.Dist))
	}
	if mem == nil {
		mem = memory.NewGoAllocator()
	}
	vs := l.Vertices
	inH := make([]bool, vs.IDs.Len())
	for _, h := range l.Hit.Vertex {
		inH[h] = true
	}
	ans := make([]bool, len(rows))
	hit := make([]bool, len(rows))
	for i, v := range rows {
		ans[i], hit[i] = vs.Answer[v], inH[v]
	}
	b := array.NewRecordBuilder(mem, OutputSchema(vs.IDType, vs.AnswerType))
	defer b.Release()
	b.Reserve(len(rows))
	if err := appendIDs(b.Field(0), vs.IDs, rows); err != nil {
		return nil, err
	}
	if err := appendAnswers(b.Field(1), ans); err != nil {
		return nil, err
	}
	b.Field(2).(*array.Float64Builder).AppendValues(m.PTrue, nil)
	b.Field(3).(*array.Float64Builder).AppendValues(m.POne, nil)
	b.Field(4).(*array.BooleanBuilder).AppendValues(hit, nil)
	if err := appendIDs(b.Field(5), vs.IDs, m.Bind); err != nil {
		return nil, err
	}
	db := b.Field(6).(*array.Int32Builder)
	for i, d := range m.Dist {
		if m.Bind[i] < 0 {
			db.AppendNull()
		} else {
			db.Append(d)
		}
	}
	return b.NewRecordBatch(), nil
}

// HittingSetSchema is a hitting-set table as run reads it: id (the vertices' id
// type) and p_true, under the job's column names.
func HittingSetSchema(idType arrow.DataType, cols ingest.Columns) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: cols.ID, Type: idType},
		{Name: cols.PTrue, Type: arrow.PrimitiveTypes.Float64},
	}, nil)
}

// BuildHittingSet lays out a hitting set (graphdp hitting-set): vertex positions and
// their p_true, in the given order.
func BuildHittingSet(mem memory.Allocator, vs *ingest.Vertices, cols ingest.Columns, vertex []int32, ptrue []float64) (arrow.RecordBatch, error) {
	if len(vertex) != len(ptrue) {
		return nil, fmt.Errorf("pipeline: %d hitting-set vertices with %d values", len(vertex), len(ptrue))
	}
	if mem == nil {
		mem = memory.NewGoAllocator()
	}
	b := array.NewRecordBuilder(mem, HittingSetSchema(vs.IDType, cols))
	defer b.Release()
	b.Reserve(len(vertex))
	if err := appendIDs(b.Field(0), vs.IDs, vertex); err != nil {
		return nil, err
	}
	b.Field(1).(*array.Float64Builder).AppendValues(ptrue, nil)
	return b.NewRecordBatch(), nil
}
