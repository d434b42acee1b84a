package ingest

import (
	"context"
	"io"
	"strconv"

	"github.com/graphdp/graphdp/internal/progress"
)

// csvSource is a CSV file as a source (source.go): one unit, the file, streamed in
// batches of rows (csvBatchRows, csvBatchBytes: csvlimit.go). Every value is text: a column is typed by parsing its
// fields (a number by ParseNumber, an id against integer vertex ids by ParseID),
// an empty field is a missing value, and a field that does not parse is an error
// at its row, in the column's words. A table's own ids are integers when asked
// (asInt) and every one is canonical: the first that is not ends the read with
// errNotInt, and the table reads the file again as strings (doc.go).
type csvSource struct{ t *csvTable }

func openCSVSource(ctx context.Context, path string, opts []Option) (*csvSource, error) {
	t, err := openCSV(ctx, openerOf(path, opts), path)
	if err != nil {
		return nil, err
	}
	return &csvSource{t}, nil
}

func (s *csvSource) file() string                 { return s.t.path }
func (s *csvSource) present() []string            { return s.t.header }
func (s *csvSource) rows() (int64, bool)          { return 0, false }
func (s *csvSource) units() int                   { return 1 }
func (s *csvSource) unit(int) (int64, int64)      { return 0, -1 }
func (s *csvSource) fingerprint() (string, error) { return s.t.fingerprint() }
func (s *csvSource) close()                       { s.t.close() }
func (s *csvSource) schema() ([]string, string)   { return s.t.header, "header" }

// csvField is a column of a CSV file: its index in a record.
type csvField struct {
	at   int
	name string
}

func (f csvField) Name() string { return f.name }

func (s *csvSource) field(name string) (field, error) {
	at, err := s.t.column(name)
	if err != nil {
		return nil, err
	}
	return csvField{at, name}, nil
}

func (s *csvSource) ownIDs(f field, asInt bool) (ids, error) {
	c, path := f.(csvField), s.t.path
	if !asInt {
		return ids{strs: csvText(path, c)}, nil
	}
	return ids{ints: csvColumn[int64]{c, func(field string, row int64) (int64, error) {
		if field == "" {
			return 0, cellError(path, ErrNull, row, c.name, "", msgEmpty)
		}
		x, ok := ParseID(field)
		if !ok {
			return 0, errNotInt
		}
		return x, nil
	}, false, spellInt}}, nil
}

func (s *csvSource) refIDs(f field, intIDs bool, verticesFile string) (ids, error) {
	c, path := f.(csvField), s.t.path
	if !intIDs {
		return ids{strs: csvText(path, c)}, nil
	}
	return ids{ints: csvColumn[int64]{c, func(field string, row int64) (int64, error) {
		return parseRefCSV(path, row, c.name, field, true, verticesFile)
	}, false, spellInt}}, nil
}

// csvText is column c as text ids: every field but an empty one.
func csvText(path string, c csvField) column[string] {
	return csvColumn[string]{c, func(field string, row int64) (string, error) {
		if field == "" {
			return "", cellError(path, ErrNull, row, c.name, "", msgEmpty)
		}
		return field, nil
	}, false, spellText}
}

func (s *csvSource) numbers(f field, _ bool, _ string) (column[float64], error) {
	c, path := f.(csvField), s.t.path
	return csvColumn[float64]{c, func(field string, row int64) (float64, error) {
		if field == "" {
			return 0, cellError(path, ErrNull, row, c.name, "", msgEmpty)
		}
		x, err := ParseNumber(field)
		if err != nil {
			return 0, cellError(path, ErrNotANumber, row, c.name, field, "not a number")
		}
		return x, nil
	}, false, nil}, nil
}

func (s *csvSource) flags(f field, _ string) (flags, error) {
	k, _ := s.text(f)
	return flags{strs: k}, nil
}

// text is column f as its fields, every one.
func (s *csvSource) text(f field) (column[string], error) {
	return csvColumn[string]{f.(csvField), func(field string, _ int64) (string, error) { return field, nil }, false, spellText}, nil
}

func (s *csvSource) nullInts(f field, _, bad string) (column[int64], error) {
	c, path := f.(csvField), s.t.path
	return csvColumn[int64]{c, func(field string, row int64) (int64, error) {
		x, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return 0, cellError(path, ErrRange, row, c.name, field, bad)
		}
		return x, nil
	}, true, nil}, nil
}

func (s *csvSource) nullIDs(f, _ field, asInt bool, _ string, notInt func(int64, string) error) (ids, error) {
	c := f.(csvField)
	if !asInt {
		return ids{strs: csvColumn[string]{c, func(field string, _ int64) (string, error) { return field, nil }, true, spellText}}, nil
	}
	return ids{ints: csvColumn[int64]{c, func(field string, row int64) (int64, error) {
		x, ok := ParseID(field)
		if !ok {
			return 0, notInt(row, field)
		}
		return x, nil
	}, true, spellInt}}, nil
}

