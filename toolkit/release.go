package toolkit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/release"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/objstore"
	"github.com/graphdp/graphdp/internal/words"
)

// ReleaseJob is one `graphdp release`: draw M(v) for the requested datasets.
type ReleaseJob struct {
	Mechanism string   // the mechanism table (run's output or any id + p_one table)
	IDsFile   string   // a table with an id column, or ""
	IDs       []string // ids given on the command line (--id), used when IDsFile is ""
	Out       string
	Columns   ingest.MechanismTableColumns // Columns.ID also names the IDs file's column
	// Stated is the (ε, δ) the operator gave. It never decides what a release
	// spends: with a ledger, a stated value must agree with what the ledger's
	// audit of the mechanism recorded (pipeline.Charged); without one, with the
	// mechanism's metadata (a CSV mechanism needs both stated).
	Stated job.Stated
	// Ledger is the privacy ledger (package ledger) the release is charged to and
	// recorded in: it must hold an audit of this very mechanism whose verdict is
	// private (docs/LEDGER.md, "What a release is charged"). "" only with NoLedger.
	Ledger string
	// NoLedger releases with no accounting here ("you account elsewhere"): nothing
	// is charged, and datasets answered deterministically are refused, since no
	// audit says they are private.
	NoLedger bool
	// BudgetEpsilon and BudgetDelta, if set, are budget figures the operator
	// expects: the ledger's own budget decides, and a release whose expectation
	// differs is refused (ledger raise is the one way to change a budget).
	BudgetEpsilon, BudgetDelta *float64
	// DryRun reads and checks everything a release does (the mechanism, the ids,
	// the ledger's audit of the mechanism, the whole ledger and the budget's fit)
	// and draws, records and writes nothing: Release returns the plan, or the
	// error, the release would (graphdp release --dry-run).
	DryRun bool
	now    func() time.Time // nil: time.Now
}

// released is what a release drew (never p or the answer); Release returns its
// document (ReleaseDoc).
type released struct {
	Rows      int
	Out       string
	ReleaseID string
	Privacy   job.Privacy
	// Audit is, with a ledger, the audit entry the release was charged by.
	Audit *ledger.AuditAt
	// Budget is the ledger's budget when a ledger recorded the release.
	Budget *ledger.Budget
	// Charged is, with a ledger, the (ε, δ) charged to each dataset: Privacy's own
	// for an (ε,δ) mechanism, the one chargeAs chose for another framework.
	Charged *job.Privacy
	// DryRun: nothing was drawn, recorded or written; ReleaseID is empty, and
	// Plan says what the release would do.
	DryRun bool
	Plan   *releasePlan
}

// releasePlan is what a dry run found: the datasets a release would draw and,
// with a ledger, what each would have spent after it.
type releasePlan struct {
	IDs []string // in the requested order
	// After is, with a ledger, each dataset's charge after this release (as IDs),
	// and Releases how many releases it had before.
	After    []ledger.Charge
	Releases []int
}

// Release draws M(v) ~ Bernoulli(p_one(v)) with an exact sampler (package release)
// for every requested id, in the requested order, and writes id and released
// atomically, never over an existing file. src is the random source: nil means
// crypto/rand. Every requested id must be in the mechanism, and at most once: a
// second independent draw of the same dataset would spend its privacy budget
// again (two releases compose to 2ε, 2δ). Nothing is written if any id is
// rejected.
//
// With a ledger, the mechanism must be one the ledger recorded an exact audit of
// (the keyed fingerprint of every byte read here), with the verdict private; the
// release is charged what that audit recorded, and is recorded — one line, one
// write, fsync — before the file is written, under the ledger's lock, and removed
// again only if the write failed before the file was renamed into place
// (sink.ErrNotPublished): a release that may have been published stays charged
// (package ledger, invariant 6).
//
// It returns the result document: what was drawn and spent, never the answers.
func Release(ctx context.Context, j ReleaseJob, src io.Reader) (*ReleaseDoc, error) {
	r, err := doRelease(ctx, j, src)
	if err != nil {
		return nil, err
	}
	return r.document(j), nil
}

