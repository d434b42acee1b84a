package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// ErrorKind says what is wrong with a ledger, and so the exit status (the CLI maps
// ErrMissing, ErrExists and ErrUsage to 2, the others to 3).
type ErrorKind int

const (
	ErrBroken     ErrorKind = iota // a line fails verification
	ErrNotLedger                   // the file is not a graphdp ledger at all (line 1, or empty)
	ErrIncomplete                  // only the last line is bad, and it lacks its newline
	ErrMissing                     // no such file: ledger init first
	ErrExists                      // init over an existing file
	ErrUsage                       // a raise that lowers, a missing reason, a bad budget
)

// Error is a ledger that cannot be used, or a ledger command refused. Line > 0
// names the first line that fails verification.
type Error struct {
	File string
	Line int
	Kind ErrorKind
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("ledger %s: line %d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("ledger %s: %s", e.File, e.Msg)
}

// Usage reports whether the error is the operator's request (exit status 2) rather
// than the file's content (exit status 3).
func (e *Error) Usage() bool {
	return e.Kind == ErrMissing || e.Kind == ErrExists || e.Kind == ErrUsage
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