func (s *csvSource) metadata() (map[string]string, error) { return nil, nil }

func (s *csvSource) hint(e *InputError) {
	if e.Hint == "" {
		e.Hint = headerHint(s.t.path, s.t.header, s.t.r.Comma)
	}
}

// read streams the file: it decodes a batch of rows into the readers' columns,
// stopping at a row that cannot be read or a field that does not decode, and then
// hands each reader its batch, in the readers' order. An error the readers find
// comes first: it is at an earlier row, or at this row in an earlier column, than
// the one that stopped the batch. It checks ctx and counts rows (the context's
// progress counter) a batch at a time.
func (s *csvSource) read(ctx context.Context, limit rowLimit, rs ...reader) error {
	t := s.t
	us := make([]csvUse, len(rs))
	for i, r := range rs {
		us[i] = r.(csvUse)
	}
	rc, counted := progress.From(ctx), int64(0)
	errs := make([]error, len(us))
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		start, from, eof := t.rows, t.r.InputOffset(), false
		var stop error
	batch:
		for t.rows-start < csvBatchRows && t.r.InputOffset()-from < csvBatchBytes {
			rec, row, err := t.next()
			switch {
			case err == io.EOF:
				eof = true
				break batch
			case err != nil:
				stop = err
				break batch
			case limit.n > 0 && row >= limit.n:
				stop = limit.check(t.path, row+1)
				break batch
			}
			for _, u := range us {
				if err := u.add(rec, row); err != nil {
					stop = err
					break batch
				}
			}
		}
		for i, u := range us {
			errs[i] = u.flush(start)
		}
		if err := firstError(errs); err != nil {
			return err
		}
		if stop != nil {
			if stop == errNotInt && rc != nil {
				rc.Done.Add(-counted) // the table reads the file again as strings, counting every row then
			}
			return stop
		}
		if rc != nil {
			rc.Done.Add(t.rows - start)
			counted += t.rows - start
		}
		if eof {
			return nil
		}
	}
}

// readUnit reads the file, its one unit.
func (s *csvSource) readUnit(ctx context.Context, _ int, limit rowLimit, rs ...reader) error {
	return s.read(ctx, limit, rs...)
}

// csvColumn is a column of a CSV file whose fields decode as values of type T;
// in a nullable one, an empty field is null (run writes a null so). A value's text
// is its field, kept beside it, unless spell writes every value as its field was
// (canonical integer ids, text), which spares keeping them.
type csvColumn[T any] struct {
	f        csvField
	decode   func(field string, row int64) (T, error)
	nullable bool
	spell    func(T) string
}

func spellInt(x int64) string   { return strconv.FormatInt(x, 10) }
func spellText(s string) string { return s }

func (k csvColumn[T]) Name() string { return k.f.name }

func (k csvColumn[T]) use(fn func(batch[T]) error) reader {
	return &csvReader[T]{k: k, fn: fn}
}

// csvUse is what read asks of a reader of a CSV file's column.
type csvUse interface {
	reader
	add(rec []string, row int64) error // decode the column's field of rec, at row
	flush(row int64) error             // hand the batch (its first row is row) to its reader
}

// csvReader is a CSV column bound to fn: the batch decoded so far.
type csvReader[T any] struct {
	k      csvColumn[T]
	fn     func(batch[T]) error
	vals   []T
	fields []string
	nulls  []bool // a nullable column's
}

func (r *csvReader[T]) Name() string { return r.k.f.name }

func (r *csvReader[T]) add(rec []string, row int64) error {
	f := rec[r.k.f.at]
	var v T
	null := r.k.nullable && f == ""
	if !null {
		var err error
		if v, err = r.k.decode(f, row); err != nil {
			return err
		}
	}
	if r.k.nullable {
		r.nulls = append(r.nulls, null)
	}
	if r.k.spell == nil {
		r.fields = append(r.fields, f)
	}
	r.vals = append(r.vals, v)
	return nil
}

func (r *csvReader[T]) flush(row int64) error {
	if len(r.vals) == 0 {
		return nil
	}
	vals, fields := r.vals, r.fields
	text := func(i int) string { return fields[i] }
	if r.k.spell != nil {
		text = func(i int) string { return r.k.spell(vals[i]) }
	}
	err := r.fn(batch[T]{row, vals, text, r.nulls})
	r.vals, r.fields, r.nulls = r.vals[:0], r.fields[:0], r.nulls[:0]
	return err
}
