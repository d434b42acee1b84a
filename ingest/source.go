package ingest

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
)

// This file is what a table's reader asks of an input format. A source is one open
// file of a table; a table (hittingset.go, weights.go, …) is written once against
// it: it resolves its columns, opens each as the kind of values it holds (ids,
// numbers, …), reads them batch by batch and judges the values. The source decodes
// its format: column types, nulls, CSV's text (its id type inference, its parse
// errors), and the file's read units, which it runs:
//
//   - Parquet (source_parquet.go): its row groups, in parallel, each into its own
//     range of the table's preallocated slices (rows known from the footer);
//   - CSV (source_csv.go): the file as one unit, streamed in batches of rows, in order.
//
// A cluster runner reads the units apart, a split each (readUnit; splits.go).
//
// A batch comes with each value's file row and text (as the file writes it), so
// that every message names both, in every format.

// A source is one open file of a table, in one input format.
type source interface {
	file() string
	// present is the file's columns, as a missing column's message lists them.
	present() []string
	// field resolves a column by exact name: ErrMissingColumn (with a hint),
	// ErrDuplicateColumn, or a column no table can read (a list).
	field(name string) (field, error)
	// schema is the file's columns as the files of one table must share them
	// (partcheck.go; Parquet: names and types), and what the format calls them
	// ("schema", "header").
	schema() (cols []string, what string)
	// metadata is the file's key/value metadata (a Parquet footer's), nil in a
	// format without (CSV).
	metadata() (map[string]string, error)
	// hint adds to a missing column's error that a table found (mechPresence) the
	// format's hint, if e has none (CSV: the delimiter its header seems to use).
	hint(e *InputError)
	// rows is the file's row count when known before reading (Parquet's footer); a
	// source that does not know it reads its units in order (CSV).
	rows() (n int64, known bool)
	// units is how many read units the file has (Parquet: its row groups; CSV: one),
	// and unit(u) unit u's first file row and its rows (-1 when not known before
	// reading), for a runner that reads them apart (splits.go).
	units() int
	unit(u int) (start, rows int64)

	// The kinds of column a table reads, each checked for its type where the
	// format has types (ErrColumnType).

	// ownIDs opens a table's own id column (vertices, a mechanism): integers or
	// text, as the column's type says; a format without types (CSV) reads integers
	// when asInt, failing with errNotInt at the first that is not one, else text.
	ownIDs(f field, asInt bool) (ids, error)
	// refIDs opens an id column of another table, holding ids of the vertices
	// table verticesFile, integers when intIDs (unresolved: refsInto looks them up).
	refIDs(f field, intIDs bool, verticesFile string) (ids, error)
	// numbers opens a number column as float64: a float column, or also an
	// integer one when ints; typeWords is the start of the message for a column of
	// another type ("p_true must be a float64 or float32 column").
	numbers(f field, ints bool, typeWords string) (column[float64], error)
	// flags opens a yes/no column (an answer): boolean, integer or text values,
	// which answersInto judges; what names it in a type error ("answer").
	flags(f field, what string) (flags, error)

	// nullInts opens an integer column whose nulls are values (b.nulls); in a
	// format without types, a field that is not an integer is an ErrRange error
	// saying bad.
	nullInts(f field, typeWords, bad string) (column[int64], error)
	// nullIDs opens a column of ids of the table's own id column id (read with
	// asInt, ownIDs) whose nulls are values: of id's type ("typeWords (its type),
	// not …" when not); in a format without types, an id that is not an integer
	// where they are is the error notInt gives.
	nullIDs(f, id field, asInt bool, typeWords string, notInt func(row int64, text string) error) (ids, error)

	// text opens a column as the file writes its values, none judged: for a plan
	// that reads a file whose rows are not known (splits.go: its rows counted, the
	// types of a format without types found from the values).
	text(f field) (column[string], error)

	// read runs every reader (the columns a table opened, each bound to what keeps
	// its values) over every unit, and reports the error of the earliest failing
	// row (its lowest column among the readers when several fail at one row; doc.go,
	// invariant 4). A table of more rows than limit (when set) is an ErrSize error.
	read(ctx context.Context, limit rowLimit, rs ...reader) error
	// readUnit runs every reader over unit u alone, each at least up to the
	// earliest failing row (Parquet: each to its own first error), and reports
	// that row's error as read does.
	readUnit(ctx context.Context, u int, limit rowLimit, rs ...reader) error
	// fingerprint is the file's hex SHA-256, once read has returned nil.
	fingerprint() (string, error)
	close()
}

