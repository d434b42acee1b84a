package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/release"
	"github.com/graphdp/graphdp/sink"
)

// ReleaseJob is one `graphdp release`: draw M(v) for the requested datasets.
type ReleaseJob struct {
	Mechanism string   // the mechanism table (run's output or any id + p_one table)
	IDsFile   string   // a table with an id column, or ""
	IDs       []string // ids given on the command line (--id), used when IDsFile is ""
	Out       string
	Columns   ingest.MechanismTableColumns // Columns.ID also names the IDs file's column
	// Epsilon and Delta are the mechanism's (ε, δ): what the release spends on every
	// dataset it draws, written to the file's metadata and the ledger.
	Epsilon, Delta float64
	// AllowDeterministic releases datasets with p_one exactly 0 or 1 (their true
	// answer, no privacy); without it such a request is refused.
	AllowDeterministic bool
	// Budget, if its Ledger is set, records the release and refuses one that would
	// take a dataset past the budget (basic composition).
	Budget Budget
}

// Released is what a release drew, for the caller's summary (never p or the answer).
type Released struct {
	Rows      int
	Out       string
	ReleaseID string
}

// ReleaseSchema is release's output: the requested id and the drawn answer, in the
// mechanism's answer type (Int64 when the table has no answer column).
func ReleaseSchema(idType, answerType arrow.DataType) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: idType},
		{Name: "released", Type: answerType},
	}, nil)
}

// Release draws M(v) ~ Bernoulli(p_one(v)) with an exact sampler (package release)
// for every requested id, in the requested order, and writes id and released
// atomically. src is the random source: nil means crypto/rand. Every requested id
// must be in the mechanism, and at most once: a second independent draw of the same
// dataset would spend its privacy budget again (two releases compose to 2ε, 2δ).
// Nothing is written if any id is rejected.
func Release(ctx context.Context, job ReleaseJob, src io.Reader) (*Released, error) {
	m, err := ingest.ReadMechanismTable(ctx, job.Mechanism, job.Columns)
	if err != nil {
		return nil, err
	}
	rows, err := requestedRows(ctx, job, m)
	if err != nil {
		return nil, err
	}
	if !job.AllowDeterministic {
		if err := refuseDeterministic(job, m, rows); err != nil {
			return nil, err
		}
	}
	s := release.NewCrypto()
	if src != nil {
		s = release.New(src)
	}
	drawn := make([]bool, len(rows))
	for i, r := range rows {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if drawn[i], err = s.Bernoulli(m.POne[r]); err != nil {
			return nil, err
		}
	}
	ansType := m.AnswerType
	if ansType == nil {
		ansType = arrow.PrimitiveTypes.Int64
	}
	rec, err := releaseRecord(m, rows, drawn, ansType)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	id, err := newReleaseID()
	if err != nil {
		return nil, err
	}
	// Nothing derived from the true answers: no hash of the mechanism (a file that
	// holds the answer column) nor of anything else; ε, δ and a random id.
	meta := OutputMetadata(job.Epsilon, job.Delta, nil, map[string]string{
		"graphdp.release.id":      id,
		"graphdp.release.sampler": "exact Bernoulli(p_one): uniform bits from crypto/rand against the binary expansion of p_one",
	})
	if job.Budget.Ledger != "" {
		led, err := spend(job, m, rows, id)
		if err != nil {
			return nil, err
		}
		defer led.close()
		if err := sink.Write(ctx, job.Out, rec, meta); err != nil {
			return nil, errors.Join(err, led.rollback())
		}
		return &Released{Rows: len(rows), Out: job.Out, ReleaseID: id}, nil
	}
	if err := sink.Write(ctx, job.Out, rec, meta); err != nil {
		return nil, err
	}
	return &Released{Rows: len(rows), Out: job.Out, ReleaseID: id}, nil
}

