package ingest

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"errors"
	"fmt"
	"hash"
	"io"
	"strconv"
	"strings"
)

// csvTable is an open CSV file with a header row. The file's bytes are
// hashed as the parser reads them, so the fingerprint costs no second pass.
type csvTable struct {
	path   string
	f      io.Closer
	rest   io.Reader // the file's bytes the parser has not read
	hash   hash.Hash
	r      *csv.Reader
	header []string
	rows   int64 // data rows returned so far
}

// openCSV opens path (through open) and reads its header, splitting fields as ctx
// says for the file (delimiter.go).
func openCSV(ctx context.Context, open Opener, path string) (*csvTable, error) {
	f, err := open.Open(ctx, path)
	if err != nil {
		return nil, openError(path, err)
	}
	rest := io.NewSectionReader(f, 0, f.Size())
	t := &csvTable{path: path, f: f, rest: rest, hash: sha256.New()}
	t.r = csv.NewReader(bufio.NewReaderSize(&rowLimiter{r: io.TeeReader(rest, t.hash), max: maxCSVRowBytes}, csvBufferBytes))
	t.r.ReuseRecord = true
	t.r.Comma = delimiterOf(ctx, path)
	hdr, err := t.r.Read()
	if err == io.EOF {
		f.Close()
		return nil, fileError(path, ErrUnreadable, "empty file (a header row is required)")
	}
	if err != nil {
		f.Close()
		return nil, t.parseError(err, 0)
	}
	t.header = append([]string(nil), hdr...)
	if len(t.header) > 0 {
		// A UTF-8 byte order mark (spreadsheet exports) is not part of the name.
		t.header[0] = strings.TrimPrefix(t.header[0], "\ufeff")
	}
	return t, nil
}

func (t *csvTable) close() { t.f.Close() }

// column returns the index of the header field named exactly name; a name the
// header holds twice is refused (which one was meant cannot be known).
func (t *csvTable) column(name string) (int, error) {
	at, n := -1, 0
	for i, h := range t.header {
		if h == name {
			if n == 0 {
				at = i
			}
			n++
		}
	}
	switch {
	case n > 1:
		return -1, columnError(t.path, ErrDuplicateColumn, name, msgDuplicateColumn(n))
	case n == 1:
		return at, nil
	}
	e := missingColumn(t.path, name, t.header)
	if h := headerHint(t.path, t.header, t.r.Comma); h != "" {
		e.Hint = h
	}
	return -1, e
}

// next returns the next data record (valid until the following call) and
// its 0-based row, or io.EOF after the last one.
func (t *csvTable) next() ([]string, int64, error) {
	rec, err := t.r.Read()
	if err != nil {
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		return nil, 0, t.parseError(err, len(rec))
	}
	row := t.rows
	t.rows++
	return rec, row, nil
}

// fingerprint drains what the parser has not read and returns the digest of
// the whole file.
func (t *csvTable) fingerprint() (string, error) {
	if _, err := io.Copy(t.hash, t.rest); err != nil {
		return "", fileError(t.path, ErrUnreadable, "read error: "+err.Error())
	}
	return hexSum(t.hash), nil
}

// parseError converts an encoding/csv error into an InputError at the row
// being read, with the file line in the message. nfields is the length of
// the record encoding/csv returned with err (it does for a field count error).
func (t *csvTable) parseError(err error, nfields int) error {
	if errors.Is(err, errRowTooLong) {
		e := &InputError{File: t.path, Row: t.rows, Err: ErrRowSize,
			Msg: fmt.Sprintf("longer than %d bytes (64 KiB), the most a CSV row may hold (a graphdp table has a few short columns); nothing read", maxCSVRowBytes)}
		if t.header == nil {
			e.Row, e.Msg = -1, "header row "+e.Msg
		}
		return e
	}
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fileError(t.path, ErrUnreadable, "read error: "+err.Error())
	}
	e := &InputError{File: t.path, Row: t.rows, Err: ErrUnreadable}
	if t.header == nil {
		e.Row = -1 // the header itself
	}
	switch {
	case errors.Is(pe.Err, csv.ErrFieldCount):
		e.Msg = fmt.Sprintf("line %d: %d fields, but the header has %d", pe.Line, nfields, len(t.header))
	default:
		e.Msg = fmt.Sprintf("line %d, column %d: %v", pe.Line, pe.Column, pe.Err)
	}
	return e
}

// ParseNumber reads a number as graphdp reads every number a person types (CSV
// fields, flags, config files): strconv.ParseFloat's decimal and hex forms, but no
// digit-separating underscores, which ParseFloat accepts (it reads "0_5" as 5, where
// the person most likely meant 0.5).
func ParseNumber(s string) (float64, error) {
	if strings.Contains(s, "_") {
		return 0, &strconv.NumError{Func: "ParseNumber", Num: s, Err: strconv.ErrSyntax}
	}
	return strconv.ParseFloat(s, 64)
}

// ParseID reads an integer id written as text (a CSV field, a flag) in canonical
// decimal, the one spelling that reads back to the same text: digits with an
// optional leading '-', no '+', no leading zeros ("0" but not "00" or "-0"), within
// int64. Any other spelling is not an integer id: a CSV id column is integer-typed
// only when every id is canonical, else every id is kept as the string it is, so
// "007" stays "007" and "1" and "01" are two datasets (doc.go).
func ParseID(s string) (int64, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || digits[0] == '0' && len(s) > 1 {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	x, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return x, true
}
