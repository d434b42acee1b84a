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
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/pipeline"
	"github.com/graphdp/graphdp/release"
	"github.com/graphdp/graphdp/sink"

	"github.com/graphdp/graphdp/internal/words"
)

// ReleaseJob is one `graphdp release`: draw M(v) for the requested datasets.
type ReleaseJob struct {
	Mechanism string   // the mechanism table (run's output or any id + p_one table)
	IDsFile   string   // a table with an id column, or ""
	IDs       []string // ids given on the command line (--id), used when IDsFile is ""
	Out       string
	Columns   ingest.MechanismTableColumns // Columns.ID also names the IDs file's column
	// Stated is the (ε, δ) the operator gave. The mechanism's own metadata decides
	// what the release spends (resolvePrivacy): a stated value must agree with it,
	// and a mechanism without metadata (CSV) needs both stated.
	Stated pipeline.Stated
	// AllowDeterministic releases datasets with p_one exactly 0 or 1 (their true
	// answer, no privacy); without it such a request is refused.
	AllowDeterministic bool
	// Ledger, if set, is the privacy ledger (package ledger) the release is
	// recorded in, and refused by when it would take a dataset past its budget.
	Ledger string
	// BudgetEpsilon and BudgetDelta, if set, are budget figures the operator
	// expects: the ledger's own budget decides, and a release whose expectation
	// differs is refused (ledger raise is the one way to change a budget).
	BudgetEpsilon, BudgetDelta *float64
	// DryRun reads and checks everything a release does (the mechanism, the ids,
	// the deterministic refusal, the whole ledger and the budget's fit) and draws,
	// records and writes nothing: Release returns the plan, or the error, the
	// release would (graphdp release --dry-run).
	DryRun bool
	now    func() time.Time // nil: time.Now
}

// Released is what a release drew, for the caller's summary (never p or the answer).
type Released struct {
	Rows      int
	Out       string
	ReleaseID string
	Privacy   pipeline.Privacy
	// Budget is the ledger's budget when a ledger recorded the release.
	Budget *ledger.Budget
	// Charged is, with a ledger, the (ε, δ) charged to each dataset: Privacy's own
	// for an (ε,δ) mechanism, the one chargeAs chose for another framework.
	Charged *pipeline.Privacy
	// DryRun: nothing was drawn, recorded or written; ReleaseID is empty, and
	// Plan says what the release would do.
	DryRun bool
	Plan   *ReleasePlan
}

// ReleasePlan is what a dry run found: the datasets a release would draw and,
// with a ledger, what each would have spent after it.
type ReleasePlan struct {
	IDs []string // in the requested order
	// After is, with a ledger, each dataset's charge after this release (as IDs),
	// and Releases how many releases it had before.
	After    []ledger.Charge
	Releases []int
}

