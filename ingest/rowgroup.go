package ingest

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
)

// This file is a Table's column checks and its reading of one column of one row
// group (a runner's splits read through ReadSplit, splits.go, in any format). Both
// are the definitions the whole-file readers use, so they reject what
// ReadVertices, ReadEdges and ReadHittingSet reject, with the same *InputError
// (message and kind).
//
// A row-group read returns the values of the rows before the first bad one
// together with that row's error, so that a caller joining ids across splits can
// still find an earlier bad row of another column (the whole-file readers report
// the lowest row of the earliest failing row group).

// Name is the column's name.
func (c *Column) Name() string { return c.name }

// IntIDs reports whether c holds integer ids (else string ids).
func (c *Column) IntIDs() bool { return c.isInt() }

// Type is the column's Arrow type; nil if unsupported (an answer column's, as
// Vertices records it, is AnswerType).
func (c *Column) Type() arrow.DataType { return c.typ }

// checkBoolColumn is the one check of a Parquet column holding yes/no values (an
// answer, in_hitting_set): boolean, integer 0/1, or text 0/1/true/false as a CSV
// field (parseAnswer), which answersInto judges (parquetSource.flags).
func (t *Table) checkBoolColumn(c *Column, what string) error {
	if !c.isInt() && !c.isBytes() && c.phys != parquet.Types.Boolean {
		return columnError(t.path, ErrColumnType, c.name, what+" must be a boolean, an integer 0/1 or a string 0/1/true/false column, not "+c.typeName)
	}
	return nil
}

// AnswerType is the type Vertices.AnswerType records for an answer column c: its
// own, but Boolean for text (true/false, as a CSV file's words).
func (c *Column) AnswerType() arrow.DataType {
	if c.isBytes() {
		return arrow.FixedWidthTypes.Boolean
	}
	return c.typ
}

// CheckRefColumn is the readers' check that an id column of another table can
// hold the ids of the vertices file verticesFile (integer ids if intIDs).
func (t *Table) CheckRefColumn(c *Column, intIDs bool, verticesFile string) error {
	want := "string"
	if intIDs {
		want = "integer"
		if c.isInt() {
			return nil
		}
	} else if c.isBytes() {
		return nil
	}
	return columnError(t.path, ErrColumnType, c.name, "id type "+c.typeName+" does not match the vertex ids' type "+want+" (in "+verticesFile+")")
}

// ReadVertexIDs reads the vertices' id column c of row group g (ErrNull; ErrRange
// for a uint64 id above MaxInt64).
func (t *Table) ReadVertexIDs(g int, c *Column) (IDs, error) {
	return t.readIDs(g, t.idColumn(c, t.idRangeError))
}

// ReadRefIDs reads the id column c of another table (edges, hitting set) in row
// group g, without resolving the ids: a uint64 id above MaxInt64 is no vertex's
// (ErrUnknownID), the others are for the caller to look up (UnknownID).
func (t *Table) ReadRefIDs(g int, c *Column, verticesFile string) (IDs, error) {
	return t.readIDs(g, t.idColumn(c, t.unknownRef(verticesFile)))
}

func (t *Table) readIDs(g int, k ids) (IDs, error) {
	r, read := keepIDs(k, t.groupRows(g), false)
	err := t.readGroup(g, r)
	return read(), err
}

// ReadAnswers reads the answer column c of row group g (ErrNull; ErrRange for an
// integer other than 0 and 1).
func (t *Table) ReadAnswers(g int, c *Column) ([]bool, error) {
	k, err := t.source().flags(c, "answer")
	if err != nil {
		return nil, err
	}
	d := sized[bool](t.groupRows(g), false)
	err = t.readGroup(g, answersInto(t.path, k, answerRule, d, new(atomic.Bool)))
	return d.v, err
}

// ReadPTrue reads the p_true column c of row group g (ErrNull; ErrRange outside [0, 1]).
func (t *Table) ReadPTrue(g int, c *Column) ([]float64, error) {
	k, err := t.source().numbers(c, false, msgPTrueType)
	if err != nil {
		return nil, err
	}
	d := sized[float64](t.groupRows(g), false)
	err = t.readGroup(g, checked(t.path, k, validPTrue, msgPTrue, d))
	return d.v, err
}

// source is t as a source, for the checks and reads of a split.
func (t *Table) source() *parquetSource { return &parquetSource{t: t} }

// readGroup runs r (a column of t.source()) on row group g alone.
func (t *Table) readGroup(g int, r reader) error {
	return t.safeLoad(r.(parquetReader).load, func() error { return nil }, g)
}

// wrapped is the index of the first uint64 value above MaxInt64 in vals (they read
// as negative numbers), or len(vals).
func wrapped(c *Column, vals []int64) int {
	if c.isUint64() {
		for i, v := range vals {
			if v < 0 {
				return i
			}
		}
	}
	return len(vals)
}

func (t *Table) idRangeError(c *Column, row, v int64) error {
	return cellError(t.path, ErrRange, row, c.name, intText(c, v), "id does not fit in int64")
}

// checkCount rejects a table of n rows that cannot be a vertices table: none, or
// more than the int32 positions allow. what names the rows.
func checkCount(file string, n int64, what string) error {
	if n == 0 {
		return fileError(file, ErrSize, "no "+what)
	}
	if n > maxPositions {
		return fileError(file, ErrSize, fmt.Sprintf("%d %s; at most %d are supported", n, what, maxPositions))
	}
	return nil
}

// maxPositions is how many rows int32 positions can number.
const maxPositions = math.MaxInt32

// UnknownID is the error for an id of another table (in file at row, column) that
// no row of verticesFile has.
func UnknownID(file string, row int64, column, value, verticesFile string) *InputError {
	return cellError(file, ErrUnknownID, row, column, value, msgUnknownID(verticesFile))
}

// DuplicateID is the error for an id at row of file that row firstRow already gave.
func DuplicateID(file string, row int64, column, value string, firstRow int64) *InputError {
	return cellError(file, ErrDuplicateID, row, column, value, msgDuplicate(value, firstRow))
}

// Kinds lists the Err… sentinels in a fixed order, for runners that send an
// InputError between processes (by index; -1 or out of range is none). New kinds
// go at the end: an index means the same kind in every build.
func Kinds() []error {
	return []error{ErrUnreadable, ErrSize, ErrMissingColumn, ErrColumnType, ErrNull, ErrNotANumber, ErrRange, ErrUnknownID, ErrDuplicateID, ErrInconsistent,
		ErrMissing, ErrAccess, ErrPath}
}