// A field is a resolved column of a source.
type field interface{ Name() string }

// A column is one column of a source opened as values of type T.
type column[T any] interface {
	Name() string
	// use is the reader that hands fn the column's values, a batch at a time, each
	// unit's in row order; fn must not keep b.vals.
	use(fn func(b batch[T]) error) reader
}

// A reader is a column bound to what keeps its values; only its own source runs it.
type reader interface{ Name() string }

// batch is consecutive values of one column: vals[i] is at file row row+i, written
// text(i) in the file (for messages), and null where nulls[i] (a nullable column's
// nulls, with vals[i] zero; nil when there are none).
type batch[T any] struct {
	row   int64
	vals  []T
	text  func(i int) string
	nulls []bool
}

// ids is an id column: exactly one of its kinds is set. A table's own text ids are
// strs; another table's (refIDs) are bytes (Parquet: looked up without a copy) or
// strs.
type ids struct {
	ints  column[int64]
	strs  column[string]
	bytes column[parquet.ByteArray]
}

// flags is a yes/no column: exactly one of its kinds is set. typ is the type
// Vertices.AnswerType records for it, or nil in a format without types (CSV): Int64,
// Boolean once a value is written true or false.
type flags struct {
	bools column[bool]
	ints  column[int64]
	strs  column[string]
	typ   arrow.DataType
}

// rowLimit is the most rows a table may have (n > 0), and the message for more.
type rowLimit struct {
	n   int64
	msg string
}

// check is the error for a file of n rows, over the limit.
func (l rowLimit) check(file string, n int64) error {
	if l.n > 0 && n > l.n {
		return fileError(file, ErrSize, l.msg)
	}
	return nil
}

// openSource opens one file of a table in its format (formatOf).
func openSource(ctx context.Context, path string, opts []Option) (source, error) {
	f, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	if f == formatCSV {
		return openCSVSource(ctx, path, opts)
	}
	return openParquetSource(ctx, path, opts)
}

// readFile opens one file of a table (path) and reads it with read.
func readFile[T any](ctx context.Context, path string, opts []Option, read func(context.Context, source) (T, error)) (T, error) {
	s, err := openSource(ctx, path, opts)
	if err != nil {
		var zero T
		return zero, err
	}
	defer s.close()
	return read(ctx, s)
}