// Release draws M(v) ~ Bernoulli(p_one(v)) with an exact sampler (package release)
// for every requested id, in the requested order, and writes id and released
// atomically. src is the random source: nil means crypto/rand. Every requested id
// must be in the mechanism, and at most once: a second independent draw of the same
// dataset would spend its privacy budget again (two releases compose to 2ε, 2δ).
// Nothing is written if any id is rejected.
//
// With a ledger, the release is recorded — one line, one write, fsync — before the
// file is written, under the ledger's lock, and removed again only if the write
// failed before the file was renamed into place (sink.ErrNotPublished): a release
// that may have been published stays charged (package ledger, invariant 6).
func Release(ctx context.Context, job ReleaseJob, src io.Reader) (*Released, error) {
	m, err := ingest.ReadMechanismTable(ctx, job.Mechanism, job.Columns)
	if err != nil {
		return nil, err
	}
	priv, err := pipeline.ResolvePrivacy(job.Mechanism, m.Metadata, job.Stated, true)
	if err != nil {
		return nil, err
	}
	if job.Ledger != "" && priv.Source == ledger.SourceStated && priv.Epsilon == 0 && priv.Delta == 0 {
		return nil, &pipeline.ConfigError{Problems: []string{fmt.Sprintf("epsilon and delta: 0 and 0 were given for %s, which has no metadata: the ledger would record this release as free. A mechanism that truly spends nothing (ε = 0, δ = 0) is one graphdp run wrote, with its metadata: release that file", job.Mechanism)}}
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
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = m.IDs.String(int(r))
	}
	if job.Ledger != "" {
		for i, id := range ids {
			if !ledger.ValidID(id) {
				return nil, &ingest.InputError{File: job.Mechanism, Row: int64(rows[i]), Column: job.Columns.ID, Value: words.Quote(id), Err: ingest.ErrRange,
					Msg: "not valid UTF-8: the ledger records ids as JSON text, which would change it (and then charge another id than the one released)"}
			}
		}
	}
	if job.DryRun {
		return planRelease(job, ids, priv)
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
	rec, err := pipeline.BuildRelease(m, rows, drawn, ansType)
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
	extra := map[string]string{
		"graphdp.release.id":      id,
		"graphdp.release.sampler": "exact Bernoulli(p_one): uniform bits from crypto/rand against the binary expansion of p_one",
	}
	meta := pipeline.OutputMetadata(priv.Epsilon, priv.Delta, nil, extra)
	if priv.Framework != ledger.Framework { // the mechanism's framework and its parameters
		meta = (*pipeline.Loaded)(nil).Metadata(priv.Pair, "", extra)
	}
	out := &Released{Rows: len(rows), Out: job.Out, ReleaseID: id, Privacy: priv}
	if job.Ledger == "" {
		if err := sink.Write(ctx, job.Out, rec, meta); err != nil {
			return nil, err
		}
		return out, nil
	}
	w, charged, err := spend(job, m, ids, id, priv)
	if err != nil {
		return nil, err
	}
	out.Charged = &charged
	defer w.Close()
	b := w.Budget
	out.Budget = &b
	if err := sink.Write(ctx, job.Out, rec, meta); err != nil {
		if errors.Is(err, sink.ErrNotPublished) {
			if rerr := w.Rollback(); rerr != nil {
				return nil, fmt.Errorf("%w; and removing the release from the ledger %s failed, so it stays charged (release id %s): %v", err, job.Ledger, id, rerr)
			}
			return nil, err
		}
		return nil, &publishedError{Err: err, Ledger: job.Ledger, ReleaseID: id}
	}
	return out, nil
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

// spend locks the ledger, verifies it whole, refuses a release past its budget (a
// *RejectError, ledger unchanged) and otherwise records it, durably, before the
// file is written: the returned writer stays locked until the caller closes it.
func spend(job ReleaseJob, m *ingest.MechanismTable, ids []string, id string, priv pipeline.Privacy) (*ledger.Writer, pipeline.Privacy, error) {
	w, err := ledger.Open(job.Ledger)
	if err != nil {
		return nil, priv, err
	}
	fail := func(err error) (*ledger.Writer, pipeline.Privacy, error) { w.Close(); return nil, priv, err }
	li, err := w.Stat()
	if err != nil {
		return fail(err)
	}
	if err := sameFiles(li, job); err != nil {
		return fail(err)
	}
	if priv, err = fits(job, w.Ledger, ids, priv); err != nil {
		return fail(err)
	}
	now := time.Now
	if job.now != nil {
		now = job.now
	}
	r := ledger.Release{ReleaseID: id, Mechanism: job.Mechanism, MechanismSHA256: m.Fingerprint,
		Epsilon: priv.Epsilon, Delta: priv.Delta, Source: priv.Source, Datasets: ids}
	if w.GDP() {
		r.Epsilon, r.Delta, r.Mu = 0, 0, priv.Pair.Mu()
	}
	if err := w.AppendRelease(r, now()); err != nil {
		return fail(err)
	}
	return w, priv, nil
}

// planRelease is a release's dry run once the ids are resolved: with a ledger,
// it reads and verifies it whole (a shared lock, nothing written) and decides the
// budget's fit as the release would.
func planRelease(job ReleaseJob, ids []string, priv pipeline.Privacy) (*Released, error) {
	out := &Released{Rows: len(ids), Out: job.Out, Privacy: priv, DryRun: true, Plan: &ReleasePlan{IDs: ids}}
	if job.Ledger == "" {
		return out, nil
	}
	l, err := ledger.Read(job.Ledger)
	if err != nil {
		return nil, err
	}
	li, err := os.Stat(job.Ledger)
	if err != nil {
		return nil, err
	}
	if err := sameFiles(li, job); err != nil {
		return nil, err
	}
	if priv, err = fits(job, l, ids, priv); err != nil {
		return nil, err
	}
	out.Charged = &priv
	b := l.Budget
	out.Budget = &b
	p := ledger.Point{Epsilon: priv.Epsilon, Delta: priv.Delta}
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
// expects that are not the ledger's (a *ConfigError), or datasets it would take
// past the budget (a *RejectError).
// A mechanism of another framework is charged as the (ε, δ) chargeAs gives, which
// is returned.
func fits(job ReleaseJob, l *ledger.Ledger, ids []string, priv pipeline.Privacy) (pipeline.Privacy, error) {
	if l.GDP() {
		return fitsGDP(job, l, ids, priv)
	}
	var probs []string
	if job.BudgetEpsilon != nil && *job.BudgetEpsilon != l.Budget.Epsilon {
		probs = append(probs, fmt.Sprintf("budget-epsilon: %s was given, but the ledger %s has the budget ε = %s; the budget lives in the ledger (graphdp ledger raise changes it, recorded)", words.Num(*job.BudgetEpsilon), job.Ledger, words.Num(l.Budget.Epsilon)))
	}
	if job.BudgetDelta != nil && *job.BudgetDelta != l.Budget.Delta {
		probs = append(probs, fmt.Sprintf("budget-delta: %s was given, but the ledger %s has the budget δ = %s; the budget lives in the ledger (graphdp ledger raise changes it, recorded)", words.Num(*job.BudgetDelta), job.Ledger, words.Num(l.Budget.Delta)))
	}
	if len(probs) > 0 {
		return priv, &pipeline.ConfigError{Problems: probs}
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
			lines = append(lines, fmt.Sprintf("id %s: %s so far spent ε = %s, δ = %s; with this release ε = %s, δ = %s (%s)",
				words.Quote(o.ID), words.Count(int64(o.Releases), "release", "releases"), words.Num(o.Before.Epsilon), words.Num(o.Before.Delta), words.Num(o.After.Epsilon), words.Num(o.After.Delta), composition(o.After)))
		}
		return priv, &pipeline.RejectError{File: job.Ledger, Kind: "over-budget", Total: int64(total), Lines: lines,
			Head: fmt.Sprintf("this release (ε = %s, δ = %s per dataset, from %s) would take %d of %d requested datasets past the budget ε = %s, δ = %s; nothing written, ledger unchanged",
				words.Num(priv.Epsilon), words.Num(priv.Delta), sourceWords(priv.Source), total, len(ids), words.Num(l.Budget.Epsilon), words.Num(l.Budget.Delta))}
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
	if source == ledger.SourceMetadata {
		return "the mechanism's metadata"
	}
	return "the values given"
}

// sameFiles refuses a ledger that is also the release's mechanism, ids file or
// output (compared as files: device and inode, links followed).
func sameFiles(li os.FileInfo, job ReleaseJob) error {
	for _, f := range []struct{ key, path string }{{"out", job.Out}, {"mechanism", job.Mechanism}, {"ids", job.IDsFile}} {
		if f.path == "" {
			continue
		}
		if fi, err := os.Stat(f.path); err == nil && os.SameFile(li, fi) {
			return &pipeline.ConfigError{Problems: []string{fmt.Sprintf("ledger: %s is the same file as the %s %s; the ledger must be a file of its own", job.Ledger, f.key, f.path)}}
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
		Head: fmt.Sprintf("%d requested datasets are answered deterministically (p_one is 0 or 1): each draw of theirs is the same answer, which is private only if their neighbours' p_one make it so (graphdp report, given the graph, tells which are: a constant answer is, an isolated dataset's is not); release does not see the graph, so it refuses them; nothing written (give --allow-deterministic to release them anyway)", total)}
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
