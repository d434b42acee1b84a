package ingest

import (
	"strconv"

	"github.com/apache/arrow-go/v18/parquet"
)

// This file maps id columns of the other tables (edges, hitting set, id
// lists) to dense vertex positions.

// checkRefType rejects an id column whose type cannot hold the vertices' ids.
func checkRefType(t *pqTable, c *pqColumn, vs *Vertices) error {
	want := "string"
	if vs.IDs.Int != nil {
		want = "integer"
		if c.isInt() {
			return nil
		}
	} else if c.isBytes() {
		return nil
	}
	return columnError(t.path, ErrColumnType, c.name, "id type "+c.typeName+" does not match the vertex ids' type "+want+" (in "+vs.File+")")
}

// refLoader maps an id column to vertex positions in dst (one per file row).
func (t *pqTable) refLoader(c *pqColumn, vs *Vertices, dst []int32) chunkLoader {
	x := vs.Index
	if vs.IDs.Int != nil {
		return func(check func() error, g int) error {
			return scanInts(t, c, g, check, func(row int64, vals []int64) error {
				bad := x.lookupInts(vals, dst[row:])
				if bad < 0 && c.isUint64() {
					// ids above MaxInt64 wrapped to negative numbers, which
					// could collide with negative vertex ids.
					for i, v := range vals {
						if v < 0 {
							bad = i
							break
						}
					}
				}
				if bad >= 0 {
					return cellError(t.path, ErrUnknownID, row+int64(bad), c.name, intText(c, vals[bad]), msgUnknownID(vs.File))
				}
				return nil
			})
		}
	}
	return func(check func() error, g int) error {
		var sc strBatch
		return scanChunk(t, c, g, check, make([]parquet.ByteArray, t.scratchLen(g)), func(row int64, vals []parquet.ByteArray) error {
			if bad := lookupBatch(x.strs, vals, dst[row:], &sc); bad >= 0 {
				return cellError(t.path, ErrUnknownID, row+int64(bad), c.name, string(vals[bad]), msgUnknownID(vs.File))
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
	return 0, cellError(path, ErrUnknownID, row, column, field, msgUnknownID(vs.File))
}
