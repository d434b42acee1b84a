package ingest

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
)

// Vertices is the vertices table: one row per dataset, in file order.
type Vertices struct {
	File        string
	IDs         IDs
	IDType      arrow.DataType // arrow.PrimitiveTypes.Int64 or arrow.BinaryTypes.String (int32 ids widen to int64)
	Answer      []bool         // true = answer 1
	AnswerType  arrow.DataType // the input's type: Boolean or the integer type it had; CSV: Boolean if written true/false, Int64 if 0/1
	Index       *Index         // id -> dense position 0..n-1
	Fingerprint string         // hex SHA-256 of the file's bytes
}

// ReadVertices reads the vertices file at path: columns cols.ID and
// cols.Answer. Ids must be unique and there must be at least one row.
func ReadVertices(ctx context.Context, path string, cols Columns, opts ...Option) (*Vertices, error) {
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	if f == formatCSV {
		return readVerticesCSV(ctx, path, cols)
	}
	return readVerticesParquet(ctx, path, cols, opts)
}

// finish checks the count, builds the index and reports a repeated id.
func (v *Vertices) finish(idColumn string) (err error) {
	v.Index, err = indexRows(v.File, idColumn, v.IDs, "vertices")
	return err
}

// indexRows indexes the ids of a file's rows: at least one and at most MaxInt32
// (positions are int32), each once (a repeat names both rows). what names the rows.
func indexRows(file, idColumn string, ids IDs, what string) (*Index, error) {
	if err := checkCount(file, int64(ids.Len()), what); err != nil {
		return nil, err
	}
	x, d := buildIndex(ids)
	if d != nil {
		return nil, DuplicateID(file, d.second, idColumn, ids.String(int(d.second)), d.first)
	}
	return x, nil
}

func readVerticesParquet(ctx context.Context, path string, cols Columns, opts []Option) (*Vertices, error) {
	t, c, fp, done, err := openParquetColumns(ctx, path, opts, cols.ID, cols.Answer)
	if err != nil {
		return nil, err
	}
	defer done()
	idc, ac := c[0], c[1]
	if err := t.CheckVertexColumns(idc, ac); err != nil {
		return nil, err
	}
	n := t.numRows()
	v := &Vertices{File: path, Answer: make([]bool, n), AnswerType: ac.typ}
	if idc.isInt() {
		v.IDType, v.IDs.Int = arrow.PrimitiveTypes.Int64, make([]int64, n)
	} else {
		v.IDType, v.IDs.Str = arrow.BinaryTypes.String, make([]string, n)
	}
	if err := t.run(ctx, t.idsInto(idc, v.IDs), t.answerLoader(ac, copyAt(v.Answer))); err != nil {
		return nil, err
	}
	// The hashing read checks the page checksums: a damaged page is the error to
	// report, before any a damaged id could cause (a repeat).
	if v.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	if err := v.finish(idc.name); err != nil {
		return nil, err
	}
	return v, nil
}

// idsInto reads a vertices id column into dst, preallocated with one slot per
// file row of the column's type (ErrRange for a uint64 id above MaxInt64).
func (t *Table) idsInto(c *Column, dst IDs) chunkLoader {
	return t.idLoader(c, t.idRangeError, copyAt(dst.Int), copyAt(dst.Str))
}

// copyAt keeps batches in dst, at their file rows.
func copyAt[T any](dst []T) func(row int64, vals []T) {
	return func(row int64, vals []T) { copy(dst[row:], vals) }
}

// answerLoader reads a boolean or 0/1 integer column, handing each batch's valid
// prefix to keep with the file row of its first value.
func (t *Table) answerLoader(c *Column, keep func(row int64, vals []bool)) chunkLoader {
	if c.phys == parquet.Types.Boolean {
		return func(check func() error, g int) error {
			return scan(t, c, g, chunk[bool](false), check, func(row int64, vals []bool) error {
				keep(row, vals)
				return nil
			})
		}
	}
	return func(check func() error, g int) error {
		out := make([]bool, t.scratchLen(g))
		return scan(t, c, g, openInts, check, func(row int64, vals []int64) error {
			for i, x := range vals {
				if uint64(x) > 1 {
					keep(row, out[:i])
					return cellError(t.path, ErrRange, row+int64(i), c.name, intText(c, x), msgAnswer)
				}
				out[i] = x == 1
			}
			keep(row, out[:len(vals)])
			return nil
		})
	}
}

const (
	msgAnswer    = "answer must be 0 or 1"
	msgAnswerCSV = "answer must be 0, 1, true or false"
	msgEmpty     = "missing value (empty field)"
)

// readVerticesCSV reads ids as int64 if every id is a canonical decimal int64
// (ParseID), else as strings. It first assumes integers; at the first id that is not
// one it starts over in string mode, so an int-keyed file is read once and
// holds no strings, and a string-keyed file usually fails over at row 0.
func readVerticesCSV(ctx context.Context, path string, cols Columns) (*Vertices, error) {
	v, err := readVerticesCSVAs(ctx, path, cols, true)
	if err == errNotInt {
		v, err = readVerticesCSVAs(ctx, path, cols, false)
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// errNotInt says an id did not parse as an integer (retry with strings).
var errNotInt = fmt.Errorf("ingest: non-integer id")

func readVerticesCSVAs(ctx context.Context, path string, cols Columns, asInt bool) (*Vertices, error) {
	v := &Vertices{File: path, AnswerType: arrow.PrimitiveTypes.Int64}
	if asInt {
		v.IDType, v.IDs.Int = arrow.PrimitiveTypes.Int64, []int64{}
	} else {
		v.IDType, v.IDs.Str = arrow.BinaryTypes.String, []string{}
	}
	var err error
	v.Fingerprint, err = readCSV(ctx, path, []string{cols.ID, cols.Answer}, func(row int64, f []string) error {
		if err := appendCSVID(path, row, cols.ID, f[0], &v.IDs); err != nil {
			return err
		}
		a, word, err := csvAnswer(path, row, cols.Answer, f[1])
		if word {
			v.AnswerType = arrow.FixedWidthTypes.Boolean
		}
		v.Answer = append(v.Answer, a)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := v.finish(cols.ID); err != nil {
		return nil, err
	}
	return v, nil
}

// parseAnswer accepts 0, 1 and true/false in any case. word reports the
// true/false spelling, which makes the answer type Boolean.
func parseAnswer(s string) (val, word, ok bool) {
	switch {
	case s == "0":
		return false, false, true
	case s == "1":
		return true, false, true
	case strings.EqualFold(s, "true"):
		return true, true, true
	case strings.EqualFold(s, "false"):
		return false, true, true
	}
	return false, false, false
}

// Bytes is about how much memory v holds: ids, answers and the index (the run's
// memory model, docs/PERFORMANCE.md).
func (v *Vertices) Bytes() int64 {
	n := int64(v.IDs.Len())
	b := n // answers
	if v.IDs.Int != nil {
		b += 8 * n
	} else {
		for _, s := range v.IDs.Str {
			b += 16 + int64(len(s))
		}
	}
	if x := v.Index; x != nil {
		b += 4*int64(len(x.table)) + 12*int64(len(x.keys))
		if x.strs != nil {
			b += 16 * int64(len(x.strs.slots))
		}
	}
	return b
}
