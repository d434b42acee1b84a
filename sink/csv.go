package sink

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// UnsupportedTypeError reports a column whose type a format cannot write.
type UnsupportedTypeError struct {
	Format Format
	Column string
	Index  int
	Type   arrow.DataType
}

func (e *UnsupportedTypeError) Error() string {
	return fmt.Sprintf("column %d %q: %s cannot hold type %s (want bool, an integer, float32/64 or string)",
		e.Index, e.Column, e.Format, e.Type)
}

// csvTypes are the column types CSV output supports.
var csvTypes = map[arrow.Type]bool{
	arrow.BOOL: true,
	arrow.INT8: true, arrow.INT16: true, arrow.INT32: true, arrow.INT64: true,
	arrow.UINT8: true, arrow.UINT16: true, arrow.UINT32: true, arrow.UINT64: true,
	arrow.FLOAT32: true, arrow.FLOAT64: true,
	arrow.STRING: true, arrow.LARGE_STRING: true,
}

func checkCSVSchema(sc *arrow.Schema) error {
	for i, f := range sc.Fields() {
		if !csvTypes[f.Type.ID()] {
			return &UnsupportedTypeError{Format: CSV, Column: f.Name, Index: i, Type: f.Type}
		}
	}
	return nil
}

// appendCell appends the text of row i of one column, which is not null.
type appendCell func(dst []byte, i int) []byte

// writeCSV writes a header line and one line per row. A null is an empty
// field; a non-null empty string is written "" so the two stay apart for
// readers that tell them apart (encoding/csv reads both as "").
func writeCSV(ctx context.Context, w io.Writer, rec table, cfg config) error {
	sc := rec.schema
	line := make([]byte, 0, 256)
	for j, f := range sc.Fields() {
		if j > 0 {
			line = append(line, ',')
		}
		line = appendCSVString(line, f.Name)
	}
	line = append(line, '\n')
	if _, err := w.Write(line); err != nil {
		return err
	}

	cells := make([]appendCell, sc.NumFields())
	return forEachSlice(ctx, rec, cfg, false, func(s arrow.RecordBatch) error {
		for j, col := range s.Columns() {
			c, ok := cellAppender(col)
			if !ok {
				return &UnsupportedTypeError{Format: CSV, Column: sc.Field(j).Name, Index: j, Type: col.DataType()}
			}
			cells[j] = c
		}
		cols := s.Columns()
		for i := 0; i < int(s.NumRows()); i++ {
			line = line[:0]
			for j, col := range cols {
				if j > 0 {
					line = append(line, ',')
				}
				if col.IsValid(i) {
					line = cells[j](line, i)
				}
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	})
}

// cellAppender returns the appender for col's type; the type switch runs once
// per column and slice, not per cell.
func cellAppender(col arrow.Array) (appendCell, bool) {
	switch a := col.(type) {
	case *array.Boolean:
		return func(dst []byte, i int) []byte { return strconv.AppendBool(dst, a.Value(i)) }, true
	case *array.Int8:
		return signed(a.Int8Values()), true
	case *array.Int16:
		return signed(a.Int16Values()), true
	case *array.Int32:
		return signed(a.Int32Values()), true
	case *array.Int64:
		return signed(a.Int64Values()), true
	case *array.Uint8:
		return unsigned(a.Uint8Values()), true
	case *array.Uint16:
		return unsigned(a.Uint16Values()), true
	case *array.Uint32:
		return unsigned(a.Uint32Values()), true
	case *array.Uint64:
		return unsigned(a.Uint64Values()), true
	case *array.Float32:
		v := a.Float32Values()
		return func(dst []byte, i int) []byte { return strconv.AppendFloat(dst, float64(v[i]), 'g', -1, 32) }, true
	case *array.Float64:
		// Shortest text that parses back to the same bits.
		v := a.Float64Values()
		return func(dst []byte, i int) []byte { return strconv.AppendFloat(dst, v[i], 'g', -1, 64) }, true
	case *array.String:
		return func(dst []byte, i int) []byte { return appendCSVString(dst, a.Value(i)) }, true
	case *array.LargeString:
		return func(dst []byte, i int) []byte { return appendCSVString(dst, a.Value(i)) }, true
	}
	return nil, false
}

func signed[T int8 | int16 | int32 | int64](v []T) appendCell {
	return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(v[i]), 10) }
}

func unsigned[T uint8 | uint16 | uint32 | uint64](v []T) appendCell {
	return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(v[i]), 10) }
}

// appendCSVString appends s, quoted when encoding/csv would quote it (a comma,
// quote, CR or LF inside, a leading space, or exactly `\.`) and when empty.
func appendCSVString(dst []byte, s string) []byte {
	if !csvNeedsQuotes(s) {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '"')
}

func csvNeedsQuotes(s string) bool {
	if s == "" || s == `\.` {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',', '"', '\r', '\n':
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}
