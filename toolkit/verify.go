package toolkit

import (
	"context"
	"log/slog"
	"time"

	"github.com/graphdp/graphdp/bfs"
	"github.com/graphdp/graphdp/check"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/load"
	"github.com/graphdp/graphdp/pipeline"

	"github.com/graphdp/graphdp/internal/words"
)

// verified is what verify found: the exact audit of every DP inequality and, with a
// hitting set, how the mechanism compares with it and with the optimal extension.
// Verify returns its document (VerifyDoc).
type verified struct {
	Job     job.Job // the job with the mechanism's ε and δ (its metadata, or as given)
	Privacy job.Privacy
	Inputs  *load.Inputs
	Audit   check.Audit
	Checked *pipeline.Checked // nil without a hitting set
	Optimal check.Optimality  // with a hitting set: check.CompareOptimal
	// Recorded is, with a ledger, the audit entry written there (its verdict
	// Private), nil otherwise.
	Recorded *ledger.Audit
}

// Verify audits job.Mechanism on the job's graph at tolerance, and, when the job
// names a hitting set, checks it as run does and compares the mechanism with it
// and with the optimum. It returns the result document, verdict included
// (VerifyDoc.Passed). A hitting set that fails run's checks returns the document
// of the audit (no HittingSet) with the error.
func Verify(ctx context.Context, job job.Job, tolerance float64, log *slog.Logger) (*VerifyDoc, error) {
	v, err := verify(ctx, job, tolerance, log)
	if v == nil {
		return nil, err
	}
	return v.document(tolerance), err
}

func verify(ctx context.Context, job job.Job, tolerance float64, log *slog.Logger) (*verified, error) {
	priv, err := job.MechanismPrivacy(ctx)
	if err != nil {
		return nil, err
	}
	log.Info("reading inputs", "stage", "read", "vertices", job.Vertices, "edges", job.Edges, "mechanism", job.Mechanism, "hitting_set", job.HittingSet)
	req := load.Request{Mechanism: true, HittingSet: job.HittingSet != "", Engine: "propagate"}
	x, err := load.LoadInputs(ctx, &job, req)
	if err != nil {
		return nil, err
	}
	v := &verified{Job: job, Privacy: priv, Inputs: x}
	if v.Audit, err = check.Verify(ctx, x.Graph, x.Mechanism.Exact, x.Pair, tolerance, job.List); err != nil {
		return nil, err
	}
	if job.Ledger != "" {
		// The verdict run records too: no DP violation (at tolerance 0: what is
		// recorded is exact) and no dataset not private (check.Deterministic).
		det, _ := check.FindDeterministic(x.Graph, x.Mechanism.POne, nil, nil, nil, func(int32) string { return "" })
		private := v.Audit.Violations == 0 && det.NotPrivate == 0 && tolerance == 0
		if v.Recorded, err = pipeline.RecordAudit(job.Ledger, pipeline.AuditRecord{By: ledger.ByVerify, Mechanism: job.Mechanism,
			Fingerprint: x.Mechanism.Fingerprint, Vertices: x.Vertices.Fingerprint, Edges: x.Edges.Fingerprint,
			Pair: x.Pair, Private: private}, time.Now()); err != nil {
			return nil, err
		}
	}
	if x.Hit == nil {
		return v, nil
	}
	c, err := pipeline.Check(ctx, job, x)
	if err != nil {
		return v, err
	}
	v.Checked = c
	v.Optimal = check.CompareOptimal(x.Vertices.Answer, x.Mechanism.Exact, x.Hit.Vertex, x.Hit.PTrue, c.Solution.PTrue, bfs.Tolerance, job.List)
	return v, nil
}

// failedCheck is one of verify's checks that failed: its name, which depends only on
// which check it is (shareable: stderr says it), and what failed, counted (computed
// from the answers: private, the report and the JSON document say it).
type failedCheck struct {
	Name  string
	Found []string
}

// failedChecks is the verdict, empty when verify passes: the DP audit, and with a
// hitting set, agreement with it and optimality (values below or above the optimum).
func (v *verified) failedChecks() []failedCheck {
	var f []failedCheck
	if v.Audit.Violations > 0 {
		f = append(f, failedCheck{"the DP audit", []string{words.Count(v.Audit.Violations, "DP violation", "DP violations")}})
	}
	if v.Checked == nil {
		return f
	}
	o := v.Optimal
	if o.Disagree > 0 {
		f = append(f, failedCheck{"agreement with the hitting set", []string{words.Count(int64(o.Disagree), "value disagrees with the hitting set", "values disagree with the hitting set")}})
	}
	if o.Below > 0 || o.Above > 0 {
		c := failedCheck{Name: "optimality"}
		if o.Below > 0 {
			c.Found = append(c.Found, words.Count(int64(o.Below), "vertex below the optimum", "vertices below the optimum"))
		}
		if o.Above > 0 {
			c.Found = append(c.Found, words.Count(int64(o.Above), "vertex above the optimum", "vertices above the optimum"))
		}
		f = append(f, c)
	}
	return f
}

// failed is the verdict counted, in words (failedChecks' Found, in order).
func (v *verified) failed() []string {
	var f []string
	for _, c := range v.failedChecks() {
		f = append(f, c.Found...)
	}
	return f
}
