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

// refs opens an id column of another table as the vertex positions of its ids,
// for EdgeStream, which reads two at once: refsInto's rule, in a cursor.
func refs(vs *Vertices) opener[int32] {
	return func(t *Table, c *Column, g int) (cursor[int32], error) {
		if vs.IDs.Int != nil {
			k, err := openInts(t, c, g)
			ints := parquetInts{t, c, t.unknownRef(vs.File)}
			return convert(t, g, k, err, func(row int64, ids []int64, pos []int32) error {
				return ints.split(row, ids, func(b batch[int64]) error {
					_, err := intPositions(t.path, c.name, vs, b, pos)
					return err
				})
			})
		}
		k, err := chunk[parquet.ByteArray](false)(t, c, g)
		var sc strBatch
		return convert(t, g, k, err, func(row int64, ids []parquet.ByteArray, pos []int32) error {
			_, err := bytePositions(t.path, c.name, vs, batch[parquet.ByteArray]{row, ids, func(i int) string { return string(ids[i]) }, nil}, pos, &sc)
			return err
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
			return d.fill(b.row, len(b.vals), func(pos []int32) (int, error) { return intPositions(file, c.ints.Name(), vs, b, pos) })
		})
	case c.bytes != nil:
		var scratch sync.Pool // lookupBatch's, one per batch being looked up
		return c.bytes.use(func(b batch[parquet.ByteArray]) error {
			sc, _ := scratch.Get().(*strBatch)
			if sc == nil {
				sc = new(strBatch)
			}
			defer scratch.Put(sc)
			return d.fill(b.row, len(b.vals), func(pos []int32) (int, error) { return bytePositions(file, c.bytes.Name(), vs, b, pos, sc) })
		})
	}
	return c.strs.use(func(b batch[string]) error {
		return d.fill(b.row, len(b.vals), func(pos []int32) (int, error) {
			for i, id := range b.vals {
				p, ok := vs.Index.LookupString(id)
				if !ok {
					return i, UnknownID(file, b.row+int64(i), c.strs.Name(), b.text(i), vs.File)
				}
				pos[i] = p
			}
			return len(pos), nil
		})
	})
}

// intPositions writes the positions of the integer ids of b (ids of vs) to pos: all
// of them, or those before the first that no vertex has, whose index it returns
// with its UnknownID error.
func intPositions(file, column string, vs *Vertices, b batch[int64], pos []int32) (int, error) {
	if bad := vs.Index.lookupInts(b.vals, pos); bad >= 0 {
		return bad, UnknownID(file, b.row+int64(bad), column, b.text(bad), vs.File)
	}
	return len(b.vals), nil
}

// bytePositions is intPositions for text ids (sc: lookupBatch's scratch).
func bytePositions(file, column string, vs *Vertices, b batch[parquet.ByteArray], pos []int32, sc *strBatch) (int, error) {
	if bad := lookupBatch(vs.Index.strs, b.vals, pos, sc); bad >= 0 {
		return bad, UnknownID(file, b.row+int64(bad), column, b.text(bad), vs.File)
	}
	return len(b.vals), nil
}