func doRelease(ctx context.Context, j ReleaseJob, src io.Reader) (*released, error) {
	if j.Ledger == "" && !j.NoLedger {
		return nil, &job.ConfigError{Problems: []string{"ledger: required: a release is charged to a ledger (graphdp ledger init makes one); --no-ledger releases without one, if you account elsewhere"}}
	}
	m, err := ingest.ReadMechanismTable(ctx, j.Mechanism, j.Columns)
	if err != nil {
		return nil, err
	}
	rows, err := requestedRows(ctx, j, m)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = m.IDs.String(int(r))
	}
	if j.Ledger == "" {
		return releaseUncharged(ctx, j, m, rows, ids, src)
	}
	for i, id := range ids {
		if !ledger.ValidID(id) {
			return nil, &ingest.InputError{File: j.Mechanism, Row: int64(rows[i]), Column: m.Columns().ID, Value: words.Quote(id), Err: ingest.ErrRange,
				Msg: "not valid UTF-8: the ledger records ids as JSON text, which would change it (and then charge another id than the one released)"}
		}
	}
	if j.DryRun {
		return planRelease(j, m, ids)
	}
	return releaseCharged(ctx, j, m, rows, ids, src)
}

// releaseUncharged is a release with --no-ledger: the privacy written into the
// release file is the mechanism's metadata's (or, for CSV, what is stated), and
// datasets answered with certainty are refused (no audit says they are private).
func releaseUncharged(ctx context.Context, j ReleaseJob, m *ingest.MechanismTable, rows []int32, ids []string, src io.Reader) (*released, error) {
	priv, err := job.ResolvePrivacy(j.Mechanism, m.Metadata, j.Stated, true)
	if err != nil {
		return nil, err
	}
	if err := refuseDeterministic(j, m, rows); err != nil {
		return nil, err
	}
	if j.DryRun {
		return &released{Rows: len(ids), Out: j.Out, Privacy: priv, DryRun: true, Plan: &releasePlan{IDs: ids}}, nil
	}
	d, err := drawNew(ctx, j.Out, m, rows, src, priv)
	if err != nil {
		return nil, err
	}
	defer d.rec.Release()
	if err := sink.Write(ctx, j.Out, d.rec, d.meta); err != nil {
		return nil, err
	}
	return &released{Rows: len(rows), Out: j.Out, ReleaseID: d.id, Privacy: priv}, nil
}

// releaseCharged is a release against the ledger, under its exclusive lock: the
// mechanism's audit found, the charge fitted, the release recorded (one line,
// fsync), then the file written; the line removed again only if the file was not
// published.
func releaseCharged(ctx context.Context, j ReleaseJob, m *ingest.MechanismTable, rows []int32, ids []string, src io.Reader) (*released, error) {
	w, err := ledger.Open(j.Ledger)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	if err := sameLedger(w, j); err != nil {
		return nil, err
	}
	a, priv, err := audited(j, w.Ledger, m)
	if err != nil {
		return nil, err
	}
	charged, err := fits(j, w.Ledger, ids, priv)
	if err != nil {
		return nil, err
	}
	d, err := drawNew(ctx, j.Out, m, rows, src, priv)
	if err != nil {
		return nil, err
	}
	defer d.rec.Release()
	now := time.Now
	if j.now != nil {
		now = j.now
	}
	r := ledger.Release{ReleaseID: d.id, Mechanism: j.Mechanism, Audit: a.AuditID,
		Epsilon: charged.Epsilon, Delta: charged.Delta, Source: ledger.SourceAudit, Datasets: ids}
	if w.GDP() {
		r.Epsilon, r.Delta, r.Mu = 0, 0, priv.Pair.Mu()
	}
	if err := w.AppendRelease(r, now()); err != nil {
		return nil, err
	}
	b := w.Budget
	out := &released{Rows: len(rows), Out: j.Out, ReleaseID: d.id, Privacy: priv, Audit: &a, Budget: &b, Charged: &charged}
	if err := sink.Write(ctx, j.Out, d.rec, d.meta); err != nil {
		if errors.Is(err, sink.ErrNotPublished) {
			if rerr := w.Rollback(); rerr != nil {
				return nil, fmt.Errorf("%w; and removing the release from the ledger %s failed, so it stays charged (release id %s): %v", err, j.Ledger, d.id, rerr)
			}
			return nil, err
		}
		return nil, &publishedError{Err: err, Ledger: j.Ledger, ReleaseID: d.id}
	}
	return out, nil
}

