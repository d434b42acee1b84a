package toolkit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphdp/graphdp/ledger"
)

// The ledger's use cases return what their commands print: init the ledger read
// back, raise the budgets before and after (a lowering refused), verify whether a
// noted head is still in the chain, show one dataset's account and only the
// releases that drew it, and the audits with their privacy in words.
func TestLedgerUseCases(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	led := filepath.Join(dir, "L")
	l, err := InitLedger(led, ledger.Budget{Epsilon: 2, Delta: 1e-5})
	if err != nil || l.Lines != 1 || l.Budget.Epsilon != 2 {
		t.Fatalf("init: %v %+v", err, l)
	}
	noted := l.Head
	mech := filepath.Join(dir, "m.parquet")
	exampleRun(t, mech, led)
	for i, ids := range [][]string{{"a", "h"}, {"a"}} {
		if _, err := Release(t.Context(), releaseJob(mech, filepath.Join(dir, "r"+string(rune('0'+i))+".csv"), led, ids...), nil); err != nil {
			t.Fatal(err)
		}
	}
	old, now, err := RaiseLedger(led, func(b ledger.Budget) (ledger.Budget, error) { b.Epsilon = 3; return b, nil }, "more releases")
	if err != nil || old.Epsilon != 2 || now.Epsilon != 3 || now.Delta != 1e-5 {
		t.Errorf("raise: %v %+v → %+v", err, old, now)
	}
	var le *ledger.Error
	if _, _, err := RaiseLedger(led, func(b ledger.Budget) (ledger.Budget, error) { b.Epsilon = 1; return b, nil }, "less"); !errors.As(err, &le) || !le.Usage() {
		t.Errorf("a raise that lowers: %v", err)
	}
	c, err := VerifyLedger(led, noted)
	if err != nil || !c.Verified || *c.HeadLine != 1 || c.Lines != 5 || c.Audits != 1 || c.Releases != 2 || c.Raises != 1 {
		t.Errorf("verify: %v %+v", err, c)
	}
	if c, err := VerifyLedger(led, strings.Repeat("0", 64)); err != nil || c.Verified || *c.HeadLine != 0 {
		t.Errorf("verify with a head not in the chain: %v %+v", err, c)
	}
	v, err := ShowLedger(led, "h", true)
	if err != nil || len(v.Datasets) != 1 || v.Datasets[0].Releases != 1 || len(v.Releases) != 1 || v.Releases[0].Line != 3 || len(v.Raises) != 1 {
		t.Errorf("show h: %+v", v)
	}
	if all, err := ShowLedger(led, "", false); err != nil || len(all.Datasets) != 2 || all.Datasets[0].ID != "a" || len(all.Audits) != 1 ||
		all.Audits[0].Privacy != "ε = 0.5, δ = 1e-06" || !all.Audits[0].Private || all.Audits[0].By != ledger.ByRun {
		t.Errorf("show: %+v", all)
	}
}

// A ledger holding a mechanism's plain SHA-256 (a release entry from before audit
// entries existed) is exposed while others may read it: show's and verify's
// documents give its mode for the text's warning, and 0 once it is private again.
func TestLedgerExposed(t *testing.T) {
	t.Parallel()
	led := filepath.Join(t.TempDir(), "L")
	if _, err := InitLedger(led, ledger.Budget{Epsilon: 2, Delta: 1e-5}); err != nil {
		t.Fatal(err)
	}
	w, err := ledger.Open(led)
	if err != nil {
		t.Fatal(err)
	}
	err = w.AppendRelease(ledger.Release{ReleaseID: strings.Repeat("0", 32), Mechanism: "m", MechanismSHA256: strings.Repeat("ab", 32),
		Source: ledger.SourceMetadata, Datasets: []string{"a"}, Epsilon: 1}, time.Now())
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{0o644, 0o600} {
		if err := os.Chmod(led, mode); err != nil {
			t.Fatal(err)
		}
		want := mode
		if mode&0o077 == 0 {
			want = 0
		}
		v, err := ShowLedger(led, "", false)
		if err != nil || v.Exposed != want {
			t.Errorf("show at mode %04o: %v, exposed %04o, want %04o", mode, err, v.Exposed, want)
		}
		c, err := VerifyLedger(led, "")
		if err != nil || c.Exposed != want {
			t.Errorf("verify at mode %04o: %v, exposed %04o, want %04o", mode, err, c.Exposed, want)
		}
	}
}
