package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
)

// This file is the one way an exact audit reaches the ledger (docs/LEDGER.md,
// "What a release is charged"): run records the mechanism it wrote once its audit
// passed, verify the one it audited, and release charges what was recorded.

// AuditRecord is one exact audit to record: the mechanism table (its path as given and
// its fingerprint, every byte a release reads), the graph it was audited on (its
// vertices' and edges' fingerprints), the privacy statement it was audited under
// and the verdict.
type AuditRecord struct {
	By          string // ledger.ByRun or ledger.ByVerify
	Mechanism   string
	Fingerprint string
	Vertices    string // fingerprints
	Edges       string
	Pair        dp.Pair
	Private     bool
}

// RecordAudit appends a's audit entry to the ledger at path under its exclusive
// lock (the ledger verified whole first), making the ledger's key if it has none,
// and returns the entry.
func RecordAudit(path string, a AuditRecord, now time.Time) (*ledger.Audit, error) {
	w, err := ledger.Open(path)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	key, err := ledger.MakeKey(path)
	if err != nil {
		return nil, err
	}
	return w.AppendAudit(ledger.Audit{By: a.By, Mechanism: a.Mechanism,
		MechanismHMAC: key.Sum("mechanism", a.Fingerprint),
		GraphHMAC:     key.Sum("graph", a.Vertices+"\n"+a.Edges+"\n"),
		Privacy:       a.Pair.Statement(), Private: a.Private}, now)
}

// recordRun records the mechanism a run wrote to job.Out, read back whole
// (ingest.TableFingerprint: what a release will read), once it is published.
func recordRun(ctx context.Context, job job.Job, vertices, edges string, pair dp.Pair, private bool) error {
	fp, err := ingest.TableFingerprint(ctx, job.Out)
	if err == nil {
		_, err = RecordAudit(job.Ledger, AuditRecord{By: ledger.ByRun, Mechanism: job.Out, Fingerprint: fp,
			Vertices: vertices, Edges: edges, Pair: pair, Private: private}, time.Now())
	}
	if err != nil {
		return fmt.Errorf("%s is written, but recording its audit in the ledger %s failed, so no release of it is possible yet: %w (graphdp verify --mechanism %s … --ledger %s records it)", job.Out, job.Ledger, err, job.Out, job.Ledger)
	}
	return nil
}

// Charged is the privacy an audit entry recorded: what every release of its
// mechanism is charged (Source ledger.SourceAudit). Values the operator stated
// must agree with it exactly (job.ResolvePrivacy's rule and messages, naming the
// audit); they never change it.
func Charged(a ledger.AuditAt, st job.Stated) (job.Privacy, error) {
	what := fmt.Sprintf("the ledger's audit of %s (line %d)", a.Mechanism, a.Line)
	p, err := job.ResolvePrivacy(what, a.Privacy, st, true)
	p.Source = ledger.SourceAudit
	return p, err
}