// drawNew is draw for a release to out, which must not exist (refuseExisting).
func drawNew(ctx context.Context, out string, m *ingest.MechanismTable, rows []int32, src io.Reader, priv job.Privacy) (*drawn, error) {
	if err := refuseExisting(ctx, out); err != nil {
		return nil, err
	}
	return draw(ctx, m, rows, src, priv)
}

// drawn is a release's answers, ready to write: the table, its metadata and the
// release's random id.
type drawn struct {
	rec  arrow.RecordBatch
	meta map[string]string
	id   string
}

// draw samples each row's answer and builds the release file's table. Its
// metadata holds nothing derived from the true answers: no hash of the mechanism
// (a file that holds the answer column) nor of anything else; the privacy
// statement and a random id.
func draw(ctx context.Context, m *ingest.MechanismTable, rows []int32, src io.Reader, priv job.Privacy) (*drawn, error) {
	s := release.NewCrypto()
	if src != nil {
		s = release.New(src)
	}
	answers := make([]bool, len(rows))
	var err error
	for i, r := range rows {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if answers[i], err = s.Output(m.Exact[r]); err != nil {
			return nil, err
		}
	}
	ansType := m.AnswerType
	if ansType == nil {
		ansType = arrow.PrimitiveTypes.Int64
	}
	rec, err := pipeline.BuildRelease(m, rows, answers, ansType)
	if err != nil {
		return nil, err
	}
	id, err := newReleaseID()
	if err != nil {
		rec.Release()
		return nil, err
	}
	extra := map[string]string{
		"graphdp.release.id":      id,
		"graphdp.release.sampler": "exact Bernoulli(p_one): uniform bits from crypto/rand against the binary expansion of p_one",
	}
	meta := pipeline.OutputMetadata(priv.Epsilon, priv.Delta, nil, extra)
	if priv.Framework != ledger.Framework { // the mechanism's framework and its parameters
		meta = pipeline.Metadata(nil, priv.Pair, "", extra)
	}
	return &drawn{rec: rec, meta: meta, id: id}, nil
}

// refuseExisting refuses an output that exists, a file or an s3:// or gs://
// object: a release never replaces one (the one it would replace was drawn, and
// charged, already). Checked before any work (internal/cli, for files) and again
// here, under the ledger's lock, before the release is recorded.
func refuseExisting(ctx context.Context, out string) error {
	problem := ExistingFile(out)
	if objstore.IsURL(out) {
		f, err := objstore.Open(ctx, out)
		switch {
		case err == nil:
			f.Close()
			problem = existingOutput(out)
		case !errors.Is(err, objstore.ErrNotFound):
			return fmt.Errorf("out: %s: %w", out, err)
		}
	}
	if problem != "" {
		return &job.ConfigError{Problems: []string{problem}}
	}
	return nil
}

// ExistingFile is the problem of a release whose output is a file that exists (""
// when it is not one, or out is an object: refuseExisting asks the store).
func ExistingFile(out string) string {
	if _, err := os.Lstat(out); out == "" || objstore.IsURL(out) || err != nil {
		return ""
	}
	return existingOutput(out)
}

// existingOutput is the problem of a release whose output exists.
func existingOutput(out string) string {
	return fmt.Sprintf("out: %s exists; a release never replaces a file (its answers were drawn, and charged, already): choose another name", out)
}

