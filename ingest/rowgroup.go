package ingest

import (
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
)

// This file is what a cluster runner's split calls: the schema checks of the
// whole-file readers, on a Table's footer, and the reading of one column of one
// row group. Both kinds are the definitions the whole-file readers use, so a
// split rejects what ReadVertices, ReadEdges and ReadHittingSet reject, with the
// same *InputError (message and kind).
//
// A row-group read returns the values of the rows before the first bad one
// together with that row's error, so that a caller joining ids across splits can
// still find an earlier bad row of another column (the whole-file readers report
// the lowest row of the earliest failing row group).

// Name is the column's name.
func (c *Column) Name() string { return c.name }

// IntIDs reports whether c holds integer ids (else string ids; see CheckVertexColumns).
func (c *Column) IntIDs() bool { return c.isInt() }

// Type is the column's Arrow type; nil if unsupported (an answer column's, as
// Vertices records it, is AnswerType).
func (c *Column) Type() arrow.DataType { return c.typ }

// CheckVertexColumns is ReadVertices' check of the id and answer columns and of
// the row count (ErrColumnType, ErrSize).
func (t *Table) CheckVertexColumns(id, answer *Column) error {
	if !id.isInt() && !id.isBytes() {
		return columnError(t.path, ErrColumnType, id.name, "ids must be integers or strings, not "+id.typeName)
	}
	if err := t.checkBoolColumn(answer, "answer"); err != nil {
		return err
	}
	return checkCount(t.path, t.numRows(), "vertices")
}

// checkBoolColumn is the one check of a Parquet column holding yes/no values (an
// answer, in_hitting_set): boolean, integer 0/1, or text 0/1/true/false as a CSV
// field (parseAnswer), which answerLoader reads.
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

// CheckHittingSetColumns is ReadHittingSet's check of its id and p_true columns
// and of its row count.
func (t *Table) CheckHittingSetColumns(id, pTrue *Column, intIDs bool, verticesFile string) error {
	if err := t.CheckRefColumn(id, intIDs, verticesFile); err != nil {
		return err
	}
	if !pTrue.isFloat() {
		return columnError(t.path, ErrColumnType, pTrue.name, "p_true must be a float64 or float32 column, not "+pTrue.typeName)
	}
	if t.numRows() > maxPositions {
		// More rows than vertices can be, so some id repeats; say so cheaply.
		return fileError(t.path, ErrSize, "more rows than there can be vertices")
	}
	return nil
}

// ReadVertexIDs reads the vertices' id column c of row group g (ErrNull; ErrRange
// for a uint64 id above MaxInt64).
func (t *Table) ReadVertexIDs(g int, c *Column) (IDs, error) {
	return t.readIDs(g, c, t.idRangeError)
}

// ReadRefIDs reads the id column c of another table (edges, hitting set) in row
// group g, without resolving the ids: a uint64 id above MaxInt64 is no vertex's
// (ErrUnknownID), the others are for the caller to look up (UnknownID).
func (t *Table) ReadRefIDs(g int, c *Column, verticesFile string) (IDs, error) {
	return t.readIDs(g, c, func(c *Column, row, v int64) error {
		return UnknownID(t.path, row, c.name, intText(c, v), verticesFile)
	})
}

func (t *Table) readIDs(g int, c *Column, tooBig func(c *Column, row, v int64) error) (ids IDs, err error) {
	if c.isInt() {
		ids.Int = make([]int64, 0, t.groupRows(g))
	} else {
		ids.Str = make([]string, 0, t.groupRows(g))
	}
	err = t.readGroup(g, t.idLoader(c, tooBig,
		func(_ int64, v []int64) { ids.Int = append(ids.Int, v...) },
		func(_ int64, v []string) { ids.Str = append(ids.Str, v...) }))
	return ids, err
}

// idLoader reads an id column, handing each batch's valid prefix to keepInt
// (integer ids, as int64; tooBig reports a uint64 above MaxInt64) or keepStr.
func (t *Table) idLoader(c *Column, tooBig func(c *Column, row, v int64) error, keepInt func(row int64, ids []int64), keepStr func(row int64, ids []string)) chunkLoader {
	if !c.isInt() {
		return func(check func() error, g int) error {
			return scan(t, c, g, openStrings, check, func(row int64, ids []string) error {
				keepStr(row, ids)
				return nil
			})
		}
	}
	return func(check func() error, g int) error {
		return scan(t, c, g, openInts, check, func(row int64, ids []int64) error {
			bad := wrapped(c, ids)
			keepInt(row, ids[:bad])
			if bad < len(ids) {
				return tooBig(c, row+int64(bad), ids[bad])
			}
			return nil
		})
	}
}

// ReadAnswers reads the answer column c of row group g (ErrNull; ErrRange for an
// integer other than 0 and 1).
func (t *Table) ReadAnswers(g int, c *Column) ([]bool, error) {
	out := make([]bool, 0, t.groupRows(g))
	err := t.readGroup(g, t.answerLoader(c, func(_ int64, vals []bool) { out = append(out, vals...) }))
	return out, err
}

// ReadPTrue reads the p_true column c of row group g (ErrNull; ErrRange outside [0, 1]).
func (t *Table) ReadPTrue(g int, c *Column) ([]float64, error) {
	out := make([]float64, 0, t.groupRows(g))
	err := t.readGroup(g, t.pTrueLoader(c, func(_ int64, vals []float64) { out = append(out, vals...) }))
	return out, err
}

// readGroup runs load on row group g alone.
func (t *Table) readGroup(g int, load chunkLoader) error {
	return t.safeLoad(load, func() error { return nil }, g)
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

// pTrueLoader checks a p_true column and hands each batch's valid prefix to keep.
func (t *Table) pTrueLoader(c *Column, keep func(row int64, vals []float64)) chunkLoader {
	return t.numberLoader(c, validPTrue, msgPTrue, keep)
}

// numberLoader reads a number column as float64, handing each batch's valid
// prefix to keep; the first value valid rejects is an ErrRange error saying msg.
func (t *Table) numberLoader(c *Column, valid func(float64) bool, msg string, keep func(row int64, vals []float64)) chunkLoader {
	return func(check func() error, g int) error {
		return scan(t, c, g, openNumbers, check, func(row int64, vals []float64) error {
			for i, p := range vals {
				if !valid(p) {
					keep(row, vals[:i])
					return cellError(t.path, ErrRange, row+int64(i), c.name, strconv.FormatFloat(p, 'g', -1, 64), msg)
				}
			}
			keep(row, vals)
			return nil
		})
	}
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
