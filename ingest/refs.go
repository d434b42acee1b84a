package ingest

import (
	"sync"

	"github.com/apache/arrow-go/v18/parquet"
)

// This file maps id columns of the other tables (edges, hitting set, id
// lists) to dense vertex positions.

// checkRefType rejects an id column whose type cannot hold the vertices' ids.
func checkRefType(t *Table, c *Column, vs *Vertices) error {
	return t.CheckRefColumn(c, vs.IDs.Int != nil, vs.File)
}

// refs opens an id column of another table as the vertex positions of its ids.
// An id no vertex has is an UnknownID error naming its row.
func refs(vs *Vertices) opener[int32] {
	return func(t *Table, c *Column, g int) (cursor[int32], error) {
		if vs.IDs.Int != nil {
			k, err := openInts(t, c, g)
			return convert(t, g, k, err, func(row int64, ids []int64, pos []int32) error {
				bad := vs.Index.lookupInts(ids, pos)
				// ids above MaxInt64 wrapped to negative numbers, which could
				// collide with negative vertex ids.
				if w := wrapped(c, ids); w < len(ids) && (bad < 0 || w < bad) {
					bad = w
				}
				if bad >= 0 {
					return UnknownID(t.path, row+int64(bad), c.name, intText(c, ids[bad]), vs.File)
				}
				return nil
			})
		}
		k, err := chunk[parquet.ByteArray](false)(t, c, g)
		var sc strBatch
		return convert(t, g, k, err, func(row int64, ids []parquet.ByteArray, pos []int32) error {
			if bad := lookupBatch(vs.Index.strs, ids, pos, &sc); bad >= 0 {
				return UnknownID(t.path, row+int64(bad), c.name, string(ids[bad]), vs.File)
			}
			return nil
		})
	}
}

// parseRefCSV checks one CSV field as an id of another table, unresolved: not
// empty and, against integer ids (intIDs), a canonical integer, which it returns
// (a string id is the field itself). verticesFile names the vertices in messages.
func parseRefCSV(path string, row int64, column, field string, intIDs bool, verticesFile string) (int64, error) {
	if field == "" {
		return 0, cellError(path, ErrNull, row, column, "", msgEmpty)
	}
	if !intIDs {
		return 0, nil
	}
	id, ok := ParseID(field)
	if !ok {
		return 0, cellError(path, ErrNotANumber, row, column, field, msgNotIntID(verticesFile))
	}
	return id, nil
}

// msgNotIntID is the message for an id that is not a canonical integer where the
// vertices' ids are integers.
func msgNotIntID(verticesFile string) string {
	return "not an integer id (the ids in " + verticesFile + " are integers, written in canonical decimal: no +, no leading zeros)"
}

// refsInto is the reader that keeps in d the vertex positions of the ids of c (ids
// of vs, refIDs): an id no vertex has is an UnknownID error at its row. The ids of a
// batch are looked up together (Index.lookupInts, lookupBatch), into d.
func refsInto(file string, c ids, vs *Vertices, d *values[int32]) reader {
	switch {
	case c.ints != nil:
		return c.ints.use(func(b batch[int64]) error {
			if bad := vs.Index.lookupInts(b.vals, d.at(b.row, len(b.vals))); bad >= 0 {
				return UnknownID(file, b.row+int64(bad), c.ints.Name(), b.text(bad), vs.File)
			}
			return nil
		})
	case c.bytes != nil:
		var scratch sync.Pool // lookupBatch's, one per batch being looked up
		return c.bytes.use(func(b batch[parquet.ByteArray]) error {
			sc, _ := scratch.Get().(*strBatch)
			if sc == nil {
				sc = new(strBatch)
			}
			defer scratch.Put(sc)
			if bad := lookupBatch(vs.Index.strs, b.vals, d.at(b.row, len(b.vals)), sc); bad >= 0 {
				return UnknownID(file, b.row+int64(bad), c.bytes.Name(), b.text(bad), vs.File)
			}
			return nil
		})
	}
	return c.strs.use(func(b batch[string]) error {
		pos := d.at(b.row, len(b.vals))
		for i, id := range b.vals {
			p, ok := vs.Index.LookupString(id)
			if !ok {
				return UnknownID(file, b.row+int64(i), c.strs.Name(), b.text(i), vs.File)
			}
			pos[i] = p
		}
		return nil
	})
}