// audited is the audit entry of l that proves what a release of m is charged,
// and that charge: the latest audit whose keyed fingerprint is m's, whose verdict
// is private. A mechanism the ledger has no such audit of is refused (a
// *pipeline.RejectError, exit 3), saying how to record one.
func audited(j ReleaseJob, l *ledger.Ledger, m *ingest.MechanismTable) (ledger.AuditAt, job.Privacy, error) {
	key, err := ledger.ReadKey(j.Ledger)
	var le *ledger.Error
	if err != nil && (!errors.As(err, &le) || le.Kind != ledger.ErrMissing) {
		return ledger.AuditAt{}, job.Privacy{}, err
	}
	var a ledger.AuditAt
	ok := err == nil
	if ok {
		a, ok = l.Find(key.Sum("mechanism", m.Fingerprint))
	}
	if !ok {
		return a, job.Privacy{}, &pipeline.RejectError{File: j.Mechanism, Kind: "not-audited",
			Head: fmt.Sprintf("the ledger %s holds no audit of %s as it is now (every byte of its files): a release is charged only what an exact audit proved, recorded in the ledger; record one with graphdp verify --mechanism %s --vertices V --edges E --ledger %s (or write the mechanism with graphdp run … --ledger %s); nothing written, ledger unchanged",
				j.Ledger, j.Mechanism, j.Mechanism, j.Ledger, j.Ledger)}
	}
	if !a.Private {
		return a, job.Privacy{}, &pipeline.RejectError{File: j.Mechanism, Kind: "not-private",
			Head: fmt.Sprintf("the ledger %s's audit of %s (line %d, by graphdp %s) found it not private: it is never released; nothing written, ledger unchanged", j.Ledger, j.Mechanism, a.Line, a.By)}
	}
	priv, err := pipeline.Charged(a, j.Stated)
	return a, priv, err
}

// publishedError is a release file that was renamed into place but whose write
// then failed (the folder's fsync): the file may be there, so the ledger keeps the
// release charged (exit status 1).
type publishedError struct {
	Err       error
	Ledger    string
	ReleaseID string
}

func (e *publishedError) Error() string {
	return fmt.Sprintf("%v; the release file is in place and may survive, so the ledger %s keeps it charged (release id %s)", e.Err, e.Ledger, e.ReleaseID)
}

func (e *publishedError) Unwrap() error { return e.Err }

// planRelease is a release's dry run once the ids are resolved: it reads and
// verifies the ledger whole (a shared lock, nothing written), finds the
// mechanism's audit and decides the budget's fit as the release would.
func planRelease(job ReleaseJob, m *ingest.MechanismTable, ids []string) (*released, error) {
	l, err := ledger.Read(job.Ledger)
	if err != nil {
		return nil, err
	}
	a, priv, err := audited(job, l, m)
	if err != nil {
		return nil, err
	}
	charged, err := fits(job, l, ids, priv)
	if err != nil {
		return nil, err
	}
	b := l.Budget
	out := &released{Rows: len(ids), Out: job.Out, Privacy: priv, Audit: &a, Charged: &charged, Budget: &b, DryRun: true, Plan: &releasePlan{IDs: ids}}
	p := ledger.Point{Epsilon: charged.Epsilon, Delta: charged.Delta}
	for _, id := range ids {
		a, _ := l.Account(id)
		c := l.After(id, p)
		if l.GDP() {
			c = l.AfterGDP(id, priv.Pair.Mu())
		}
		out.Plan.After = append(out.Plan.After, c)
		out.Plan.Releases = append(out.Plan.Releases, a.Releases)
	}
	return out, nil
}

