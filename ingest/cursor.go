package ingest

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// This file reads one column of one Parquet row group a batch at a time. A
// chunkCursor decodes the column's physical type; a converted cursor turns each
// batch into the type a reader wants (INT32 → int64, FLOAT or an integer →
// float64, ids → vertex positions for EdgeStream). Every column of a Parquet source
// (source_parquet.go) reads through these two and one loop, scan.

// cursor reads one column of one row group a batch at a time as values of type O.
type cursor[O any] interface {
	done() bool
	// next decodes the next batch (at most len(out) rows) into a prefix of out
	// and returns it with the file row of its first value.
	next(out []O) (row int64, vals []O, err error)
	// nulls marks the last batch's null rows (nil when it had none). Only a
	// cursor opened nullable returns nulls; the others report a null as ErrNull.
	nulls() []bool
	close()
}

// chunkLoader reads one column of one row group. check returns non-nil when
// the work should stop (cancelled, or an earlier row group already failed).
type chunkLoader func(check func() error, g int) error

// opener opens a cursor on column c of row group g.
type opener[O any] func(t *Table, c *Column, g int) (cursor[O], error)

// scan reads column c of row group g to its end through the cursor open gives,
// a batch of up to scratchLen(g) rows at a time, calling check before each batch
// and fn with each batch, the file row of its first value and its nulls (a
// nullable cursor's; else nil).
func scan[O any](t *Table, c *Column, g int, open opener[O], check func() error, fn func(row int64, vals []O, nulls []bool) error) error {
	k, err := open(t, c, g)
	if err != nil {
		return err
	}
	defer k.close()
	var buf []O
	if pool, ok := any(t.ints).(*batches[O]); ok { // integer columns: the Table's buffers
		buf = pool.get(t.scratchLen(g))
		defer pool.put(buf)
	} else {
		buf = make([]O, t.scratchLen(g))
	}
	for !k.done() {
		if err := check(); err != nil {
			return err
		}
		row, vals, err := k.next(buf)
		if err != nil {
			return err
		}
		if err := fn(row, vals, k.nulls()); err != nil {
			return err
		}
	}
	return nil
}

// scratchLen sizes a batch buffer for row group g.
func (t *Table) scratchLen(g int) int { return int(min(batchRows, max(1, t.groupRows(g)))) }

// batchReader is the typed ReadBatch shared by the file.*ColumnChunkReader types.
type batchReader[T any] interface {
	ReadBatch(batchSize int64, values []T, defLvls, repLvls []int16) (total int64, valuesRead int, err error)
}

// chunkCursor decodes one column of one row group in its physical type T.
type chunkCursor[T any] struct {
	t        *Table
	c        *Column
	g        int
	cr       file.ColumnChunkReader
	r        batchReader[T]
	batch    int
	defs     []int16 // definition levels of a batch (optional columns)
	mask     []bool  // nullable cursors: the null rows of a batch
	last     []bool  // what nulls returns
	nullable bool
	row, end int64 // the next file row, and the row group's end
}

// chunk opens a chunkCursor; a nullable one returns nulls (as zero values, marked
// by nulls) instead of reporting them.
func chunk[T any](nullable bool) opener[T] {
	return func(t *Table, c *Column, g int) (cursor[T], error) {
		cr, err := t.rd.RowGroup(g).Column(c.idx)
		if err != nil {
			return nil, t.corrupt(c, err)
		}
		r, ok := cr.(batchReader[T])
		if !ok {
			cr.Close()
			var zero T
			panic(fmt.Sprintf("ingest: column %q: reader %T does not decode %T", c.name, cr, zero))
		}
		n := t.scratchLen(g)
		k := &chunkCursor[T]{t: t, c: c, g: g, cr: cr, r: r, batch: n, nullable: nullable, row: t.starts[g], end: t.starts[g+1]}
		if c.maxDef > 0 {
			k.defs = make([]int16, n)
			if nullable {
				k.mask = make([]bool, n)
			}
		}
		return k, nil
	}
}

func (k *chunkCursor[T]) close()        { k.cr.Close() }
func (k *chunkCursor[T]) done() bool    { return k.row >= k.end }
func (k *chunkCursor[T]) nulls() []bool { return k.last }

func (k *chunkCursor[T]) next(out []T) (int64, []T, error) {
	t, c, g := k.t, k.c, k.g
	want := min(int64(len(out)), int64(k.batch), k.end-k.row)
	var d []int16
	if k.defs != nil {
		d = k.defs[:want]
	}
	lvls, n, err := k.r.ReadBatch(want, out[:want], d, nil)
	if err != nil {
		return k.row, nil, t.corrupt(c, err)
	}
	if lvls <= 0 || lvls > want {
		if cerr := k.cr.Err(); cerr != nil {
			return k.row, nil, t.corrupt(c, cerr)
		}
		return k.row, nil, t.corrupt(c, fmt.Errorf("row group %d ends after %d of its %d rows", g, k.row-t.starts[g], k.end-t.starts[g]))
	}
	k.last = nil
	if int64(n) != lvls {
		if d == nil {
			return k.row, nil, t.corrupt(c, fmt.Errorf("%d rows but %d values in a required column", lvls, n))
		}
		nonNull := 0
		for i, l := range d[:lvls] {
			if l == c.maxDef {
				nonNull++
			} else if !k.nullable {
				return k.row, nil, cellError(t.path, ErrNull, k.row+int64(i), c.name, "", msgNull)
			}
		}
		if nonNull != n {
			return k.row, nil, t.corrupt(c, fmt.Errorf("%d levels but %d values", lvls, n))
		}
		k.spread(out[:lvls], d[:lvls], n)
	}
	row := k.row
	k.row += lvls
	return row, out[:lvls], nil
}

