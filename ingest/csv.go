package ingest

import (
	"bufio"
	"crypto/sha256"
	"encoding/csv"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"
)

// csvTable is an open CSV file with a header row. The file's bytes are
// hashed as the parser reads them, so the fingerprint costs no second pass.
type csvTable struct {
	path   string
	f      *os.File
	hash   hash.Hash
	r      *csv.Reader
	header []string
	rows   int64 // data rows returned so far
}

func openCSV(path string) (*csvTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, openError(path, err)
	}
	t := &csvTable{path: path, f: f, hash: sha256.New()}
	t.r = csv.NewReader(bufio.NewReaderSize(io.TeeReader(f, t.hash), 1<<20))
	t.r.ReuseRecord = true
	hdr, err := t.r.Read()
	if err == io.EOF {
		f.Close()
		return nil, fileError(path, "empty file (a header row is required)")
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

// column returns the index of the first header field named exactly name.
func (t *csvTable) column(name string) (int, error) {
	for i, h := range t.header {
		if h == name {
			return i, nil
		}
	}
	return -1, columnError(t.path, name, msgMissingColumn(t.header))
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
	if _, err := io.Copy(t.hash, t.f); err != nil {
		return "", fileError(t.path, "read error: "+err.Error())
	}
	return hexSum(t.hash), nil
}

// parseError converts an encoding/csv error into an InputError at the row
// being read, with the file line in the message. nfields is the length of
// the record encoding/csv returned with err (it does for a field count error).
func (t *csvTable) parseError(err error, nfields int) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fileError(t.path, "read error: "+err.Error())
	}
	e := &InputError{File: t.path, Row: t.rows}
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
