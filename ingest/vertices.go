package ingest

import (
	"context"
	"fmt"
	"math"
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
func ReadVertices(ctx context.Context, path string, cols Columns) (*Vertices, error) {
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	if f == formatCSV {
		return readVerticesCSV(ctx, path, cols)
	}
	return readVerticesParquet(ctx, path, cols)
}

// finish checks the count, builds the index and reports a repeated id.
func (v *Vertices) finish(idColumn string) (err error) {
	v.Index, err = indexRows(v.File, idColumn, v.IDs, "vertices")
	return err
}

// indexRows indexes the ids of a file's rows: at least one and at most MaxInt32
// (positions are int32), each once (a repeat names both rows). what names the rows.
func indexRows(file, idColumn string, ids IDs, what string) (*Index, error) {
	n := ids.Len()
	if n == 0 {
		return nil, fileError(file, ErrSize, "no "+what)
	}
	if n > math.MaxInt32 {
		return nil, fileError(file, ErrSize, fmt.Sprintf("%d %s; at most %d are supported", n, what, math.MaxInt32))
	}
	x, d := buildIndex(ids)
	if d != nil {
		val := ids.String(int(d.second))
		return nil, cellError(file, ErrDuplicateID, d.second, idColumn, val, msgDuplicate(val, d.first))
	}
	return x, nil
}

func readVerticesParquet(ctx context.Context, path string, cols Columns) (*Vertices, error) {
	t, c, fp, done, err := openParquetColumns(ctx, path, cols.ID, cols.Answer)
	if err != nil {
		return nil, err
	}
	defer done()
	idc, ac := c[0], c[1]
	if !idc.isInt() && !idc.isBytes() {
		return nil, columnError(path, ErrColumnType, idc.name, "ids must be integers or strings, not "+idc.typeName)
	}
	if !ac.isInt() && ac.phys != parquet.Types.Boolean {
		return nil, columnError(path, ErrColumnType, ac.name, "answer must be a boolean or an integer 0/1 column, not "+ac.typeName)
	}
	n := t.numRows()
	if n == 0 {
		return nil, fileError(path, ErrSize, "no vertices")
	}
	if n > math.MaxInt32 {
		return nil, fileError(path, ErrSize, fmt.Sprintf("%d vertices; at most %d are supported", n, math.MaxInt32))
	}
	v := &Vertices{File: path, Answer: make([]bool, n), AnswerType: ac.typ}
	var loadIDs chunkLoader
	if idc.isInt() {
		v.IDType, v.IDs.Int = arrow.PrimitiveTypes.Int64, make([]int64, n)
		loadIDs = t.intIDLoader(idc, v.IDs.Int)
	} else {
		v.IDType, v.IDs.Str = arrow.BinaryTypes.String, make([]string, n)
		loadIDs = t.stringIDLoader(idc, v.IDs.Str)
	}
	if err := t.run(ctx, loadIDs, t.answerLoader(ac, v.Answer)); err != nil {
		return nil, err
	}
	if err := v.finish(idc.name); err != nil {
		return nil, err
	}
	if v.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	return v, nil
}

// intIDLoader copies an integer id column into dst (one slot per file row).
func (t *pqTable) intIDLoader(c *pqColumn, dst []int64) chunkLoader {
	return func(check func() error, g int) error {
		return scanInts(t, c, g, check, func(row int64, vals []int64) error {
			if c.isUint64() {
				for i, x := range vals {
					if x < 0 {
						return cellError(t.path, ErrRange, row+int64(i), c.name, intText(c, x), "id does not fit in int64")
					}
				}
			}
			copy(dst[row:], vals)
			return nil
		})
	}
}

// stringIDLoader copies a byte-array id column into dst. Each batch's bytes
// become one string that the ids slice, so a batch costs one allocation.
func (t *pqTable) stringIDLoader(c *pqColumn, dst []string) chunkLoader {
	return func(check func() error, g int) error {
		var arena []byte
		return scanChunk(t, c, g, check, make([]parquet.ByteArray, t.scratchLen(g)), func(row int64, vals []parquet.ByteArray) error {
			arena = arena[:0]
			for _, b := range vals {
				arena = append(arena, b...)
			}
			s, off := string(arena), 0
			for i, b := range vals {
				dst[row+int64(i)] = s[off : off+len(b)]
				off += len(b)
			}
			return nil
		})
	}
}

// answerLoader reads a boolean or 0/1 integer column into dst.
func (t *pqTable) answerLoader(c *pqColumn, dst []bool) chunkLoader {
	if c.phys == parquet.Types.Boolean {
		return func(check func() error, g int) error {
			return scanChunk(t, c, g, check, make([]bool, t.scratchLen(g)), func(row int64, vals []bool) error {
				copy(dst[row:], vals)
				return nil
			})
		}
	}
	return func(check func() error, g int) error {
		return scanInts(t, c, g, check, func(row int64, vals []int64) error {
			out := dst[row : row+int64(len(vals))]
			for i, x := range vals {
				if uint64(x) > 1 {
					return cellError(t.path, ErrRange, row+int64(i), c.name, intText(c, x), msgAnswer)
				}
				out[i] = x == 1
			}
			return nil
		})
	}
}

const (
	msgAnswer    = "answer must be 0 or 1"
	msgAnswerCSV = "answer must be 0, 1, true or false"
	msgEmpty     = "missing value (empty field)"
)

// readVerticesCSV reads ids as int64 if every id parses as a base-10 int64,
// else as strings. It first assumes integers; at the first id that is not
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
