package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/ledger"
)

// A μ-GDP ledger (ledger init --gdp-mu): μ-GDP releases compose to √(Σ μᵢ²) per
// dataset (three at μ = 1 spend √3 ≈ 1.732 of 1.8; a fourth, √4 = 2, is refused
// with exit 3 and fits after ledger raise --gdp-mu 2.5); an (ε, δ) or profile
// release is refused with exit 2; ledger show prints μ; an edited line fails
// ledger verify (exit 3).
func TestLedgerGDPBudget(t *testing.T) {
	dir := t.TempDir()
	mech := frameworkMechanism(t, dir, "gdp", "-gdp-mu", "1")
	led := filepath.Join(dir, "led.jsonl")
	if code, _, stderr := graphdp(t, "ledger", "init", filepath.Join(dir, "both.jsonl"), "--gdp-mu", "1", "--budget-epsilon", "1"); code != 2 || !strings.Contains(stderr, "give it alone") {
		t.Errorf("init with --gdp-mu and --budget-epsilon: exit %d, %s", code, stderr)
	}
	if _, stderr := mustRun(t, 0, "ledger", "init", led, "--gdp-mu", "1.8"); !hasWords(stderr, "(mode 0600, gdp) and its key "+led+".key (mode 0600: keep it private): budget μ = 1.8") {
		t.Errorf("init: %s", stderr)
	}
	auditIn(t, led, mech, filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"))
	release := func(n int, ids ...string) (int, string) {
		args := []string{"release", "-quiet", "--mechanism", mech, "--out", filepath.Join(dir, "r"+string(rune('0'+n))+".csv"), "--ledger", led}
		for _, id := range ids {
			args = append(args, "--id", id)
		}
		code, _, stderr := graphdp(t, args...)
		return code, stderr
	}
	for i := range 3 {
		if code, stderr := release(i, "1", "4"); code != 0 {
			t.Fatalf("release %d: exit %d, %s", i+1, code, stderr)
		}
	}
	before, _ := os.ReadFile(led)
	if code, stderr := release(4, "1"); code != 3 || !strings.Contains(stderr, "past the budget μ = 1.8") {
		t.Errorf("fourth release (√4 = 2 > 1.8): exit %d, %s", code, stderr)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Error("a refused release changed the ledger")
	}
	// Other frameworks: exit 2, saying why, ledger unchanged.
	profile := filepath.Join(dir, "profile.csv")
	write(t, profile, "epsilon,delta\n0.5,0.01\n1,1e-4\n")
	pm := frameworkMechanism(t, dir, "profile", "-privacy-profile", profile)
	auditIn(t, led, pm, filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"))
	auditAlone(t, led, relMech, "--epsilon", "0.5", "--delta", "0")
	before, _ = os.ReadFile(led)
	code, _, stderr := graphdp(t, "release", "--mechanism", pm, "--id", "1", "--out", filepath.Join(dir, "p.csv"), "--ledger", led)
	if code != 2 || !strings.Contains(stderr, "only a μ-GDP release can be charged") || !strings.Contains(stderr, "no sound rule") {
		t.Errorf("profile release on a μ-GDP ledger: exit %d, %s", code, stderr)
	}
	code, _, stderr = graphdp(t, "release", "-mechanism", relMech, "-id", "1", "-out", filepath.Join(dir, "eps.csv"), "--ledger", led)
	if code != 2 || !strings.Contains(stderr, "(ε,δ)-DP with ε = 0.5") {
		t.Errorf("(ε, δ) release on a μ-GDP ledger: exit %d, %s", code, stderr)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Error("a refused release changed the ledger")
	}
	// show --json: the framework, the budget μ, each dataset's spent and remaining μ.
	stdout, _ := mustRun(t, 0, "ledger", "show", led, "--json")
	var doc struct {
		Framework string  `json:"framework"`
		BudgetMu  float64 `json:"budget_mu"`
		Datasets  []ledger.Account
		Releases  []struct{ Mu float64 }
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Framework != "gdp" || doc.BudgetMu != 1.8 || len(doc.Datasets) != 2 || len(doc.Releases) != 3 || doc.Releases[0].Mu != 1 {
		t.Fatalf("show --json: %s", stdout)
	}
	for _, a := range doc.Datasets {
		if a.Releases != 3 || a.Spent.Mu != ledger.ComposeMu(1, 1, 1) || a.Spent.Method != "gdp" || a.RemainingMu <= 0.067 || a.RemainingMu >= 0.068 {
			t.Errorf("dataset %+v: want spent μ = √3, remaining 1.8 − √3 ≈ 0.0679", a)
		}
		// The largest next release is √(1.8² − 3) ≈ 0.49, not 1.8 − √3; no (ε, δ) remainder.
		if a.NextMu <= 0.4898 || a.NextMu >= 0.4899 || a.Remaining != nil {
			t.Errorf("dataset %+v: want next μ √(1.8² − 3) ≈ 0.48990 and no remaining (ε, δ)", a)
		}
	}
	if text, _ := mustRun(t, 0, "ledger", "show", led); !strings.Contains(text, "budget per dataset: μ = 1.8") || !strings.Contains(text, "spent μ") || !strings.Contains(text, "largest next μ") || !strings.Contains(text, "0.4898") {
		t.Errorf("show: %s", text)
	}
	// Raise: μ only.
	if code, _, stderr := graphdp(t, "ledger", "raise", led, "--budget-epsilon", "3", "--reason", "r"); code != 2 || !strings.Contains(stderr, "raise it with --gdp-mu") {
		t.Errorf("(ε, δ) raise of a μ-GDP ledger: exit %d, %s", code, stderr)
	}
	mustRun(t, 0, "ledger", "raise", led, "--gdp-mu", "2.5", "--reason", "quarterly review")
	// A dry run states the μ charged and each dataset's μ after it: √4 = 2.
	stdout, _ = mustRun(t, 0, "release", "--dry-run", "--json", "--mechanism", mech, "--id", "4", "--out", filepath.Join(dir, "d.csv"), "--ledger", led)
	var plan struct {
		Mu       float64 `json:"mu"`
		BudgetMu float64 `json:"budget_mu"`
		Datasets []struct {
			SpentAfter ledger.Charge `json:"spent_after"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &plan); err != nil || plan.Mu != 1 || plan.BudgetMu != 2.5 || len(plan.Datasets) != 1 || plan.Datasets[0].SpentAfter.Mu != 2 {
		t.Errorf("dry run: %v, %s", err, stdout)
	}
	if code, stderr := release(5, "1"); code != 0 {
		t.Fatalf("fourth release after the raise: exit %d, %s", code, stderr)
	}
	l, err := ledger.Read(led)
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := l.Account("1"); a.Spent.Mu != 2 || l.Budget.Mu != 2.5 {
		t.Errorf("after the raise: %+v, budget %+v; want spent √4 = 2 of 2.5", a, l.Budget)
	}
	if stdout, _ := mustRun(t, 0, "ledger", "verify", led); !strings.Contains(stdout, "budget μ = 2.5 per dataset") {
		t.Errorf("verify: %s", stdout)
	}
	// Tamper: halve one release's μ; verify names the line (exit 3).
	data, _ := os.ReadFile(led)
	edited := bytes.Replace(data, []byte(`"mu":1,`), []byte(`"mu":0.5,`), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("the edit changed nothing")
	}
	write(t, led, string(edited))
	if code, _, stderr := graphdp(t, "ledger", "verify", led); code != 3 || !strings.Contains(stderr, "line 3") {
		t.Errorf("verify of an edited μ-GDP ledger: exit %d, %s", code, stderr)
	}
}
