package ingest

import (
	"context"
	"strconv"

	"github.com/apache/arrow-go/v18/parquet"
)

// parquetSource is a Parquet file as a source (source.go): its units are its row
// groups, read in parallel (Table.run), a column a batch at a time through the
// cursors (cursor.go) that decode its physical type; its types are checked when a
// column is opened, and a null where a value is required is ErrNull. The file is
// hashed, its page checksums checked, by a read that runs beside the table's, from
// read on (opening it reads only its footer).
type parquetSource struct {
	t    *Table
	fp   func() (string, error)
	stop context.CancelFunc // the hashing read's, once started
}

func openParquetSource(ctx context.Context, path string, opts []Option) (*parquetSource, error) {
	t, err := openParquet(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	return &parquetSource{t: t}, nil
}

func (s *parquetSource) file() string                 { return s.t.path }
func (s *parquetSource) rows() (int64, bool)          { return s.t.numRows(), true }
func (s *parquetSource) units() int                   { return s.t.numGroups() }
func (s *parquetSource) unit(g int) (int64, int64)    { return s.t.Start(g), s.t.groupRows(g) }
func (s *parquetSource) fingerprint() (string, error) { return s.fp() }
func (s *parquetSource) schema() ([]string, string)   { return schemaColumns(s.t), "schema" }

func (s *parquetSource) close() {
	if s.stop != nil {
		s.stop()
	}
	s.t.close()
}

func (s *parquetSource) present() []string {
	var out []string
	for _, c := range s.t.rd.MetaData().Schema.Columns() {
		out = append(out, c.Path())
	}
	return out
}

func (s *parquetSource) field(name string) (field, error) {
	c, err := s.t.column(name)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func (s *parquetSource) ownIDs(f field, _ bool) (ids, error) {
	t, c := s.t, f.(*Column)
	if !c.isInt() && !c.isBytes() {
		return ids{}, columnError(t.path, ErrColumnType, c.name, "ids must be integers or strings, not "+c.typeName)
	}
	return t.idColumn(c, t.idRangeError), nil
}

func (s *parquetSource) refIDs(f field, intIDs bool, verticesFile string) (ids, error) {
	t, c := s.t, f.(*Column)
	if err := t.CheckRefColumn(c, intIDs, verticesFile); err != nil {
		return ids{}, err
	}
	if c.isInt() {
		return t.idColumn(c, t.unknownRef(verticesFile)), nil
	}
	return ids{bytes: parquetColumn[parquet.ByteArray]{t, c, chunk[parquet.ByteArray](false), func(b parquet.ByteArray) string { return string(b) }}}, nil
}

// idColumn is c (an integer or text column) as ids: a uint64 id above MaxInt64 is
// the error tooBig gives.
func (t *Table) idColumn(c *Column, tooBig func(c *Column, row, v int64) error) ids {
	if c.isInt() {
		return ids{ints: parquetInts{t, c, tooBig}}
	}
	return ids{strs: parquetColumn[string]{t, c, openStrings, func(s string) string { return s }}}
}

// unknownRef is the error for a uint64 id above MaxInt64 in another table: no vertex's.
func (t *Table) unknownRef(verticesFile string) func(c *Column, row, v int64) error {
	return func(c *Column, row, v int64) error {
		return UnknownID(t.path, row, c.name, intText(c, v), verticesFile)
	}
}

func (s *parquetSource) numbers(f field, ints bool, typeWords string) (column[float64], error) {
	t, c := s.t, f.(*Column)
	if !c.isFloat() && !(ints && c.isInt()) {
		return nil, columnError(t.path, ErrColumnType, c.name, typeWords+", not "+c.typeName)
	}
	return parquetColumn[float64]{t, c, openNumbers, func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }}, nil
}

func (s *parquetSource) flags(f field, what string) (flags, error) {
	t, c := s.t, f.(*Column)
	if err := t.checkBoolColumn(c, what); err != nil {
		return flags{}, err
	}
	typ := c.AnswerType()
	switch {
	case c.isBytes():
		return flags{strs: parquetColumn[string]{t, c, openStrings, func(s string) string { return s }}, typ: typ}, nil
	case c.phys == parquet.Types.Boolean:
		return flags{bools: parquetColumn[bool]{t, c, chunk[bool](false), strconv.FormatBool}, typ: typ}, nil
	}
	return flags{ints: parquetColumn[int64]{t, c, openInts, func(x int64) string { return intText(c, x) }}, typ: typ}, nil
}

func (s *parquetSource) nullInts(f field, typeWords, _ string) (column[int64], error) {
	t, c := s.t, f.(*Column)
	if !c.isInt() {
		return nil, columnError(t.path, ErrColumnType, c.name, typeWords+", not "+c.typeName)
	}
	return parquetColumn[int64]{t, c, ints(true), func(x int64) string { return intText(c, x) }}, nil
}

func (s *parquetSource) nullIDs(f, id field, _ bool, typeWords string, _ func(int64, string) error) (ids, error) {
	t, c, idc := s.t, f.(*Column), id.(*Column)
	if c.isInt() != idc.isInt() || (!c.isInt() && !c.isBytes()) {
		return ids{}, columnError(t.path, ErrColumnType, c.name, typeWords+" ("+idc.typeName+"), not "+c.typeName)
	}
	if c.isInt() {
		return ids{ints: parquetColumn[int64]{t, c, ints(true), func(x int64) string { return strconv.FormatInt(x, 10) }}}, nil
	}
	return ids{strs: parquetColumn[string]{t, c, texts(true), func(s string) string { return s }}}, nil
}

func (s *parquetSource) metadata() (map[string]string, error) { return s.t.metadata() }
func (s *parquetSource) hint(*InputError)                     {}

func (s *parquetSource) read(ctx context.Context, limit rowLimit, rs ...reader) error {
	if err := limit.check(s.t.path, s.t.numRows()); err != nil {
		return err
	}
	loaders := make([]chunkLoader, len(rs))
	for i, r := range rs {
		loaders[i] = r.(parquetReader).load
	}
	hctx, stop := context.WithCancel(ctx)
	s.stop, s.fp = stop, fingerprintAsync(hctx, s.t.path, s.t.checker())
	return s.t.run(ctx, loaders...)
}

// readUnit reads row group g, each reader apart (readGroup), so that each keeps its
// values up to its own first bad one.
func (s *parquetSource) readUnit(_ context.Context, g int, limit rowLimit, rs ...reader) error {
	if err := limit.check(s.t.path, s.t.numRows()); err != nil {
		return err
	}
	errs := make([]error, len(rs))
	for i, r := range rs {
		errs[i] = s.t.readGroup(g, r)
	}
	return firstError(errs)
}

// text is a string column's values as written, nulls as "" (a plan reads none:
// a Parquet file's rows and types are in its footer).
func (s *parquetSource) text(f field) (column[string], error) {
	t, c := s.t, f.(*Column)
	if !c.isBytes() {
		return nil, columnError(t.path, ErrColumnType, c.name, "must be a string column, not "+c.typeName)
	}
	return parquetColumn[string]{t, c, texts(true), func(s string) string { return s }}, nil
}

// parquetReader is a column of a Parquet source bound to what keeps its values.
type parquetReader struct {
	name string
	load chunkLoader
}

func (r parquetReader) Name() string { return r.name }

// parquetColumn is column c opened through open, its values written as text says.
type parquetColumn[T any] struct {
	t    *Table
	c    *Column
	open opener[T]
	text func(T) string
}

func (k parquetColumn[T]) Name() string { return k.c.name }

func (k parquetColumn[T]) use(fn func(batch[T]) error) reader {
	return parquetReader{k.c.name, func(check func() error, g int) error {
		return scan(k.t, k.c, g, k.open, check, func(row int64, vals []T, nulls []bool) error {
			return fn(batch[T]{row, vals, func(i int) string { return k.text(vals[i]) }, nulls})
		})
	}}
}

// parquetInts is an integer id column: a uint64 id above MaxInt64 ends its batch,
// after the ids before it, with the error tooBig gives.
type parquetInts struct {
	t      *Table
	c      *Column
	tooBig func(c *Column, row, v int64) error
}

func (k parquetInts) Name() string { return k.c.name }

func (k parquetInts) use(fn func(batch[int64]) error) reader {
	t, c := k.t, k.c
	return parquetReader{c.name, func(check func() error, g int) error {
		return scan(t, c, g, openInts, check, func(row int64, vals []int64, _ []bool) error { return k.split(row, vals, fn) })
	}}
}

// split hands fn the ids of vals (from file row row on) before the first uint64 id
// above MaxInt64, and then reports that one.
func (k parquetInts) split(row int64, vals []int64, fn func(batch[int64]) error) error {
	bad := wrapped(k.c, vals)
	if err := fn(batch[int64]{row, vals[:bad], func(i int) string { return strconv.FormatInt(vals[i], 10) }, nil}); err != nil {
		return err
	}
	if bad < len(vals) {
		return k.tooBig(k.c, row+int64(bad), vals[bad])
	}
	return nil
}
