package ingest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
)

func readMechTableParquet(ctx context.Context, path string, cols MechanismTableColumns, opts []Option) (*MechanismTable, error) {
	t, _, fp, done, err := openParquetColumns(ctx, path, opts) // columns depend on which are present
	if err != nil {
		return nil, err
	}
	defer done()
	sc := t.rd.MetaData().Schema
	var present []string
	for _, c := range sc.Columns() {
		present = append(present, c.Path())
	}
	meta, err := t.metadata()
	if err != nil {
		return nil, err
	}
	has := func(name string) bool { return sc.ColumnIndexByName(name) >= 0 }
	cols = cols.follow(meta, has) // graphdp's own mechanism: the names it records (mechnames.go)
	hasPone, hasPtrue, hasAnswer, hasDist, err := mechPresence(path, cols, has, present)
	if err != nil {
		return nil, err
	}
	n := t.numRows()
	if n == 0 {
		return nil, fileError(path, ErrSize, "no rows")
	}
	if n > math.MaxInt32 {
		return nil, fileError(path, ErrSize, fmt.Sprintf("%d rows; at most %d are supported", n, math.MaxInt32))
	}
	m := &MechanismTable{File: path, cols: cols, Metadata: meta}
	var loaders []chunkLoader

	idc, err := t.column(cols.ID)
	if err != nil {
		return nil, err
	}
	switch {
	case idc.isInt():
		m.IDType, m.IDs.Int = arrow.PrimitiveTypes.Int64, make([]int64, n)
	case idc.isBytes():
		m.IDType, m.IDs.Str = arrow.BinaryTypes.String, make([]string, n)
	default:
		return nil, columnError(path, ErrColumnType, idc.name, "ids must be integers or strings, not "+idc.typeName)
	}
	loaders = append(loaders, t.idsInto(idc, m.IDs))
	probs := func(name string, dst []float64) error {
		c, err := t.column(name)
		if err != nil {
			return err
		}
		if !c.isFloat() {
			return columnError(path, ErrColumnType, c.name, name+" must be a float64 or float32 column, not "+c.typeName)
		}
		loaders = append(loaders, t.numberLoader(c, validPTrue, mechMsgProb(name), copyAt(dst)))
		return nil
	}
	if hasPone {
		m.POne = make([]float64, n)
		if err := probs(cols.POne, m.POne); err != nil {
			return nil, err
		}
	}
	var ptrue []float64
	if hasPtrue { // also beside p_one: where p_true is the exact value (dp.ExactValue)
		ptrue = make([]float64, n)
		if err := probs(cols.PTrue, ptrue); err != nil {
			return nil, err
		}
	}
	opt, err := m.optionalParquet(t, idc, hasAnswer, hasDist)
	if err != nil {
		return nil, err
	}
	loaders = append(loaders, opt...)
	if err := t.run(ctx, loaders...); err != nil {
		var ie *InputError
		if errors.As(err, &ie) && cols.InHit != "" && ie.Column == cols.InHit && ie.Msg == msgAnswer {
			ie.Msg = cols.InHit + " must be 0 or 1" // answerLoader's message names the answer
		}
		return nil, err
	}
	// The hashing read checks the page checksums: a damaged page is the error to
	// report, before any a damaged value could cause (a repeat, p_true and p_one
	// that disagree).
	if m.Fingerprint, err = fp(); err != nil {
		return nil, err
	}
	m.read = ptrue // finish runs on the whole table (ReadMechanismTable)
	return m, nil
}

// optionalParquet are the loaders of the table's optional columns that the file has
// (answer, binding distance, binding id, in the hitting set), each type-checked;
// idc is the id column.
func (m *MechanismTable) optionalParquet(t *Table, idc *Column, hasAnswer, hasDist bool) ([]chunkLoader, error) {
	sc, n := t.rd.MetaData().Schema, t.numRows()
	var loaders []chunkLoader
	if hasAnswer {
		ac, err := t.column(m.cols.Answer)
		if err != nil {
			return nil, err
		}
		if err := t.checkBoolColumn(ac, "answer"); err != nil {
			return nil, err
		}
		m.Answer, m.AnswerType = make([]bool, n), ac.AnswerType()
		loaders = append(loaders, t.answerLoader(ac, copyAt(m.Answer)))
	}
	if hasDist {
		dc, err := t.column(m.cols.Distance)
		if err != nil {
			return nil, err
		}
		if !dc.isInt() {
			return nil, columnError(m.File, ErrColumnType, dc.name, "binding distance must be an integer column, not "+dc.typeName)
		}
		m.Distance = make([]int32, n)
		loaders = append(loaders, copyLoader(t, dc, distances, m.Distance))
	}
	if m.cols.Binding != "" && sc.ColumnIndexByName(m.cols.Binding) >= 0 {
		bc, err := t.column(m.cols.Binding)
		if err != nil {
			return nil, err
		}
		if bc.isInt() != idc.isInt() || (!bc.isInt() && !bc.isBytes()) {
			return nil, columnError(m.File, ErrColumnType, bc.name, "binding ids must have the type of the "+strconv.Quote(m.cols.ID)+" column ("+idc.typeName+"), not "+bc.typeName)
		}
		loaders = append(loaders, m.bind.loader(t, bc, n))
	}
	if m.cols.InHit != "" && sc.ColumnIndexByName(m.cols.InHit) >= 0 {
		hc, err := t.column(m.cols.InHit)
		if err != nil {
			return nil, err
		}
		if err := t.checkBoolColumn(hc, m.cols.InHit); err != nil {
			return nil, err
		}
		m.InHit = make([]bool, n)
		loaders = append(loaders, t.answerLoader(hc, func(row int64, vals []bool) { copy(m.InHit[row:], vals) }))
	}
	return loaders, nil
}

