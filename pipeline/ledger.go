package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/graphdp/graphdp/ingest"
)

// Budget is a per-dataset privacy budget kept in an append-only ledger: every
// release spends (ε, δ) on each dataset it draws, and spending composes by basic
// composition (Dwork–Roth, Theorem 3.16): k releases of one dataset are
// (Σε, Σδ)-DP. A release that would take any dataset past (Epsilon, Delta) is
// refused. The idea is that of the budget accountants of Privacy on Beam and OpenDP.
type Budget struct {
	Ledger  string  // JSON lines, one LedgerEntry each
	Epsilon float64 // total ε a dataset may spend
	Delta   float64 // total δ a dataset may spend
}

// BudgetSlack is the relative slack of the budget comparison, so that float
// rounding of a sum (3 × 0.1 > 0.3) does not refuse a release that fits exactly.
const BudgetSlack = 1e-9

// LedgerEntry is one dataset released once.
type LedgerEntry struct {
	Dataset   string  `json:"dataset"`
	Time      string  `json:"time"` // RFC 3339, UTC
	Epsilon   float64 `json:"epsilon"`
	Delta     float64 `json:"delta"`
	ReleaseID string  `json:"release_id"` // random, shared by a release's entries (and its file's metadata)
	Mechanism string  `json:"mechanism"`  // the mechanism file's path
}

// spent is what a dataset has spent so far.
type spent struct{ eps, delta float64 }

// ledger is an open, exclusively locked ledger file.
type ledger struct {
	f    *os.File
	path string
	size int64 // the size before this release's append
}

// openLedger opens (creating) and locks the ledger, reads what every dataset spent,
// and drops an incomplete last line: the ledger is appended and fsynced before the
// release file is written, so an incomplete line is a release that never happened.
func openLedger(path string) (*ledger, map[string]spent, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	// flock: exclusive against every other release on this ledger, held until close.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("ledger %s: lock: %w", path, err)
	}
	l := &ledger{f: f, path: path}
	data, err := io.ReadAll(f)
	if err != nil {
		l.close()
		return nil, nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	complete := bytes.LastIndexByte(data, '\n') + 1
	if complete < len(data) {
		if err := f.Truncate(int64(complete)); err != nil {
			l.close()
			return nil, nil, fmt.Errorf("ledger %s: drop an incomplete last line: %w", path, err)
		}
	}
	l.size = int64(complete)
	total := map[string]spent{}
	sc := bufio.NewScanner(bytes.NewReader(data[:complete]))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e LedgerEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			l.close()
			return nil, nil, &ingest.InputError{File: path, Row: int64(line - 1), Msg: fmt.Sprintf("line %d is not a ledger entry: %v", line, err)}
		}
		s := total[e.Dataset]
		total[e.Dataset] = spent{s.eps + e.Epsilon, s.delta + e.Delta}
	}
	if err := sc.Err(); err != nil {
		l.close()
		return nil, nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	return l, total, nil
}

// appendEntries appends entries in one write and fsyncs.
func (l *ledger) appendEntries(entries []LedgerEntry) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, e := range entries {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	if _, err := l.f.WriteAt(b.Bytes(), l.size); err != nil {
		return fmt.Errorf("ledger %s: append: %w", l.path, errors.Join(err, l.rollback()))
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("ledger %s: fsync: %w", l.path, errors.Join(err, l.rollback()))
	}
	return nil
}

// rollback removes this release's entries (the release file was not written).
func (l *ledger) rollback() error {
	return errors.Join(l.f.Truncate(l.size), l.f.Sync())
}

// close unlocks (closing the descriptor releases the flock).
func (l *ledger) close() error { return l.f.Close() }

// overBudget lists the requested datasets that this release would take past the
// budget (at most max; total counts them all).
func overBudget(b Budget, have map[string]spent, ids []string, eps, delta float64, max int) (lines []string, total int) {
	for _, id := range ids {
		s := have[id]
		e, d := s.eps+eps, s.delta+delta
		if e > b.Epsilon*(1+BudgetSlack) || d > b.Delta*(1+BudgetSlack) {
			total++
			if len(lines) < max {
				lines = append(lines, fmt.Sprintf("id %s: spent ε = %g, δ = %g; this release makes ε = %g, δ = %g, over the budget ε = %g, δ = %g",
					id, s.eps, s.delta, e, d, b.Epsilon, b.Delta))
			}
		}
	}
	return lines, total
}

func nowUTC() string { return time.Now().UTC().Format(time.RFC3339Nano) }
