package beam

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/graphdp/graphdp/ingest"
)

// This file reads the inputs one row group at a time on the workers, and checks the
// schemas on the launcher from the footers alone. Every rejection is an
// *ingest.InputError worded as package ingest words it (the CLI maps both to exit 3);
// beam_test.go checks the two runners' messages against each other.

// table is an open Parquet input on Beam's filesystems.
type table struct {
	path   string
	rd     *file.Reader
	starts []int64 // starts[g] = file row of row group g's first row; last = row count
	close  func() error
}

func openTable(ctx context.Context, path string) (t *table, err error) {
	ra, _, closeFile, err := openFile(ctx, path)
	if err != nil {
		return nil, &ingest.InputError{File: path, Row: -1, Msg: "cannot open: " + err.Error()}
	}
	defer func() {
		if r := recover(); r != nil {
			err = &ingest.InputError{File: path, Row: -1, Msg: fmt.Sprintf("not a valid Parquet file: %v", r)}
		}
		if err != nil {
			closeFile()
		}
	}()
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	props.BufferedStreamEnabled = true
	props.BufferSize = 1 << 20
	rd, err := file.NewParquetReader(ra, file.WithReadProps(props))
	if err != nil {
		return nil, &ingest.InputError{File: path, Row: -1, Msg: "not a valid Parquet file: " + err.Error()}
	}
	t = &table{path: path, rd: rd, starts: make([]int64, rd.NumRowGroups()+1), close: func() error { rd.Close(); return closeFile() }}
	for g := range rd.NumRowGroups() {
		n := rd.MetaData().RowGroup(g).NumRows()
		if n < 0 || t.starts[g] > math.MaxInt64-n {
			return nil, &ingest.InputError{File: path, Row: -1, Msg: fmt.Sprintf("corrupt Parquet file: row group %d has %d rows", g, n)}
		}
		t.starts[g+1] = t.starts[g] + n
	}
	return t, nil
}

func (t *table) rows() int64 { return t.starts[len(t.starts)-1] }

// kind of a column's values, as the readers treat them.
type kind uint8

const (
	kindOther kind = iota
	kindInt        // INT32/INT64 with a supported integer type
	kindBytes      // BYTE_ARRAY (string or binary)
	kindBool
	kindFloat
)

type column struct {
	name     string
	idx      int
	phys     parquet.Type
	maxDef   int16
	kind     kind
	unsigned bool // uint8..uint32 widen as unsigned
	uint64   bool
	typeName string
}

func (t *table) column(name string) (*column, error) {
	sc := t.rd.MetaData().Schema
	i := sc.ColumnIndexByName(name)
	if i < 0 {
		present := make([]string, 0, sc.NumColumns())
		for _, c := range sc.Columns() {
			present = append(present, c.Path())
		}
		return nil, &ingest.InputError{File: t.path, Row: -1, Column: name, Msg: "missing (columns present: " + strings.Join(present, ", ") + ")"}
	}
	d := sc.Column(i)
	if d.MaxRepetitionLevel() > 0 {
		return nil, &ingest.InputError{File: t.path, Row: -1, Column: name, Msg: "is a repeated (list) column; a flat column is required"}
	}
	c := &column{name: name, idx: i, phys: d.PhysicalType(), maxDef: d.MaxDefinitionLevel()}
	describe(d, c)
	return c, nil
}

