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
	x := vs.Index
	if vs.IDs.Int != nil {
		return func(check func() error, g int) error {
			return scanInts(t, c, g, check, func(row int64, vals []int64) error {
				bad := x.lookupInts(vals, dst[row:])
				if w := wrapped(c, vals); bad < 0 && w < len(vals) {
					// ids above MaxInt64 wrapped to negative numbers, which
					// could collide with negative vertex ids.
					bad = w
				}
				if bad >= 0 {
					return UnknownID(t.path, row+int64(bad), c.name, intText(c, vals[bad]), vs.File)
				}
				return nil
			})
		}
	}
	return func(check func() error, g int) error {
		var sc strBatch
		return scanChunk(t, c, g, check, make([]parquet.ByteArray, t.scratchLen(g)), func(row int64, vals []parquet.ByteArray) error {
			if bad := lookupBatch(x.strs, vals, dst[row:], &sc); bad >= 0 {
				return UnknownID(t.path, row+int64(bad), c.name, string(vals[bad]), vs.File)
			}
			return nil
		})
	}
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
