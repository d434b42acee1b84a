package pipeline

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/sink"
)

// BuildHittingSet lays out a hitting set (graphdp hitting-set): vertex positions and
// their p_true, in the given order, as run reads a hitting set under names
// (sink.Names.HittingSetSchema).
func BuildHittingSet(mem memory.Allocator, vs *ingest.Vertices, names sink.Names, vertex []int32, ptrue []float64) (arrow.RecordBatch, error) {
	if len(vertex) != len(ptrue) {
		return nil, fmt.Errorf("pipeline: %d hitting-set vertices with %d values", len(vertex), len(ptrue))
	}
	if mem == nil {
		mem = memory.NewGoAllocator()
	}
	b := array.NewRecordBuilder(mem, names.HittingSetSchema(vs.IDType))
	defer b.Release()
	b.Reserve(len(vertex))
	if err := appendIDs(b.Field(0), vs.IDs, vertex); err != nil {
		return nil, err
	}
	b.Field(1).(*array.Float64Builder).AppendValues(ptrue, nil)
	return b.NewRecordBatch(), nil
}

// BuildRelease is a release's output: the id, under the table's name for it, and the
// drawn answer (in the answer column's type ansType; sink.Names.ReleaseSchema) of
// each of the table m's rows (nil: none).
func BuildRelease(m *ingest.MechanismTable, rows []int32, drawn []bool, ansType arrow.DataType) (arrow.RecordBatch, error) {
	if rows == nil {
		rows = []int32{} // appendIDs reads nil as "every id"
	}
	names := sink.Names{ID: m.Columns().ID}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), names.ReleaseSchema(m.IDType, ansType))
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
