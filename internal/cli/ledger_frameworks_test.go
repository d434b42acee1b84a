package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/dp"
	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/ledger"
)

// frameworkMechanism runs the path of issue23Job's inputs under the given
// privacy flags to a Parquet mechanism in dir and returns its path.
func frameworkMechanism(t *testing.T, dir, name string, privacy ...string) string {
	t.Helper()
	issue23Job(t, dir) // writes v.csv, e.csv, h.csv
	mech := filepath.Join(dir, name+".parquet")
	mustRun(t, 0, append([]string{"run", "-quiet", "-vertices", filepath.Join(dir, "v.csv"), "-edges", filepath.Join(dir, "e.csv"),
		"-hitting-set", filepath.Join(dir, "h.csv"), "-out", mech}, privacy...)...)
	return mech
}

// release takes a mechanism of every framework; without a ledger its file states
// the mechanism's framework (graphdp.framework and its parameters).
func TestReleaseEveryFramework(t *testing.T) {
	dir := t.TempDir()
	profile, curve := frameworkFiles(t, dir)
	for _, c := range []struct {
		fw    string
		flags []string
	}{
		{"gdp", []string{"-gdp-mu", "1"}},
		{"privacy-profile", []string{"-privacy-profile", profile}},
		{"tradeoff", []string{"-tradeoff", curve}},
	} {
		mech := frameworkMechanism(t, dir, c.fw, c.flags...)
		out := filepath.Join(dir, c.fw+"-r.parquet")
		mustRun(t, 0, "release", "-quiet", "--mechanism", mech, "--id", "1", "--id", "4", "--out", out, "--no-ledger")
		meta, err := ingest.ReadMetadata(t.Context(), out)
		if err != nil {
			t.Fatal(err)
		}
		if meta["graphdp.framework"] != c.fw {
			t.Errorf("%s: release metadata graphdp.framework = %q", c.fw, meta["graphdp.framework"])
		}
		// A stated ε beside a framework's metadata is refused (exit 2).
		code, _, stderr := graphdp(t, "release", "--mechanism", mech, "--id", "1", "--epsilon", "1", "--delta", "0", "--out", filepath.Join(dir, "x.csv"), "--no-ledger")
		if code != 2 || !strings.Contains(stderr, "drop epsilon and delta") {
			t.Errorf("%s: stated ε beside the metadata: exit %d, %s", c.fw, code, stderr)
		}
	}
}

// The ledger charges a μ-GDP release to an (ε, δ) budget through the exact
// conversion: an ordinary (ε, δ) entry whose δ is dp.GDPDelta(μ, ε) (a certified
// upper bound), at the ε that spends equal fractions of what is left of both
// budgets (t·ε_r, δ ≤ t·δ_r, t smallest: the next float below it does not fit), and
// a second release that cannot fit at any ε is refused (exit 3), ledger unchanged.
func TestLedgerChargesGDP(t *testing.T) {
	dir := t.TempDir()
	mech := frameworkMechanism(t, dir, "gdp", "-gdp-mu", "1")
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "5", "--budget-delta", "0.01")
	auditIn(t, led, mech, filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"))
	mustRun(t, 0, "release", "-quiet", "--mechanism", mech, "--id", "1", "--id", "4", "--out", filepath.Join(dir, "r1.csv"), "--ledger", led)
	l, err := ledger.Read(led)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Releases) != 1 {
		t.Fatalf("%d releases recorded", len(l.Releases))
	}
	r := l.Releases[0]
	want, err := dp.GDPDelta(1, r.Epsilon)
	if err != nil {
		t.Fatal(err)
	}
	if r.Framework != ledger.Framework || r.Delta != want || r.Source != ledger.SourceAudit {
		t.Fatalf("entry %+v: want an (ε, δ) entry with δ = GDPDelta(1, %v) = %v from the audit", r.Release, r.Epsilon, want)
	}
	// Equal fractions: δ ≤ t·0.01 at t = ε/5, and not much less ε would do.
	tf := r.Epsilon / 5
	if !(tf > 0.4 && tf < 0.7) || r.Delta > tf*0.01*(1+1e-12) {
		t.Errorf("charged ε = %v (t = %v), δ = %v: not the equal-fraction point", r.Epsilon, tf, r.Delta)
	}
	if d, _ := dp.GDPDelta(1, r.Epsilon*(1-1e-6)); d <= tf*(1-1e-6)*0.01 {
		t.Errorf("ε = %v is not the smallest equal-fraction ε: %v also fits", r.Epsilon, r.Epsilon*(1-1e-6))
	}
	before, _ := os.ReadFile(led)
	code, _, stderr := graphdp(t, "release", "--mechanism", mech, "--id", "1", "--out", filepath.Join(dir, "r2.csv"), "--ledger", led)
	if code != 3 || !strings.Contains(stderr, "past the budget") {
		t.Errorf("second GDP release: exit %d, %s", code, stderr)
	}
	if after, _ := os.ReadFile(led); string(after) != string(before) {
		t.Error("a refused release changed the ledger")
	}
}

// A privacy-profile release is charged the row of smallest ε that fits every
// dataset's budget; when none fits it is refused (exit 3). A trade-off-curve
// release has no rule: refused with exit 2, saying why, ledger unchanged.
func TestLedgerChargesProfileRefusesCurve(t *testing.T) {
	dir := t.TempDir()
	profile, curve := frameworkFiles(t, dir)
	mech := frameworkMechanism(t, dir, "profile", "-privacy-profile", profile)
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "1.2", "--budget-delta", "1e-3")
	auditIn(t, led, mech, filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"))
	mustRun(t, 0, "release", "-quiet", "--mechanism", mech, "--id", "1", "--out", filepath.Join(dir, "r1.csv"), "--ledger", led)
	l, err := ledger.Read(led)
	if err != nil {
		t.Fatal(err)
	}
	if r := l.Releases[0]; r.Epsilon != 1 || r.Delta != 1e-4 {
		t.Errorf("profile release charged (%v, %v), want the row (1, 1e-4): (0.5, 0.01) exceeds δ", r.Epsilon, r.Delta)
	}
	code, _, stderr := graphdp(t, "release", "--mechanism", mech, "--id", "1", "--out", filepath.Join(dir, "r2.csv"), "--ledger", led)
	if code != 3 || !strings.Contains(stderr, "past the budget") {
		t.Errorf("second profile release: exit %d, %s", code, stderr)
	}
	cm := frameworkMechanism(t, dir, "curve", "-tradeoff", curve)
	auditIn(t, led, cm, filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"))
	before, _ := os.ReadFile(led)
	code, _, stderr = graphdp(t, "release", "--mechanism", cm, "--id", "4", "--out", filepath.Join(dir, "r3.csv"), "--ledger", led)
	if code != 2 || !strings.Contains(stderr, "no rule to charge a trade-off curve") {
		t.Errorf("curve release with a ledger: exit %d, %s", code, stderr)
	}
	if after, _ := os.ReadFile(led); string(after) != string(before) {
		t.Error("a refused release changed the ledger")
	}
	if _, err := os.Stat(filepath.Join(dir, "r3.csv")); err == nil {
		t.Error("a refused release wrote its file")
	}
}