// fits refuses a release the ledger l does not allow: budget figures the operator
// expects that are not the ledger's (a *job.ConfigError), or datasets it would take
// past the budget (a *RejectError).
// A mechanism of another framework is charged as the (ε, δ) chargeAs gives, which
// is returned.
func fits(j ReleaseJob, l *ledger.Ledger, ids []string, priv job.Privacy) (job.Privacy, error) {
	if l.GDP() {
		return fitsGDP(j, l, ids, priv)
	}
	var probs []string
	if j.BudgetEpsilon != nil && *j.BudgetEpsilon != l.Budget.Epsilon {
		probs = append(probs, fmt.Sprintf("budget-epsilon: %s was given, but the ledger %s has the budget ε = %s; the budget lives in the ledger (graphdp ledger raise changes it, recorded)", words.Num(*j.BudgetEpsilon), j.Ledger, words.Num(l.Budget.Epsilon)))
	}
	if j.BudgetDelta != nil && *j.BudgetDelta != l.Budget.Delta {
		probs = append(probs, fmt.Sprintf("budget-delta: %s was given, but the ledger %s has the budget δ = %s; the budget lives in the ledger (graphdp ledger raise changes it, recorded)", words.Num(*j.BudgetDelta), j.Ledger, words.Num(l.Budget.Delta)))
	}
	if len(probs) > 0 {
		return priv, &job.ConfigError{Problems: probs}
	}
	priv, err := chargeAs(l, ids, priv)
	if err != nil {
		return priv, err
	}
	p := ledger.Point{Epsilon: priv.Epsilon, Delta: priv.Delta}
	over, total := l.Check(ids, p, 10)
	if total > 0 {
		var lines []string
		for _, o := range over {
			// Spent figures are shown rounded up (words.Up): never less than spent.
			lines = append(lines, fmt.Sprintf("id %s: %s so far spent ε = %s, δ = %s; with this release ε = %s, δ = %s (%s)",
				words.Quote(o.ID), words.Count(int64(o.Releases), "release", "releases"), words.Up(o.Before.Epsilon), words.Up(o.Before.Delta), words.Up(o.After.Epsilon), words.Up(o.After.Delta), composition(o.After)))
		}
		return priv, &pipeline.RejectError{File: j.Ledger, Kind: "over-budget", Total: int64(total), Lines: lines,
			Head: fmt.Sprintf("this release (ε = %s, δ = %s per dataset, from %s) would take %d of %d requested datasets past the budget ε = %s, δ = %s; nothing written, ledger unchanged",
				words.Up(priv.Epsilon), words.Up(priv.Delta), sourceWords(priv.Source), total, len(ids), words.Num(l.Budget.Epsilon), words.Num(l.Budget.Delta))}
	}
	return priv, nil
}

// composition names the accounting of a charge.
func composition(c ledger.Charge) string {
	if c.Method == ledger.MethodOptimal {
		return "optimal composition of equal releases, at the budget's δ"
	}
	return "basic composition: sums of ε and of δ"
}

func sourceWords(source string) string {
	switch source {
	case ledger.SourceAudit:
		return "the ledger's audit of the mechanism"
	case ledger.SourceMetadata:
		return "the mechanism's metadata"
	}
	return "the values given"
}

// sameLedger refuses a ledger that is also the release's mechanism, ids file or
// output (compared as the open file: device and inode, links followed), under
// its lock.
func sameLedger(w *ledger.Writer, j ReleaseJob) error {
	li, err := w.Stat()
	if err != nil {
		return err
	}
	for _, f := range []struct{ key, path string }{{"out", j.Out}, {"mechanism", j.Mechanism}, {"ids", j.IDsFile}} {
		if f.path == "" {
			continue
		}
		if fi, err := os.Stat(f.path); err == nil && os.SameFile(li, fi) {
			return &job.ConfigError{Problems: []string{fmt.Sprintf("ledger: %s is the same file as the %s %s; the ledger must be a file of its own", j.Ledger, f.key, f.path)}}
		}
	}
	return nil
}

// refuseDeterministic rejects requested datasets with p_one exactly 0 or 1: their
// release is their true answer (or its negation), with no privacy at all. The
// message names them (escaped) and never says which of 0 and 1 they are: that
// would publish the very answer the refusal protects.
func refuseDeterministic(job ReleaseJob, m *ingest.MechanismTable, rows []int32) error {
	var lines []string
	total := 0
	for _, r := range rows {
		if p := m.POne[r]; p == 0 || p == 1 {
			total++
			if len(lines) < 10 {
				lines = append(lines, "id "+words.Quote(m.IDs.String(int(r)))+": answered deterministically")
			}
		}
	}
	if total == 0 {
		return nil
	}
	return &pipeline.RejectError{File: job.Mechanism, Kind: "deterministic", Total: int64(total), Lines: lines,
		Head: fmt.Sprintf("%d requested datasets are answered deterministically (p_one is 0 or 1): each draw of theirs is the same answer, which is private only if their neighbours' p_one make it so; without a ledger no audit says they are, so they are refused; nothing written (release with --ledger, in which graphdp run or graphdp verify recorded the mechanism's audit: a private mechanism's datasets are all released)", total)}
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