// loader reads a nullable id column (c, of the ids' kind) of n rows into b.
func (b *bindingIDs) loader(t *Table, c *Column, n int64) chunkLoader {
	b.Null = make([]bool, n)
	switch {
	case c.isBytes():
		b.Str = make([]string, n)
		return func(check func() error, g int) error {
			return scanNullable(t, c, g, check, func(row int64, null bool, x parquet.ByteArray) error {
				b.Null[row], b.Str[row] = null, string(x)
				return nil
			})
		}
	case c.phys == parquet.Types.Int32:
		b.Int = make([]int64, n)
		return func(check func() error, g int) error {
			return scanNullable(t, c, g, check, func(row int64, null bool, x int32) error {
				b.Null[row], b.Int[row] = null, int64(x)
				if c.typ.ID() == arrow.UINT32 {
					b.Int[row] = int64(uint32(x))
				}
				return nil
			})
		}
	}
	b.Int = make([]int64, n)
	return func(check func() error, g int) error {
		return scanNullable(t, c, g, check, func(row int64, null bool, x int64) error {
			b.Null[row], b.Int[row] = null, x
			return nil
		})
	}
}

// scanNullable is scanChunk for a column where null is a value: fn gets every row
// of row group g, with its value or null.
func scanNullable[T int32 | int64 | parquet.ByteArray](t *Table, c *Column, g int, check func() error, fn func(row int64, null bool, x T) error) error {
	cr, err := t.rd.RowGroup(g).Column(c.idx)
	if err != nil {
		return t.corrupt(c, err)
	}
	defer cr.Close()
	r, ok := cr.(batchReader[T])
	if !ok {
		panic(fmt.Sprintf("ingest: column %q: reader %T does not decode %T", c.name, cr, *new(T)))
	}
	n := t.scratchLen(g)
	buf := make([]T, n)
	var defs []int16
	if c.maxDef > 0 {
		defs = make([]int16, n)
	}
	var zero T
	row, end := t.starts[g], t.starts[g+1]
	for row < end {
		if err := check(); err != nil {
			return err
		}
		want := min(int64(n), end-row)
		var d []int16
		if defs != nil {
			d = defs[:want]
		}
		lvls, nv, err := r.ReadBatch(want, buf[:want], d, nil)
		if err != nil {
			return t.corrupt(c, err)
		}
		if lvls <= 0 || lvls > want {
			return t.corrupt(c, fmt.Errorf("row group %d ends after %d of its %d rows", g, row-t.starts[g], end-t.starts[g]))
		}
		j := 0
		for i := int64(0); i < lvls; i++ {
			if d != nil && d[i] < c.maxDef {
				if err := fn(row+i, true, zero); err != nil {
					return err
				}
				continue
			}
			if j >= nv {
				return t.corrupt(c, fmt.Errorf("%d levels but %d values", lvls, nv))
			}
			if err := fn(row+i, false, buf[j]); err != nil {
				return err
			}
			j++
		}
		row += lvls
	}
	return nil
}

// distances opens a nullable integer column of binding distances: -1 where null,
// an ErrRange error at a value outside [0, MaxInt32].
func distances(t *Table, c *Column, g int) (cursor[int32], error) {
	k, err := ints(true)(t, c, g)
	return convert(t, g, k, err, func(row int64, in []int64, out []int32) error {
		nulls := k.nulls()
		for i, x := range in {
			switch {
			case nulls != nil && nulls[i]:
				out[i] = -1
			case x < 0 || x > math.MaxInt32:
				return cellError(t.path, ErrRange, row+int64(i), c.name, intText(c, x), mechMsgDistance)
			default:
				out[i] = int32(x)
			}
		}
		return nil
	})
}