// describe names a leaf column's logical type as ingest does.
func describe(d *schema.Column, c *column) {
	lt := d.LogicalType()
	plain := lt == nil || lt.Equals(schema.NoLogicalType{})
	switch d.PhysicalType() {
	case parquet.Types.Boolean:
		c.kind, c.typeName = kindBool, "bool"
		return
	case parquet.Types.Float:
		c.kind, c.typeName = kindFloat, "float32"
		return
	case parquet.Types.Double:
		c.kind, c.typeName = kindFloat, "float64"
		return
	case parquet.Types.ByteArray:
		c.kind, c.typeName = kindBytes, "binary"
		if _, ok := lt.(schema.StringLogicalType); ok {
			c.typeName = "string"
		}
		return
	case parquet.Types.Int32, parquet.Types.Int64:
		wide := d.PhysicalType() == parquet.Types.Int64
		if plain {
			c.kind, c.typeName = kindInt, "int32"
			if wide {
				c.typeName = "int64"
			}
			return
		}
		if it, ok := lt.(schema.IntLogicalType); ok {
			bits := it.BitWidth()
			if (bits == 8 || bits == 16 || bits == 32 || bits == 64) && (bits == 64) == wide {
				c.kind = kindInt
				c.unsigned = !it.IsSigned() && bits < 64
				c.uint64 = !it.IsSigned() && bits == 64
				c.typeName = fmt.Sprintf("int%d", bits)
				if !it.IsSigned() {
					c.typeName = "u" + c.typeName
				}
				return
			}
		}
		c.typeName = lt.String()
		return
	}
	if !plain {
		c.typeName = lt.String()
		return
	}
	c.typeName = d.PhysicalType().String()
}

func colErr(path, col, msg string) error {
	return &ingest.InputError{File: path, Row: -1, Column: col, Msg: msg}
}

// checkRef is ingest's check that an id column can hold the vertices' ids.
func checkRef(path string, c *column, strIDs bool, verticesFile string) error {
	if (!strIDs && c.kind == kindInt) || (strIDs && c.kind == kindBytes) {
		return nil
	}
	want := "integer"
	if strIDs {
		want = "string"
	}
	return colErr(path, c.name, "id type "+c.typeName+" does not match the vertex ids' type "+want+" (in "+verticesFile+")")
}

// cellErr is a bad value at a file row.
func cellErr(path string, row int64, col, value, msg string) *ingest.InputError {
	return &ingest.InputError{File: path, Row: row, Column: col, Value: value, Msg: msg}
}

const msgNull = "missing value (null)"

// batchReader is the typed ReadBatch of file.*ColumnChunkReader.
type batchReader[T any] interface {
	ReadBatch(batchSize int64, values []T, defLvls, repLvls []int16) (total int64, valuesRead int, err error)
}

// readChunk reads column c of row group g whole (a row group is one split, already
// bounded by the writer), failing at the first null with its file row.
func readChunk[T any](t *table, c *column, g int) (vals []T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &ingest.InputError{File: t.path, Row: -1, Msg: fmt.Sprintf("corrupt Parquet data in row group %d: %v", g, r)}
		}
	}()
	corrupt := func(e error) error { return colErr(t.path, c.name, "corrupt Parquet data: "+e.Error()) }
	cr, err := t.rd.RowGroup(g).Column(c.idx)
	if err != nil {
		return nil, corrupt(err)
	}
	defer cr.Close()
	r, ok := cr.(batchReader[T])
	if !ok {
		return nil, fmt.Errorf("beam: column %q: reader %T does not decode %T", c.name, cr, vals)
	}
	n := t.starts[g+1] - t.starts[g]
	vals = make([]T, n)
	var defs []int16
	if c.maxDef > 0 {
		defs = make([]int16, n)
	}
	row := int64(0)
	for row < n {
		var d []int16
		if defs != nil {
			d = defs[row:]
		}
		lvls, got, err := r.ReadBatch(n-row, vals[row:], d, nil)
		if err != nil {
			return nil, corrupt(err)
		}
		if lvls <= 0 {
			return nil, corrupt(fmt.Errorf("row group %d ends after %d of its %d rows", g, row, n))
		}
		if int64(got) != lvls {
			for i, l := range d[:lvls] {
				if l < c.maxDef {
					return nil, cellErr(t.path, t.starts[g]+row+int64(i), c.name, "", msgNull)
				}
			}
			return nil, corrupt(fmt.Errorf("%d levels but %d values", lvls, got))
		}
		row += lvls
	}
	return vals, nil
}

