package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"golang.org/x/sync/errgroup"

	"github.com/graphdp/graphdp/internal/progress"
)

// batchRows is how many values one ReadBatch call decodes; scratch buffers
// are this long, so memory per worker stays small whatever the row group size.
const batchRows = 1 << 16

// streamBufferSize is the read buffer per open column chunk. Streaming keeps
// a huge row group from being read into memory whole. Local files get a small
// one (localBufferSize): it holds a page header and the start of its page, and the
// rest of the page, longer than the buffer, is read straight into the decoder's
// page buffer (arrow-go's buffered reader does that), one copy fewer per byte and
// 16 KiB instead of 1 MiB of garbage per column chunk: arrow-go's first peek for
// a page header (a longer one grows the buffer). A folder of parts opens one per
// column chunk per file; at 64 KiB, zeroing them cost 100 parts about a tenth of
// their extra cpu (docs/PERFORMANCE.md, "Many part files"). Remote files keep 1 MiB.
const (
	streamBufferSize = 1 << 20
	localBufferSize  = 16 << 10
)

// Option configures a reader (ReadVertices, ReadEdges, OpenEdges, …, OpenTable).
type Option func(*options)

type options struct {
	mem   memory.Allocator
	share *partShare // buffers shared by the files of one table
	open  Opener     // WithOpener's
}

// partShare is what the files of one table read together (an EdgeStream's parts)
// share, so that a folder of many small files reuses one set of buffers as one
// file does: the decoder's page buffers, the id batches, the folded hash's spans.
type partShare struct {
	mem   *recycler
	ints  batches[int64]
	spans spanBufs
}

// withShare makes the readers use s's buffers, released by s.mem.release().
func withShare(s *partShare) Option { return func(o *options) { o.share = s } }

// WithAllocator makes the Parquet decoder allocate its buffers from mem, as
// arrow-go's readers take an allocator in their properties; nil (the default)
// is memory.DefaultAllocator. A test passes a memory.CheckedAllocator to see every
// buffer released.
func WithAllocator(mem memory.Allocator) Option { return func(o *options) { o.mem = mem } }

// WithOpener makes a reader open its files through open (a runner's filesystems)
// rather than the local disk and the object stores of their URLs.
func WithOpener(open Opener) Option { return func(o *options) { o.open = open } }

// openerOf is how the file at path is opened: WithOpener's, else as its path says.
func openerOf(path string, opts []Option) Opener {
	if o := readOptions(opts); o.open != nil {
		return o.open
	}
	return openerFor(path)
}

func readOptions(opts []Option) options {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if o.mem == nil {
		o.mem = memory.DefaultAllocator
	}
	return o
}

// Table is an open Parquet input. The whole-file readers (ReadVertices, …) read
// every row group of one in parallel; a cluster runner opens one per split with
// OpenTable and reads a row group at a time (rowgroup.go), with the same checks
// and the same errors.
type Table struct {
	path   string
	rd     *file.Reader
	src    *servedFile // what rd reads
	ints   *batches[int64]
	spans  *spanBufs // the folded hash's buffers (shared by the files of a table), or nil
	closer func() error
	starts []int64 // starts[g]: file row of row group g's first row; last entry is the row count
}

// File is an open input file: random access to Size bytes.
type File interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

// Opener opens input files. The readers use OSFiles; a cluster runner passes its
// own (gs://, s3://) to OpenTable.
type Opener interface {
	Open(ctx context.Context, path string) (File, error)
}

// OSFiles opens paths on the local filesystem.
type OSFiles struct{}

type osFile struct {
	*os.File
	size int64
}

func (f osFile) Size() int64 { return f.size }

// Open opens path with os.Open.
func (OSFiles) Open(_ context.Context, path string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return osFile{f, st.Size()}, nil
}

func openParquet(ctx context.Context, path string, opts []Option) (*Table, error) {
	return OpenTable(ctx, openerOf(path, opts), path, opts...)
}

