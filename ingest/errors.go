package ingest

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"syscall"

	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/words"
)

// InputError is bad input with a position, like encoding/csv's ParseError. Every
// user-caused failure of the readers is (or wraps) an *InputError: test for it with
// errors.As, and for its kind with errors.Is against the Err… sentinels below (Err
// is one of them; Msg says the same thing in words, for people).
//
// Row is the 0-based data row within the file (for CSV the header is not
// counted), or -1 when the error is not about one row. Error() prints it
// 1-based, "row N" meaning the N-th data row, because that is what a person
// counting rows in a spreadsheet or `head` expects.
type InputError struct {
	File   string
	Row    int64  // 0-based data row; -1 if not about a row
	Column string // "" if not about a column
	Value  string // offending value as text, "" if none
	Err    error  // the kind: one of the sentinels below (every reader here sets it)
	Msg    string // what is wrong / what was expected
	// Hint, if set, is a likely fix, printed after Msg: a column named Near (the
	// same name but for case) for a missing column, or the delimiter a CSV header
	// seems to use.
	Hint string
	Near string
}

// The kinds of bad input, for errors.Is. They are not printed: Msg is.
var (
	ErrUnreadable      = errors.New("unreadable file")                 // cannot open or read (but ErrMissing, ErrAccess), not valid Parquet/CSV, a Parquet page whose checksum fails
	ErrSize            = errors.New("wrong number of rows")            // no rows, or more than the int32 positions allow
	ErrRowSize         = errors.New("row too long")                    // a CSV row longer than maxCSVRowBytes
	ErrMissingColumn   = errors.New("missing column")                  // a required column is absent
	ErrDuplicateColumn = errors.New("duplicate column")                // a required column's name is given to several columns
	ErrColumnType      = errors.New("wrong column type")               // a column of a type that cannot hold the values
	ErrNull            = errors.New("missing value")                   // null, or an empty CSV field
	ErrNotANumber      = errors.New("not a number")                    // a CSV field that does not parse
	ErrRange           = errors.New("value out of range")              // NaN, a probability outside [0, 1], an answer not 0/1, …
	ErrUnknownID       = errors.New("unknown id")                      // an id that is not a dataset
	ErrDuplicateID     = errors.New("duplicate id")                    // an id given twice
	ErrInconsistent    = errors.New("inconsistent with another input") // disagrees with the vertices file

	// The kinds found from the paths alone, before any row is read (CheckTable): the
	// request names no readable table, whatever the files hold.
	ErrMissing = errors.New("no such input")       // no such file, folder, object or bucket; a glob, folder or prefix naming no table file
	ErrAccess  = errors.New("not allowed to read") // permission denied, a store's refusal (403), no credentials
	ErrPath    = errors.New("not a table's path")  // an extension other than .parquet, .csv, .tsv; formats mixed in one table; a file named twice; a malformed glob or URL
)

// Unwrap returns the kind, so errors.Is(err, ingest.ErrUnknownID) works.
func (e *InputError) Unwrap() error { return e.Err }

// Error formats the error as `FILE: row R, column "C": value V: MSG`,
// omitting the parts that are empty (Row -1, Column "", Value "").
// R is Row+1. V is printed verbatim unless it is empty of printable
// characters or contains spaces, quotes or control characters, in which case
// it is Go-quoted; values longer than 80 bytes are cut with "...".
func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	sep := ": "
	if e.Row >= 0 {
		b.WriteString(sep)
		b.WriteString("row ")
		b.WriteString(strconv.FormatInt(e.Row+1, 10))
		sep = ", "
	}
	if e.Column != "" {
		b.WriteString(sep)
		b.WriteString("column ")
		b.WriteString(strconv.Quote(e.Column))
	}
	if e.Value != "" {
		b.WriteString(": value ")
		b.WriteString(formatValue(e.Value))
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// formatValue prints v for a message: verbatim when that is unambiguous, quoted
// otherwise (no control character reaches the terminal), shortened when long.
func formatValue(v string) string { return words.Quote(v) }

// fileError is an InputError about the file as a whole.
func fileError(file string, kind error, msg string) *InputError {
	return &InputError{File: file, Row: -1, Err: kind, Msg: msg}
}

// openError turns a failure to open or list path (the file system's, or an object
// store's) into an InputError carrying its text, of kind ErrMissing when there is
// no such file, object or bucket, ErrAccess when this process may not read it, else
// ErrUnreadable.
func openError(path string, err error) error {
	kind := ErrUnreadable
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR), errors.Is(err, objstore.ErrNotFound):
		kind = ErrMissing
	case errors.Is(err, fs.ErrPermission), errors.Is(err, objstore.ErrDenied):
		kind = ErrAccess // objstore.ErrNoCredentials too
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fileError(path, kind, "cannot open: "+err.Error())
}

// columnError is an InputError about a column as a whole.
func columnError(file string, kind error, column, msg string) *InputError {
	return &InputError{File: file, Row: -1, Column: column, Err: kind, Msg: msg}
}

// cellError is an InputError about one value.
func cellError(file string, kind error, row int64, column, value, msg string) *InputError {
	return &InputError{File: file, Row: row, Column: column, Value: value, Err: kind, Msg: msg}
}

// Messages shared by the Parquet and CSV paths, so both say the same thing.
const (
	msgNull = "missing value (null)"
)

func msgUnknownID(verticesFile string) string {
	return "not a vertex id (no such id in " + verticesFile + ")"
}

func msgDuplicate(value string, firstRow int64) string {
	return "duplicate id " + formatValue(value) + " (first at row " + strconv.FormatInt(firstRow+1, 10) + ")"
}

func msgDuplicateColumn(n int) string {
	return strconv.Itoa(n) + " columns have this name; which one holds the values is ambiguous (rename or drop the others)"
}

func msgMissingColumn(present []string) string {
	names := make([]string, len(present))
	for i, p := range present {
		names[i] = words.Quote(p) // a header is data: no control character reaches the terminal
	}
	return "missing (columns present: " + strings.Join(names, ", ") + ")"
}
