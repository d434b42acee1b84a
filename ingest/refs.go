package ingest

import (
	"strconv"

	"github.com/apache/arrow-go/v18/parquet"
)

// This file maps id columns of the other tables (edges, hitting set, id
// lists) to dense vertex positions.

// checkRefType rejects an id column whose type cannot hold the vertices' ids.
func checkRefType(t *Table, c *Column, vs *Vertices) error {
	return t.CheckRefColumn(c, vs.IDs.Int != nil, vs.File)
}

// refLoader maps an id column to vertex positions in dst (one per file row).
func (t *Table) refLoader(c *Column, vs *Vertices, dst []int32) chunkLoader {
	return func(check func() error, g int) error {
		k, err := t.openRefs(c, vs, g)
		if err != nil {
			return err
		}
		defer k.close()
		for !k.done() {
			if err := check(); err != nil {
				return err
			}
			if _, _, err := k.next(dst[k.pos():]); err != nil {
				return err
			}
		}
		return nil
	}
}

// refCursor reads an id column of one row group a batch at a time and maps the
// ids to vertex positions.
type refCursor struct {
	t    *Table
	c    *Column
	vs   *Vertices
	ints *intCursor                      // integer ids
	strs *chunkCursor[parquet.ByteArray] // string ids
	sbuf []parquet.ByteArray
	sc   strBatch
}

func (t *Table) openRefs(c *Column, vs *Vertices, g int) (*refCursor, error) {
	k := &refCursor{t: t, c: c, vs: vs}
	var err error
	if vs.IDs.Int != nil {
		k.ints, err = openInts(t, c, g)
	} else {
		k.sbuf = make([]parquet.ByteArray, t.scratchLen(g))
		k.strs, err = openChunk[parquet.ByteArray](t, c, g, len(k.sbuf))
	}
	if err != nil {
		return nil, err
	}
	return k, nil
}

func (k *refCursor) close() {
	if k.ints != nil {
		k.ints.close()
	} else {
		k.strs.close()
	}
}

func (k *refCursor) done() bool {
	if k.ints != nil {
		return k.ints.done()
	}
	return k.strs.done()
}

// pos is the file row the next batch starts at.
func (k *refCursor) pos() int64 {
	if k.ints != nil {
		return k.ints.pos()
	}
	return k.strs.row
}

// next maps the next batch's ids to positions in dst[0:] and returns the batch's
// first file row and its positions (a prefix of dst). An id no vertex has is an
// UnknownID error naming its row.
func (k *refCursor) next(dst []int32) (int64, []int32, error) {
	t, c, vs := k.t, k.c, k.vs
	if k.ints != nil {
		row, vals, err := k.ints.next()
		if err != nil {
			return row, nil, err
		}
		bad := vs.Index.lookupInts(vals, dst)
		if w := wrapped(c, vals); bad < 0 && w < len(vals) {
			// ids above MaxInt64 wrapped to negative numbers, which could
			// collide with negative vertex ids.
			bad = w
		}
		if bad >= 0 {
			return row, nil, UnknownID(t.path, row+int64(bad), c.name, intText(c, vals[bad]), vs.File)
		}
		return row, dst[:len(vals)], nil
	}
	row, vals, err := k.strs.next(k.sbuf)
	if err != nil {
		return row, nil, err
	}
	if bad := lookupBatch(vs.Index.strs, vals, dst, &k.sc); bad >= 0 {
		return row, nil, UnknownID(t.path, row+int64(bad), c.name, string(vals[bad]), vs.File)
	}
	return row, dst[:len(vals)], nil
}

// refCSV maps one CSV field to a vertex position.
func refCSV(path string, row int64, column, field string, vs *Vertices) (int32, error) {
	if field == "" {
		return 0, cellError(path, ErrNull, row, column, "", msgEmpty)
	}
	if vs.IDs.Int != nil {
		id, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return 0, cellError(path, ErrNotANumber, row, column, field, "not an integer id (the ids in "+vs.File+" are integers)")
		}
		if p, ok := vs.Index.LookupInt(id); ok {
			return p, nil
		}
	} else if p, ok := vs.Index.LookupString(field); ok {
		return p, nil
	}
	return 0, UnknownID(path, row, column, field, vs.File)
}