// OpenTable opens the Parquet file at path through open and reads its footer.
// Failures are *InputError of kind ErrUnreadable.
func OpenTable(ctx context.Context, open Opener, path string, opts ...Option) (t *Table, err error) {
	f, err := open.Open(ctx, path)
	if err != nil {
		return nil, openError(path, err)
	}
	o := readOptions(opts)
	mem, release := &recycler{base: o.mem}, true
	ints, spans := &batches[int64]{}, (*spanBufs)(nil)
	if o.share != nil {
		mem, release, ints, spans = o.share.mem, false, &o.share.ints, &o.share.spans
	}
	done := func() {
		if release {
			mem.release()
		}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fileError(path, ErrUnreadable, fmt.Sprintf("not a valid Parquet file: %v", r))
		}
		if err != nil {
			done()
			f.Close()
		}
	}()
	// The reader checks only the footer's magic; a file whose leading "PAR1" is
	// damaged is damaged, and is rejected rather than half-trusted.
	var head [4]byte
	if n, err := f.ReadAt(head[:], 0); err != nil && !(errors.Is(err, io.EOF) && n < len(head)) {
		return nil, fileError(path, ErrUnreadable, "read error: "+err.Error())
	}
	if string(head[:]) != "PAR1" {
		return nil, fileError(path, ErrUnreadable, fmt.Sprintf("not a valid Parquet file: it does not start with the magic bytes PAR1 (starts with %q)", head[:]))
	}
	props := parquet.NewReaderProperties(mem)
	props.BufferedStreamEnabled = true
	props.BufferSize = streamBufferSize
	if _, local := open.(OSFiles); local {
		props.BufferSize = localBufferSize
	}
	src := &servedFile{File: f}
	rd, err := file.NewParquetReader(io.NewSectionReader(src, 0, f.Size()), file.WithReadProps(props))
	if err != nil {
		return nil, fileError(path, ErrUnreadable, "not a valid Parquet file: "+err.Error())
	}
	t = &Table{path: path, rd: rd, src: src, ints: ints, spans: spans, closer: func() error { done(); return f.Close() }, starts: make([]int64, rd.NumRowGroups()+1)}
	for g := range rd.NumRowGroups() {
		n := rd.MetaData().RowGroup(g).NumRows()
		if n < 0 || t.starts[g] > math.MaxInt64-n {
			rd.Close()
			return nil, fileError(path, ErrUnreadable, fmt.Sprintf("corrupt Parquet file: row group %d has %d rows", g, n))
		}
		t.starts[g+1] = t.starts[g] + n
	}
	return t, nil
}

// openParquetColumnsFold opens path, starts fingerprinting it, and resolves the
// named columns, for a caller that may hash the file itself as it reads it (an
// EdgeStream): when fold returns true for the open table, no hashing read is
// started and fp is nil. done closes the file and, when the read ends early, stops
// the fingerprint.
func openParquetColumnsFold(ctx context.Context, path string, opts []Option, fold func(*Table) bool, names ...string) (t *Table, cols []*Column, fp func() (string, error), done func(), err error) {
	t, err = openParquet(ctx, path, opts)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done = func() { cancel(); t.close() }
	if fold == nil || !fold(t) {
		fp = fingerprintAsync(ctx, path, t.checker())
	}
	for _, n := range names {
		c, err := t.column(n)
		if err != nil {
			done()
			return nil, nil, nil, nil, err
		}
		cols = append(cols, c)
	}
	return t, cols, fp, done, nil
}

// readError is the error for a failed read of t's file (a page checksum that does
// not match among them).
func (t *Table) readError(err error) error {
	return streamError(t.path, err)
}

func (t *Table) close()                { t.Close() }
func (t *Table) numRows() int64        { return t.starts[len(t.starts)-1] }
func (t *Table) numGroups() int        { return len(t.starts) - 1 }
func (t *Table) groupRows(g int) int64 { return t.starts[g+1] - t.starts[g] }

// Close releases the file.
func (t *Table) Close() error { t.rd.Close(); return t.closer() }

// Rows is the file's row count.
func (t *Table) Rows() int64 { return t.numRows() }

// RowGroups is how many row groups the file has.
func (t *Table) RowGroups() int { return t.numGroups() }

// Start is the file row of row group g's first row (Start(RowGroups()) = Rows()).
func (t *Table) Start(g int) int64 { return t.starts[g] }

// Column resolves a column by exact name (ErrMissingColumn, ErrColumnType).
func (t *Table) Column(name string) (*Column, error) { return t.column(name) }

