package ingest

import (
	"bytes"
	"errors"
	"io"
)

// maxCSVRowBytes bounds one CSV row: its fields, separators and quotes, quoted line
// breaks included, the line break that ends it not. graphdp's tables have a few
// short columns (an id, a 0/1 answer, a probability), so a longer row is not one of
// them; and encoding/csv holds about 40 bytes for every field of the row it parses
// (the field's string header, its index and its position), so a 50 MB row of
// commas once took 3.1 GB. A longer row is an *InputError of kind ErrRowSize naming
// the file and the row.
const maxCSVRowBytes = 64 << 10

// csvBufferBytes is the read buffer of an open CSV file.
const csvBufferBytes = 1 << 20

// A CSV file is read in batches (csvSource.read) of at most csvBatchRows rows and
// about csvBatchBytes bytes of the file (a batch ends at the row that reaches it):
// its columns' values, decoded, and the rows' text they keep (a number's field, for
// messages; a text value), so a file of long rows holds little more than one does.
const (
	csvBatchRows  = 4096
	csvBatchBytes = 1 << 20
	// csvBatchValueBytes bounds what a batch holds for one value beside its row's
	// text: the value (a string header at most), its field's string header, its
	// null flag, each slice grown to twice its length at most; and a table reads
	// at most csvBatchColumns columns (a mechanism table's roles).
	csvBatchValueBytes = 2 * (16 + 16 + 1)
	csvBatchColumns    = 7
)

// CSVReadBytes bounds what one open CSV file's reader allocates for one row,
// whatever the file (the run's memory model counts it per CSV input read at once):
// its read buffer, the row about four times over (encoding/csv's line and field
// buffers as they grow, the string made of them), and its fields, at most one a
// byte of the row, at 160 bytes each — 40 held, the rest the slices' growth and the
// header's copy; and the batch of rows it holds (the text of at most csvBatchBytes
// of them and their values). TestCSVRowBounded measures the worst rows against it.
const CSVReadBytes = csvBufferBytes + 4*maxCSVRowBytes + 160*(maxCSVRowBytes+1) +
	csvBatchBytes + maxCSVRowBytes + csvBatchRows*csvBatchColumns*csvBatchValueBytes

// errRowTooLong is what rowLimiter's Read returns at the byte that makes a row
// longer than maxCSVRowBytes; csvTable.parseError names the row.
var errRowTooLong = errors.New("ingest: CSV row too long")

// rowLimiter passes a CSV file's bytes through, and fails the read at the first
// byte of a row longer than max: the parser never holds more of one row. A row ends
// at a line break outside quotes; a quote mark toggles "inside quotes" (an escaped
// quote inside a quoted field is two of them, so the parity is exact for every
// well-formed file; a stray quote, which encoding/csv rejects, is reported by it).
type rowLimiter struct {
	r      io.Reader
	max    int
	n      int  // bytes of the current row so far
	quoted bool // inside a quoted field
	err    error
}

func (l *rowLimiter) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	if k := l.scan(p[:n]); k < n {
		l.err = errRowTooLong
		return k, l.err
	}
	return n, err
}

// scan consumes b and returns len(b), or the index of the byte that makes a row
// too long.
func (l *rowLimiter) scan(b []byte) int {
	if !l.quoted && bytes.IndexByte(b, '"') < 0 {
		// No quotes: rows are the lines. Whole rows inside b are shorter than the
		// span between its first and last line break, which a read buffer no longer
		// than max keeps within bounds; else the byte loop below decides.
		first := bytes.IndexByte(b, '\n')
		if first < 0 {
			if l.n+len(b) > l.max {
				return l.max - l.n
			}
			l.n += len(b)
			return len(b)
		}
		if l.n+first > l.max {
			return l.max - l.n
		}
		if last := bytes.LastIndexByte(b, '\n'); last-first-1 <= l.max {
			tail := len(b) - last - 1
			if tail > l.max {
				return last + 1 + l.max
			}
			l.n = tail
			return len(b)
		}
	}
	for i, c := range b {
		switch c {
		case '"':
			l.quoted = !l.quoted
		case '\n':
			if !l.quoted {
				l.n = 0
				continue
			}
		}
		if l.n++; l.n > l.max {
			return i
		}
	}
	return len(b)
}
