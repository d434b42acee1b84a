package toolkit

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/pipeline"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// exampleRun runs the shipped example job (ε = 0.5, δ = 1e-6) to out in a fresh
// folder, recording its audit in led when led is set, and returns the job.
func exampleRun(t *testing.T, out, led string) job.Job {
	t.Helper()
	j := job.DefaultJob()
	unknown, err := j.LoadConfig("../configs/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	j.Out, j.Summary, j.Ledger = out, "", led
	if err := j.Validate("example.yaml", unknown...); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Run(t.Context(), j, quiet); err != nil {
		t.Fatal(err)
	}
	return j
}

// auditedExample is a fresh folder with a ledger (budget ε = 2, δ = 1e-5) and the
// example run's mechanism, its audit recorded there.
func auditedExample(t *testing.T) (dir, led, mech string) {
	t.Helper()
	dir = t.TempDir()
	led, mech = filepath.Join(dir, "L"), filepath.Join(dir, "m.parquet")
	if _, err := InitLedger(led, ledger.Budget{Epsilon: 2, Delta: 1e-5}); err != nil {
		t.Fatal(err)
	}
	exampleRun(t, mech, led)
	return dir, led, mech
}

func releaseJob(mech, out, led string, ids ...string) ReleaseJob {
	return ReleaseJob{Mechanism: mech, IDs: ids, Out: out, Columns: ingest.DefaultMechanismTableColumns(), Ledger: led, NoLedger: led == ""}
}

// The release use case charges what the run's audit recorded and names that
// audit; it refuses (without touching the ledger or writing) an output that
// exists, a mechanism whose bytes the ledger has no audit of, and a request
// without a ledger that did not say --no-ledger.
func TestReleaseChargedByAudit(t *testing.T) {
	t.Parallel()
	dir, led, mech := auditedExample(t)
	r, err := Release(t.Context(), releaseJob(mech, filepath.Join(dir, "r.csv"), led, "a", "h"), nil)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := ledger.Read(led)
	if r.AuditID == "" || r.AuditID != l.Audits[0].AuditID || r.AuditLine != l.Audits[0].Line || r.Epsilon != 0.5 || r.Delta != 1e-6 ||
		r.PrivacySource != ledger.SourceAudit || len(l.Releases) != 1 || l.Releases[0].Audit != r.AuditID || l.Releases[0].ReleaseID != r.ReleaseID ||
		r.Rows != 2 || r.Ledger != led || r.Budget == nil || r.Budget.Epsilon != 2 || r.Datasets != nil || r.PrivacyWords != "ε = 0.5, δ = 1e-06" {
		t.Fatalf("release: %+v, ledger %+v", r, l.Releases)
	}
	before, _ := os.ReadFile(led)
	var ce *job.ConfigError
	if _, err := Release(t.Context(), releaseJob(mech, filepath.Join(dir, "r.csv"), led, "a"), nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), "never replaces a file") {
		t.Errorf("over an existing release: %v", err)
	}
	copyOf := filepath.Join(dir, "copy.csv") // the same mechanism, other bytes
	exampleRun(t, copyOf, "")
	var re *pipeline.RejectError
	if _, err := Release(t.Context(), releaseJob(copyOf, filepath.Join(dir, "r2.csv"), led, "a"), nil); !errors.As(err, &re) || re.Kind != "not-audited" {
		t.Errorf("unaudited bytes: %v", err)
	}
	j := releaseJob(mech, filepath.Join(dir, "r3.csv"), "", "a")
	j.NoLedger = false
	if _, err := Release(t.Context(), j, nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), "--no-ledger") {
		t.Errorf("no ledger, not said: %v", err)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Error("a refused release changed the ledger")
	}
	for _, f := range []string{"r2.csv", "r3.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a refused release wrote %s", f)
		}
	}
}