// spend locks the ledger, refuses a release past the budget (a *RejectError,
// ledger unchanged) and otherwise records it, durably, before the file is written:
// the returned ledger stays locked until the caller closes it.
func spend(job ReleaseJob, m *ingest.MechanismTable, rows []int32, id string) (*ledger, error) {
	led, have, err := openLedger(job.Budget.Ledger)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = m.IDs.String(int(r))
	}
	lines, total := overBudget(job.Budget, have, ids, job.Epsilon, job.Delta, 10)
	if total > 0 {
		led.close()
		return nil, &RejectError{File: job.Budget.Ledger, Kind: "over-budget", Total: int64(total), Lines: lines,
			Head: fmt.Sprintf("this release (ε = %g, δ = %g per dataset) would take %d of %d requested datasets past the budget ε = %g, δ = %g (basic composition: sums of ε and of δ); nothing written, ledger unchanged",
				job.Epsilon, job.Delta, total, len(ids), job.Budget.Epsilon, job.Budget.Delta)}
	}
	now := nowUTC()
	entries := make([]LedgerEntry, len(ids))
	for i, d := range ids {
		entries[i] = LedgerEntry{Dataset: d, Time: now, Epsilon: job.Epsilon, Delta: job.Delta, ReleaseID: id, Mechanism: job.Mechanism}
	}
	if err := led.appendEntries(entries); err != nil {
		led.close()
		return nil, err
	}
	return led, nil
}

// refuseDeterministic rejects requested datasets with p_one exactly 0 or 1: their
// release is their true answer (or its negation), with no privacy at all.
func refuseDeterministic(job ReleaseJob, m *ingest.MechanismTable, rows []int32) error {
	var lines []string
	total := 0
	for _, r := range rows {
		if p := m.POne[r]; p == 0 || p == 1 {
			total++
			if len(lines) < 10 {
				lines = append(lines, fmt.Sprintf("id %s: p_one = %g, so M(%s) = %d on every draw", m.IDs.String(int(r)), p, m.IDs.String(int(r)), int(p)))
			}
		}
	}
	if total == 0 {
		return nil
	}
	return &RejectError{File: job.Mechanism, Kind: "deterministic", Total: int64(total), Lines: lines,
		Head: fmt.Sprintf("%d requested datasets are answered deterministically (p_one = 0 or 1): releasing them publishes a fixed function of the true answer, with no privacy; nothing written (give --allow-deterministic to release them anyway)", total)}
}

// newReleaseID is 128 random bits in hex: it identifies a release without being
// derived from any data.
func newReleaseID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("release id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// requestedRows resolves the requested ids to mechanism rows, rejecting unknown and
// repeated ids with their position (file row, or the n-th --id).
func requestedRows(ctx context.Context, job ReleaseJob, m *ingest.MechanismTable) ([]int32, error) {
	first := make(map[int32]int, 16) // mechanism row -> first request index
	repeated := func(r int32, i int) (int, bool) {
		if j, ok := first[r]; ok {
			return j, true
		}
		first[r] = i
		return 0, false
	}
	const whyOnce = "each dataset is released at most once per request (a second draw spends its privacy budget again)"
	if job.IDsFile != "" {
		l, err := ingest.ReadIDList(ctx, job.IDsFile, ingest.Columns{ID: job.Columns.ID}, m.AsVertices())
		if err != nil {
			return nil, err
		}
		for i, r := range l.Vertex {
			if j, dup := repeated(r, i); dup {
				id := m.IDs.String(int(r))
				return nil, &ingest.InputError{File: job.IDsFile, Row: int64(i), Column: job.Columns.ID, Value: id, Err: ingest.ErrDuplicateID,
					Msg: fmt.Sprintf("requested again (first at row %d): %s", j+1, whyOnce)}
			}
		}
		return l.Vertex, nil
	}
	rows := make([]int32, len(job.IDs))
	for i, id := range job.IDs {
		r, ok := m.Lookup(id)
		if !ok {
			return nil, &ingest.InputError{File: "--id", Row: -1, Value: id, Err: ingest.ErrUnknownID,
				Msg: fmt.Sprintf("--id number %d: not a dataset id (no such id in %s)", i+1, job.Mechanism)}
		}
		if j, dup := repeated(r, i); dup {
			return nil, &ingest.InputError{File: "--id", Row: -1, Value: id, Err: ingest.ErrDuplicateID,
				Msg: fmt.Sprintf("given again (--id number %d and %d): %s", j+1, i+1, whyOnce)}
		}
		rows[i] = r
	}
	return rows, nil
}

func releaseRecord(m *ingest.MechanismTable, rows []int32, drawn []bool, ansType arrow.DataType) (arrow.RecordBatch, error) {
	if rows == nil {
		rows = []int32{} // appendIDs reads nil as "every id"
	}
	b := array.NewRecordBuilder(memory.NewGoAllocator(), ReleaseSchema(m.IDType, ansType))
	defer b.Release()
	b.Reserve(len(rows))
	if err := appendIDs(b.Field(0), m.IDs, rows); err != nil {
		return nil, err
	}
	if err := appendAnswers(b.Field(1), drawn); err != nil {
		return nil, err
	}
	return b.NewRecordBatch(), nil
}