// readInts reads an integer column of row group g as int64 (uint64 above MaxInt64
// comes out negative: callers check c.uint64).
func readInts(t *table, c *column, g int) ([]int64, error) {
	if c.phys == parquet.Types.Int64 {
		return readChunk[int64](t, c, g)
	}
	v32, err := readChunk[int32](t, c, g)
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(v32))
	for i, v := range v32 {
		if c.unsigned {
			out[i] = int64(uint32(v))
		} else {
			out[i] = int64(v)
		}
	}
	return out, nil
}

func readFloats(t *table, c *column, g int) ([]float64, error) {
	if c.phys == parquet.Types.Double {
		return readChunk[float64](t, c, g)
	}
	v32, err := readChunk[float32](t, c, g)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(v32))
	for i, v := range v32 {
		out[i] = float64(v)
	}
	return out, nil
}

func readStrings(t *table, c *column, g int) ([]string, error) {
	b, err := readChunk[parquet.ByteArray](t, c, g)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(b))
	for i, x := range b {
		out[i] = string(x)
	}
	return out, nil
}

func intText(c *column, v int64) string {
	if c.uint64 {
		return strconv.FormatUint(uint64(v), 10)
	}
	return strconv.FormatInt(v, 10)
}

// ids is a block of vertex ids: Int or Str.
type ids struct {
	Str bool
	Int []int64
	S   []string
}

func (x *ids) len() int {
	if x.Str {
		return len(x.S)
	}
	return len(x.Int)
}

func (x *ids) text(i int) string {
	if x.Str {
		return x.S[i]
	}
	return strconv.FormatInt(x.Int[i], 10)
}

func (x *ids) key(i int) idKey {
	if x.Str {
		return idKey{s: x.S[i], str: true}
	}
	return idKey{i: x.Int[i]}
}

func (x *ids) append(y *ids, i int) {
	if y.Str {
		x.S = append(x.S, y.S[i])
	} else {
		x.Int = append(x.Int, y.Int[i])
	}
}

func (e *enc) ids(x *ids) {
	e.bool(x.Str)
	if x.Str {
		e.strs(x.S)
	} else {
		e.i64s(x.Int)
	}
}

func (d *dec) ids() ids {
	var x ids
	if x.Str = d.bool(); x.Str {
		x.S = d.strs()
	} else {
		x.Int = d.i64s()
	}
	return x
}

// idKey is an id as a map key.
type idKey struct {
	i   int64
	s   string
	str bool
}

// bucket spreads ids over b join buckets (a fixed hash: every worker agrees).
func (k idKey) bucket(b int) int {
	var h uint64
	if k.str {
		h = 14695981039346656037
		for i := 0; i < len(k.s); i++ {
			h ^= uint64(k.s[i])
			h *= 1099511628211
		}
	} else {
		h = uint64(k.i) + 0x9e3779b97f4a7c15
		h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9
		h = (h ^ (h >> 27)) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return int(h % uint64(b))
}

// readIDs reads an id column (integers or byte strings) of row group g, rejecting
// uint64 ids above MaxInt64 where ingest does (vertices) or as unknown (references).
func readIDs(t *table, c *column, g int, refOf string) (ids, error) {
	if c.kind == kindBytes {
		s, err := readStrings(t, c, g)
		return ids{Str: true, S: s}, err
	}
	v, err := readInts(t, c, g)
	if err != nil {
		return ids{}, err
	}
	if c.uint64 {
		for i, x := range v {
			if x < 0 {
				msg := "id does not fit in int64"
				if refOf != "" {
					msg = "not a vertex id (no such id in " + refOf + ")"
				}
				return ids{}, cellErr(t.path, t.starts[g]+int64(i), c.name, intText(c, x), msg)
			}
		}
	}
	return ids{Int: v}, nil
}

// readAnswers reads a boolean or 0/1 integer column of row group g.
func readAnswers(t *table, c *column, g int) ([]bool, error) {
	if c.kind == kindBool {
		return readChunk[bool](t, c, g)
	}
	v, err := readInts(t, c, g)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(v))
	for i, x := range v {
		if uint64(x) > 1 {
			return nil, cellErr(t.path, t.starts[g]+int64(i), c.name, intText(c, x), "answer must be 0 or 1")
		}
		out[i] = x == 1
	}
	return out, nil
}