// verify's use case records the verdict it reached: private for run's output,
// not private once one value is nudged past its bound (the audit fails), and a
// release of the nudged table is then refused as not private.
func TestVerifyRecordsVerdict(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	led := filepath.Join(dir, "L")
	if _, err := InitLedger(led, ledger.Budget{Epsilon: 2, Delta: 1e-5}); err != nil {
		t.Fatal(err)
	}
	mech := filepath.Join(dir, "m.csv")
	vj := exampleRun(t, mech, "")
	vj.Mechanism, vj.Out, vj.Ledger, vj.HittingSet = mech, "", led, ""
	v, err := Verify(t.Context(), vj, 0, quiet)
	if err != nil || v.LedgerPrivate == nil || !*v.LedgerPrivate || v.AuditID == "" {
		t.Fatalf("verify of run's output: %v %+v", err, v)
	}
	data, _ := os.ReadFile(mech)
	lines := strings.Split(string(data), "\n")
	for i, line := range lines[1:] {
		if f := strings.Split(line, ","); len(f) > 2 && f[0] == "a" {
			f[2], f[3] = "0.999", "0.999" // a answers true: p_true = p_one, far above what its neighbours allow
			if f[1] != "true" {
				f[3] = "0.001"
			}
			lines[i+1] = strings.Join(f, ",")
		}
	}
	nudged := filepath.Join(dir, "nudged.csv")
	os.WriteFile(nudged, []byte(strings.Join(lines, "\n")), 0o600)
	vj.Mechanism = nudged
	if v, err = Verify(t.Context(), vj, 0, quiet); err != nil || v.LedgerPrivate == nil || *v.LedgerPrivate || v.Audit.Violations == 0 || v.Passed {
		t.Fatalf("verify of the nudged table: %v %+v", err, v)
	}
	j := releaseJob(nudged, filepath.Join(dir, "r.csv"), led, "b")
	j.Stated = job.Stated{Epsilon: &vj.Epsilon, Delta: &vj.Delta}
	var re *pipeline.RejectError
	if _, err := Release(t.Context(), j, nil); !errors.As(err, &re) || re.Kind != "not-private" {
		t.Errorf("release of a mechanism audited not private: %v", err)
	}
}

// Release's document in a dry run lists the datasets in the order asked with, on
// a ledger, what each would have spent after it (a's earlier release counted:
// ε = 0.5 + 0.5 by basic composition, h's first: 0.5), draws and writes nothing;
// without a ledger it names the datasets alone and no budget.
func TestReleaseDocumentDryRun(t *testing.T) {
	t.Parallel()
	dir, led, mech := auditedExample(t)
	if _, err := Release(t.Context(), releaseJob(mech, filepath.Join(dir, "r.csv"), led, "a"), nil); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r2.csv")
	j := releaseJob(mech, out, led, "h", "a")
	j.DryRun = true
	d, err := Release(t.Context(), j, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !d.DryRun || d.ReleaseID != "" || d.Rows != 2 || d.Out != out || len(d.Datasets) != 2 || d.Budget == nil || d.Budget.Epsilon != 2 {
		t.Fatalf("dry run: %+v", d)
	}
	for i, want := range []struct {
		id     string
		before int
		eps    float64
	}{{"h", 0, 0.5}, {"a", 1, 1}} {
		x := d.Datasets[i]
		if x.ID != want.id || x.ReleasesBefore == nil || *x.ReleasesBefore != want.before || x.SpentAfter == nil || x.SpentAfter.Epsilon < want.eps || x.SpentAfter.Epsilon > want.eps+1e-12 {
			t.Errorf("dataset %d: %+v (after %+v), want %+v", i, x, x.SpentAfter, want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a dry run wrote %s: %v", out, err)
	}
	j = releaseJob(mech, out, "", "b")
	j.DryRun, j.Stated = true, job.Stated{}
	if d, err = Release(t.Context(), j, nil); err != nil || d.Budget != nil || d.Ledger != "" || len(d.Datasets) != 1 || d.Datasets[0].ID != "b" ||
		d.Datasets[0].ReleasesBefore != nil || d.PrivacySource != ledger.SourceMetadata {
		t.Errorf("dry run without a ledger: %v %+v", err, d)
	}
}
