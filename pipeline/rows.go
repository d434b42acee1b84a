package pipeline

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/ingest"
)

// hittingSetSchema is a hitting-set table as run reads it: id (the vertices' id
// type) and p_true, under the job's column names.
func hittingSetSchema(idType arrow.DataType, cols ingest.Columns) *arrow.Schema {
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
	b := array.NewRecordBuilder(mem, hittingSetSchema(vs.IDType, cols))
	defer b.Release()
	b.Reserve(len(vertex))
	if err := appendIDs(b.Field(0), vs.IDs, vertex); err != nil {
		return nil, err
	}
	b.Field(1).(*array.Float64Builder).AppendValues(ptrue, nil)
	return b.NewRecordBatch(), nil
}

// releaseSchema is release's output: the requested id and the drawn answer, in the
// mechanism's answer type (Int64 when the table has no answer column).
func releaseSchema(idType, answerType arrow.DataType) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: idType},
		{Name: "released", Type: answerType},
	}, nil)
}

// BuildRelease is a release's output: the id and the drawn answer (in the
// answer column's type ansType) of each of the table m's rows (nil: none).
func BuildRelease(m *ingest.MechanismTable, rows []int32, drawn []bool, ansType arrow.DataType) (arrow.RecordBatch, error) {
	if rows == nil {
		rows = []int32{} // appendIDs reads nil as "every id"
	}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), releaseSchema(m.IDType, ansType))
	defer b.Release()
	b.Reserve(len(rows))
	if err := appendIDs(b.Field(0), m.IDs, rows); err != nil {
		return nil, err
	}
	if err := appendAnswers(b.Field(1), drawn); err != nil {
		return nil, err
	}
	return b.NewRecordBatch(), nil
}