// Column is a resolved column and what its type means to us.
type Column struct {
	name     string
	idx      int
	phys     parquet.Type
	maxDef   int16
	typ      arrow.DataType // logical type as Arrow names it; nil if unsupported
	typeName string         // for messages
}

func (c *Column) isInt() bool {
	return c.typ != nil && (c.phys == parquet.Types.Int32 || c.phys == parquet.Types.Int64)
}
func (c *Column) isBytes() bool { return c.phys == parquet.Types.ByteArray }
func (c *Column) isFloat() bool {
	return c.phys == parquet.Types.Float || c.phys == parquet.Types.Double
}
func (c *Column) isUint64() bool { return c.typ != nil && c.typ.ID() == arrow.UINT64 }

// column resolves a column by exact name.
func (t *Table) column(name string) (*Column, error) {
	sc := t.rd.MetaData().Schema
	i := sc.ColumnIndexByName(name)
	if i < 0 {
		present := make([]string, 0, sc.NumColumns())
		for _, c := range sc.Columns() {
			present = append(present, c.Path())
		}
		return nil, missingColumn(t.path, name, present)
	}
	if n := countColumns(sc, name); n > 1 {
		// Which one was meant cannot be known: reading the first would be a guess.
		return nil, columnError(t.path, ErrDuplicateColumn, name, msgDuplicateColumn(n))
	}
	d := sc.Column(i)
	if d.MaxRepetitionLevel() > 0 {
		return nil, columnError(t.path, ErrColumnType, name, "is a repeated (list) column; a flat column is required")
	}
	c := &Column{name: name, idx: i, phys: d.PhysicalType(), maxDef: d.MaxDefinitionLevel()}
	c.typ, c.typeName = arrowType(d)
	return c, nil
}

// countColumns is how many leaf columns of sc have the path name.
func countColumns(sc *schema.Schema, name string) int {
	n := 0
	for i := range sc.NumColumns() {
		if sc.Column(i).Path() == name {
			n++
		}
	}
	return n
}

// arrowType names the logical type of a leaf column. Integer widths come
// from the Int logical type (INT32 holds int8..int32 and uint8..uint32).
func arrowType(d *schema.Column) (arrow.DataType, string) {
	lt := d.LogicalType()
	plain := lt == nil || lt.Equals(schema.NoLogicalType{})
	switch d.PhysicalType() {
	case parquet.Types.Boolean:
		return arrow.FixedWidthTypes.Boolean, "bool"
	case parquet.Types.Float:
		return arrow.PrimitiveTypes.Float32, "float32"
	case parquet.Types.Double:
		return arrow.PrimitiveTypes.Float64, "float64"
	case parquet.Types.ByteArray:
		if _, ok := lt.(schema.StringLogicalType); ok {
			return arrow.BinaryTypes.String, "string"
		}
		return arrow.BinaryTypes.Binary, "binary"
	case parquet.Types.Int32, parquet.Types.Int64:
		wide := d.PhysicalType() == parquet.Types.Int64
		if plain {
			if wide {
				return arrow.PrimitiveTypes.Int64, "int64"
			}
			return arrow.PrimitiveTypes.Int32, "int32"
		}
		if it, ok := lt.(schema.IntLogicalType); ok {
			if t := intType(it.BitWidth(), it.IsSigned()); t != nil && (t.(arrow.FixedWidthDataType).BitWidth() == 64) == wide {
				return t, t.String()
			}
		}
		return nil, lt.String()
	}
	if !plain {
		return nil, lt.String()
	}
	return nil, d.PhysicalType().String()
}

func intType(bits int8, signed bool) arrow.DataType {
	switch {
	case bits == 8 && signed:
		return arrow.PrimitiveTypes.Int8
	case bits == 16 && signed:
		return arrow.PrimitiveTypes.Int16
	case bits == 32 && signed:
		return arrow.PrimitiveTypes.Int32
	case bits == 64 && signed:
		return arrow.PrimitiveTypes.Int64
	case bits == 8:
		return arrow.PrimitiveTypes.Uint8
	case bits == 16:
		return arrow.PrimitiveTypes.Uint16
	case bits == 32:
		return arrow.PrimitiveTypes.Uint32
	case bits == 64:
		return arrow.PrimitiveTypes.Uint64
	}
	return nil
}