// spread moves the n values ReadBatch packed at the front of vals onto their
// rows (backwards, so in place: the j-th value never moves left), zeroing and
// marking the null rows.
func (k *chunkCursor[T]) spread(vals []T, defs []int16, n int) {
	var zero T
	mask := k.mask[:len(vals)]
	j := n
	for i := len(vals) - 1; i >= 0; i-- {
		if mask[i] = defs[i] < k.c.maxDef; mask[i] {
			vals[i] = zero
			continue
		}
		j--
		vals[i] = vals[j]
	}
	k.last = mask
}

// converted reads a column as O through a cursor of T, converting each batch
// with conv (which writes len(in) values to out, or reports the batch's first
// bad value).
type converted[T, O any] struct {
	cursor[T]
	buf  []T
	pool *batches[T] // where buf goes back on close, or nil
	conv func(row int64, in []T, out []O) error
}

// convert wraps src (opened with err) so that conv converts its batches. Integer
// columns (ids above all) take their buffer from the Table's and give it back.
func convert[T, O any](t *Table, g int, src cursor[T], err error, conv func(row int64, in []T, out []O) error) (cursor[O], error) {
	if err != nil {
		return nil, err
	}
	k := &converted[T, O]{cursor: src, conv: conv}
	if k.pool, _ = any(t.ints).(*batches[T]); k.pool != nil {
		k.buf = k.pool.get(t.scratchLen(g))
	} else {
		k.buf = make([]T, t.scratchLen(g))
	}
	return k, nil
}

func (k *converted[T, O]) close() {
	k.cursor.close()
	if k.pool != nil {
		k.pool.put(k.buf)
		k.buf = nil
	}
}

func (k *converted[T, O]) next(out []O) (int64, []O, error) {
	row, in, err := k.cursor.next(k.buf[:min(len(k.buf), len(out))])
	if err != nil {
		return row, nil, err
	}
	out = out[:len(in)]
	return row, out, k.conv(row, in, out)
}

// openInts reads an INT32 or INT64 column as int64. Unsigned 32-bit values are
// widened as unsigned; uint64 values above MaxInt64 come out negative, which
// callers detect with wrapped.
func openInts(t *Table, c *Column, g int) (cursor[int64], error) { return ints(false)(t, c, g) }

// ints opens integer columns as int64 (nullable: see chunk).
func ints(nullable bool) opener[int64] {
	return func(t *Table, c *Column, g int) (cursor[int64], error) {
		if c.phys == parquet.Types.Int64 {
			return chunk[int64](nullable)(t, c, g)
		}
		k, err := chunk[int32](nullable)(t, c, g)
		if id := c.typ.ID(); id == arrow.UINT32 || id == arrow.UINT16 || id == arrow.UINT8 {
			return convert(t, g, k, err, func(_ int64, in []int32, out []int64) error {
				for i, v := range in {
					out[i] = int64(uint32(v))
				}
				return nil
			})
		}
		return convert(t, g, k, err, func(_ int64, in []int32, out []int64) error {
			for i, v := range in {
				out[i] = int64(v)
			}
			return nil
		})
	}
}

// openNumbers reads a DOUBLE, FLOAT or integer column as float64.
func openNumbers(t *Table, c *Column, g int) (cursor[float64], error) {
	switch {
	case c.phys == parquet.Types.Double:
		return chunk[float64](false)(t, c, g)
	case c.phys == parquet.Types.Float:
		k, err := chunk[float32](false)(t, c, g)
		return convert(t, g, k, err, func(_ int64, in []float32, out []float64) error {
			for i, v := range in {
				out[i] = float64(v)
			}
			return nil
		})
	}
	k, err := openInts(t, c, g)
	return convert(t, g, k, err, func(_ int64, in []int64, out []float64) error {
		for i, v := range in {
			out[i] = float64(v)
		}
		return nil
	})
}

// openStrings reads a BYTE_ARRAY column as strings.
func openStrings(t *Table, c *Column, g int) (cursor[string], error) { return texts(false)(t, c, g) }

// texts opens BYTE_ARRAY columns as strings (nullable: see chunk; a null is ""). A
// batch's bytes become one string that its values slice, so a batch costs one
// allocation.
func texts(nullable bool) opener[string] {
	return func(t *Table, c *Column, g int) (cursor[string], error) {
		k, err := chunk[parquet.ByteArray](nullable)(t, c, g)
		var arena []byte
		return convert(t, g, k, err, func(_ int64, in []parquet.ByteArray, out []string) error {
			arena = arena[:0]
			for _, b := range in {
				arena = append(arena, b...)
			}
			s, off := string(arena), 0
			for i, b := range in {
				out[i] = s[off : off+len(b)]
				off += len(b)
			}
			return nil
		})
	}
}
