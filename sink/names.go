package sink

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// Names are the column names graphdp's output tables take from their inputs: an
// output keeps the names its inputs were read under (the job's columns: flags or
// config), so that a command given the same job reads it back, and a mechanism
// records them in its metadata (Metadata), so that a command given none finds them
// (ingest's mechanism reader follows them). This file is the one place that names
// the columns of graphdp's tables (docs/FORMATS.md, "Output").
type Names struct {
	ID     string // the vertices' id column: every table's id column
	Answer string // the vertices' answer column: the mechanism's true answer
	PTrue  string // the hitting set's p_true column: a hitting set graphdp writes (run reads it)
}

// The mechanism's own columns, after its id and answer: named by graphdp, whatever
// the inputs' names.
const (
	ColumnPTrue           = "p_true"
	ColumnPOne            = "p_one"
	ColumnInHittingSet    = "in_hitting_set"
	ColumnBindingID       = "binding_id"
	ColumnBindingDistance = "binding_distance"
	// ColumnReleased is release's drawn answer, after the id.
	ColumnReleased = "released"
)

// The metadata keys under which a mechanism records its id and answer columns'
// names (Metadata). ingest's mechanism reader reads the same keys: a test there
// (TestMechanismFollowsRecordedNames) reads what this package writes.
const (
	MetaIDColumn     = "graphdp.columns.id"
	MetaAnswerColumn = "graphdp.columns.answer"
)

// own are the mechanism's columns Names does not name.
var own = []string{ColumnPTrue, ColumnPOne, ColumnInHittingSet, ColumnBindingID, ColumnBindingDistance}

// MechanismSchema is the mechanism table (run's output, query's, optimize's
// --mechanism-out): one row per dataset, its id and answer in the inputs' types.
func (n Names) MechanismSchema(idType, answerType arrow.DataType) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: n.ID, Type: idType},
		{Name: n.Answer, Type: answerType},
		{Name: ColumnPTrue, Type: arrow.PrimitiveTypes.Float64},
		{Name: ColumnPOne, Type: arrow.PrimitiveTypes.Float64},
		{Name: ColumnInHittingSet, Type: arrow.FixedWidthTypes.Boolean},
		{Name: ColumnBindingID, Type: idType, Nullable: true},
		{Name: ColumnBindingDistance, Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
}

// HittingSetSchema is a hitting set (hitting-set's and optimize's --out): the id
// and p_true, as run reads a hitting set under the same names.
func (n Names) HittingSetSchema(idType arrow.DataType) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: n.ID, Type: idType},
		{Name: n.PTrue, Type: arrow.PrimitiveTypes.Float64},
	}, nil)
}

// ReleaseSchema is release's output: the id (under the mechanism's name for it) and
// the drawn answer.
func (n Names) ReleaseSchema(idType, answerType arrow.DataType) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: n.ID, Type: idType},
		{Name: ColumnReleased, Type: answerType},
	}, nil)
}

// Metadata is what a mechanism records of its names (MetaIDColumn,
// MetaAnswerColumn), for its file's metadata.
func (n Names) Metadata() map[string]string {
	return map[string]string{MetaIDColumn: n.ID, MetaAnswerColumn: n.Answer}
}

// Problem is why the inputs' names cannot name an output's columns ("" when they
// can), under the config keys that give them: the id and answer columns must differ
// from each other and from the mechanism's own columns, and the hitting set's p_true
// from its id (a table with two columns of one name cannot be read back).
func (n Names) Problem() string {
	switch {
	case n.ID == n.Answer:
		return fmt.Sprintf("columns: id and answer are both %s: a mechanism needs two columns", strconv.Quote(n.ID))
	case n.ID == n.PTrue:
		return fmt.Sprintf("columns: id and p_true are both %s: a hitting set needs two columns", strconv.Quote(n.ID))
	}
	for _, c := range own {
		for _, k := range []struct{ key, name string }{{"id", n.ID}, {"answer", n.Answer}} {
			if k.name == c {
				return fmt.Sprintf("columns.%s: %s is the name of a column graphdp writes beside it (a mechanism keeps the input's id and answer names and adds %s, %s, %s, %s and %s): rename the input's column",
					k.key, strconv.Quote(c), own[0], own[1], own[2], own[3], own[4])
			}
		}
	}
	return ""
}