// corrupt is the error for data the Parquet decoder rejects.
func (t *Table) corrupt(c *Column, err error) error {
	return columnError(t.path, ErrUnreadable, c.name, "corrupt Parquet data: "+err.Error())
}

// intText formats an integer read from c for a message.
func intText(c *Column, v int64) string {
	if c.isUint64() {
		return fmt.Sprint(uint64(v))
	}
	return fmt.Sprint(v)
}

// errAbandoned marks work skipped because an earlier row group failed.
var errAbandoned = errors.New("ingest: abandoned")

// run calls every loader on every row group in parallel, at most GOMAXPROCS
// at once; loaders write into disjoint ranges of preallocated slices, so the
// result does not depend on scheduling.
func (t *Table) run(ctx context.Context, loaders ...chunkLoader) error {
	units := make([]tableGroup, t.numGroups())
	for g := range units {
		units[g] = tableGroup{t, g}
	}
	return runGroups(ctx, units, len(loaders), func(li int, check func() error, u int) error {
		return loaders[li](check, u)
	})
}

// tableGroup is one row group of one file: a unit of work of runGroups.
type tableGroup struct {
	t *Table
	g int
}

// runGroups calls load(li, check, u) for every unit u of units (row groups of one
// or several files, in read order) and every loader li < loaders, in parallel, at
// most GOMAXPROCS at once.
//
// The error reported does not depend on scheduling: it is the one from the
// earliest failing unit, and within it the one with the lowest row. That is why
// failures do not cancel the group (errgroup.WithContext would stop earlier units
// too); instead, later units stop themselves.
func runGroups(ctx context.Context, units []tableGroup, loaders int, load func(li int, check func() error, u int) error) error {
	errs := make([]error, len(units)*loaders)
	var failed atomic.Int64
	failed.Store(math.MaxInt64)
	var eg errgroup.Group
	eg.SetLimit(runtime.GOMAXPROCS(0))
	rc := progress.From(ctx)
	if rc != nil {
		for _, x := range units {
			rc.Total.Add(x.t.groupRows(x.g))
		}
	}
	for u, x := range units {
		for li := range loaders {
			if ctx.Err() != nil || failed.Load() < int64(u) {
				break
			}
			check := func() error {
				if failed.Load() < int64(u) {
					return errAbandoned
				}
				return ctx.Err()
			}
			eg.Go(func() error {
				err := x.t.safeLoad(func(check func() error, _ int) error { return load(li, check, u) }, check, x.g)
				if err == nil && li == 0 && rc != nil {
					rc.Done.Add(x.t.groupRows(x.g)) // a row group, counted once
				}
				if err != nil {
					errs[u*loaders+li] = err
					if !errors.Is(err, errAbandoned) && ctx.Err() == nil {
						for {
							cur := failed.Load()
							if cur <= int64(u) || failed.CompareAndSwap(cur, int64(u)) {
								break
							}
						}
					}
				}
				return nil
			})
		}
	}
	_ = eg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	if f := failed.Load(); f != math.MaxInt64 {
		x := units[f]
		return x.t.damaged(x.g, firstError(errs[int(f)*loaders:int(f+1)*loaders]))
	}
	return nil
}

// safeLoad runs load, turning a decoder panic on a malformed file into an
// InputError: arrow-go can panic on corrupt pages, and bad input is the
// user's problem to fix, not a crash.
func (t *Table) safeLoad(load chunkLoader, check func() error, g int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fileError(t.path, ErrUnreadable, fmt.Sprintf("corrupt Parquet data in row group %d: %v", g, r))
		}
	}()
	return load(check, g)
}

// firstError picks the error with the lowest row (column order breaks ties).
func firstError(errs []error) error {
	var best error
	bestRow := int64(math.MaxInt64)
	for _, err := range errs {
		if err == nil || errors.Is(err, errAbandoned) {
			continue
		}
		row := int64(-1)
		var ie *InputError
		if errors.As(err, &ie) {
			row = ie.Row
		}
		if best == nil || row < bestRow {
			best, bestRow = err, row
		}
	}
	return best
}
