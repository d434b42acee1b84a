package toolkit

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

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
	l, _ = ledger.Read(led)
	v := ShowLedger(l, "h", true)
	if len(v.Datasets) != 1 || v.Datasets[0].Releases != 1 || len(v.Releases) != 1 || v.Releases[0].Line != 3 || len(v.Raises) != 1 {
		t.Errorf("show h: %+v", v)
	}
	if all := ShowLedger(l, "", false); len(all.Datasets) != 2 || all.Datasets[0].ID != "a" || len(all.Audits) != 1 ||
		all.Audits[0].Privacy != "ε = 0.5, δ = 1e-06" || !all.Audits[0].Private || all.Audits[0].By != ledger.ByRun {
		t.Errorf("show: %+v", all)
	}
}