// fields resolves the named columns of s, all of them before any is checked.
func fields(s source, names ...string) ([]field, error) {
	out := make([]field, len(names))
	for i, n := range names {
		var err error
		if out[i], err = s.field(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// values is where a table keeps one column's values, one per file row:
// preallocated when the source knows its rows (its units, read in parallel, write
// disjoint ranges), else appended in row order.
type values[T any] struct {
	v     []T
	fixed bool
}

func newValues[T any](s source) *values[T] {
	n, known := s.rows()
	return sized[T](n, known)
}

// sized is values for n rows: preallocated (fixed), or appended with room for n.
func sized[T any](n int64, fixed bool) *values[T] {
	if fixed {
		return &values[T]{v: make([]T, n), fixed: true}
	}
	return &values[T]{v: make([]T, 0, n)}
}

// put keeps vals, the values of the file rows from row on.
func (d *values[T]) put(row int64, vals []T) {
	if d.fixed {
		copy(d.v[row:], vals)
		return
	}
	d.v = append(d.v, vals...)
}

// at is where the values of the n file rows from row on go.
func (d *values[T]) at(row int64, n int) []T {
	if d.fixed {
		return d.v[row : row+int64(n)]
	}
	d.v = slices.Grow(d.v, n)[:len(d.v)+n]
	return d.v[len(d.v)-n:]
}

// all is the values kept, nil for no column (d nil).
func (d *values[T]) all() []T {
	if d == nil {
		return nil
	}
	return d.v
}

// drop forgets the last n values at put (a batch's after its first bad value).
func (d *values[T]) drop(n int) {
	if !d.fixed {
		d.v = d.v[:len(d.v)-n]
	}
}

// fill has fn write the values of the n file rows from row on, in place: all of
// them, or those before the first bad one, whose index and error it returns.
func (d *values[T]) fill(row int64, n int, fn func(out []T) (int, error)) error {
	good, err := fn(d.at(row, n))
	if err != nil {
		d.drop(n - good)
	}
	return err
}

// keep is the reader that keeps every value of c in d.
func keep[T any](c column[T], d *values[T]) reader {
	return c.use(func(b batch[T]) error {
		d.put(b.row, b.vals)
		return nil
	})
}

// keepIDs is the reader that keeps the ids of k (integers or text) in values for n
// rows (sized), and what gives them once read.
func keepIDs(k ids, n int64, fixed bool) (reader, func() IDs) {
	if k.ints != nil {
		d := sized[int64](n, fixed)
		return keep(k.ints, d), func() IDs { return IDs{Int: d.v} }
	}
	if k.bytes != nil {
		d := sized[string](n, fixed)
		return k.bytes.use(func(b batch[parquet.ByteArray]) error {
			return d.fill(b.row, len(b.vals), func(out []string) (int, error) {
				for i, x := range b.vals {
					out[i] = string(x)
				}
				return len(out), nil
			})
		}), func() IDs { return IDs{Str: d.v} }
	}
	d := sized[string](n, fixed)
	return keep(k.strs, d), func() IDs { return IDs{Str: d.v} }
}

// checked is the reader that keeps the values of c in d up to the first that
// valid rejects, which is an ErrRange error saying msg.
func checked(file string, c column[float64], valid func(float64) bool, msg string, d *values[float64]) reader {
	return c.use(func(b batch[float64]) error {
		for i, x := range b.vals {
			if !valid(x) {
				d.put(b.row, b.vals[:i]) // the values before it, for a split's read (splits.go)
				return cellError(file, ErrRange, b.row+int64(i), c.Name(), b.text(i), msg)
			}
		}
		d.put(b.row, b.vals)
		return nil
	})
}

// byParts reads the table spec names (one file or many, parts.go) whose ids are
// vertices of vs, after checking that vs is usable: each file through read, joined
// in read order. It returns the files too, for checks across them (a repeated id
// names both files).
func byParts[T part](ctx context.Context, spec string, vs *Vertices, opts []Option,
	read func(context.Context, source) (T, error),
	join func(spec string, parts []T, fingerprint string) T) (T, *partList, error) {
	var zero T
	if err := checkVertices(vs); err != nil {
		return zero, nil, err
	}
	p, err := openParts(ctx, spec, opts)
	if err != nil {
		return zero, nil, err
	}
	one := func(f string) (T, error) { return readFile(ctx, f, opts, read) }
	if p.single() {
		t, err := one(p.files[0])
		p.starts = []int64{0}
		return t, p, err
	}
	parts := make([]T, len(p.files))
	sums := make([]string, len(p.files))
	var rows int64
	for i, f := range p.files {
		p.starts = append(p.starts, rows)
		if p.empty[i] {
			sums[i] = emptySum
			continue
		}
		if parts[i], err = one(f); err != nil {
			return zero, nil, err
		}
		rows += parts[i].partRows()
		sums[i] = parts[i].partSum()
	}
	return join(spec, parts, joinFingerprints(sums)), p, nil
}

// part is what byParts reads of one file of a table.
type part interface {
	partRows() int64 // its rows
	partSum() string // its fingerprint
}
