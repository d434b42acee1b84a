package ledger

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzLedger feeds Parse arbitrary bytes. It must never panic; it returns either a
// ledger or an *Error naming a line within the file; and a ledger it accepts
// re-verifies line for line: every line's hash is the chain's, the head is the
// last line's, and no release takes a dataset past the budget. The corpus under
// testdata/fuzz/FuzzLedger holds a real ledger, tampered ones and non-ledgers;
// plain go test replays it.
func FuzzLedger(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte("id,answer\n1,0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse("F", data)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("not an *Error: %v", err)
			}
			if n := bytes.Count(data, []byte("\n")) + 1; le.Line < 0 || le.Line > n {
				t.Fatalf("line %d of a %d-line file", le.Line, n)
			}
			return
		}
		if l.Lines < 1 || len(l.hashes) != l.Lines || l.Head != l.hashes[l.Lines-1] || l.Header.Kind != KindBudget {
			t.Fatalf("accepted ledger: %d lines, %d hashes", l.Lines, len(l.hashes))
		}
		for _, a := range l.Accounts() {
			if !a.Spent.Fits(l.Budget) {
				t.Fatalf("accepted a ledger with %s over the budget: %+v", a.ID, a)
			}
		}
	})
}
