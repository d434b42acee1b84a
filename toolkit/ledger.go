package toolkit

import (
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/pipeline"
)

// This file is the ledger's use cases (`graphdp ledger init | raise | repair | show
// | verify`): each returns what the command prints; the CLI renders it.

// InitLedger creates the ledger at path with budget b (and its key file) and
// returns it as read back.
func InitLedger(path string, b ledger.Budget) (*ledger.Ledger, error) {
	if _, err := ledger.Init(path, b, time.Now()); err != nil {
		return nil, err
	}
	return ledger.Read(path)
}

// RaiseLedger raises the budget of the ledger at path to what next makes of the
// budget in force, for reason, and returns the budgets before and after.
func RaiseLedger(path string, next func(old ledger.Budget) (ledger.Budget, error), reason string) (old, now ledger.Budget, err error) {
	w, err := ledger.Open(path)
	if err != nil {
		return old, now, err
	}
	defer w.Close()
	old = w.Budget
	if now, err = next(old); err != nil {
		return old, now, err
	}
	return old, now, w.Raise(now, reason, time.Now())
}

// RepairLedger removes an incomplete last line of the ledger at path and records
// that it did (ledger.RepairFile).
func RepairLedger(path, reason string) (*ledger.Repair, error) {
	return ledger.RepairFile(path, reason, time.Now())
}

// VerifyLedger reads and verifies the whole ledger at path; head, if given, is a
// head noted earlier, which must still be a line's hash for Verified.
func VerifyLedger(path, head string) (*LedgerCheck, error) {
	l, err := ledger.Read(path)
	if err != nil {
		return nil, err
	}
	c := &LedgerCheck{File: path, Lines: l.Lines, Releases: len(l.Releases), Raises: len(l.Raises), Repairs: len(l.Repairs), Audits: len(l.Audits),
		Budget: ledger.Point{Epsilon: l.Budget.Epsilon, Delta: l.Budget.Delta}, BudgetMu: l.Budget.Mu, Head: l.Head, Verified: true, Exposed: exposed(l)}
	if head != "" {
		n := l.HeadAt(head)
		c.HeadGiven, c.HeadLine, c.Verified = head, &n, n > 0
	}
	return c, nil
}

// LedgerCheck is what `graphdp ledger verify` found of a ledger that verifies in
// full (its --json document, docs/CLI.md, "JSON output"): its figures and, given
// a head noted earlier, whether that head is still in the chain.
type LedgerCheck struct {
	File      string       `json:"file"`
	Lines     int          `json:"lines"`
	Releases  int          `json:"releases"`
	Raises    int          `json:"raises"`
	Repairs   int          `json:"repairs"`
	Audits    int          `json:"audits"`
	Budget    ledger.Point `json:"budget"`
	BudgetMu  float64      `json:"budget_mu,omitempty"` // a μ-GDP ledger's budget
	Head      string       `json:"head"`
	HeadGiven string       `json:"head_given,omitempty"`
	HeadLine  *int         `json:"head_line,omitempty"` // the line whose hash --head is; 0: not in the chain
	Verified  bool         `json:"verified"`            // the chain verifies and --head, if given, is in it

	Exposed os.FileMode `json:"-"` // for the text: the mode, when others may read plain hashes (exposed); else 0
}

// exposed is the ledger's mode when others may read it while it holds a
// mechanism's plain SHA-256 (a release recorded before audit entries existed),
// which lets whoever has the graph test candidate answers; else 0. Audit entries
// hold keyed fingerprints only: a ledger of those alone may be shared (its key file
// may not).
func exposed(l *ledger.Ledger) os.FileMode {
	plain := slices.ContainsFunc(l.Releases, func(r ledger.ReleaseAt) bool { return r.MechanismSHA256 != "" })
	if fi, err := os.Stat(l.File); err == nil && plain && fi.Mode().Perm()&0o077 != 0 {
		return fi.Mode().Perm()
	}
	return 0
}

// LedgerView is what `graphdp ledger show` prints (its --json document, docs/CLI.md,
// "JSON output", and the text printed from it): the ledger's identity and budget,
// every dataset's account (or one's), and its releases, raises, repairs and audits.
type LedgerView struct {
	File      string           `json:"file"`
	LedgerID  string           `json:"ledger_id"`
	Framework string           `json:"framework"`
	Created   string           `json:"created"`
	CreatedBy string           `json:"created_by"`
	Lines     int              `json:"lines"`
	Head      string           `json:"head"`
	Budget    ledger.Point     `json:"budget"`
	BudgetMu  float64          `json:"budget_mu,omitempty"` // a μ-GDP ledger's budget
	Datasets  []ledger.Account `json:"datasets"`
	Releases  []LedgerRelease  `json:"releases"`
	Raises    []LedgerRaise    `json:"raises"`
	Repairs   []LedgerRepair   `json:"repairs"`
	Audits    []LedgerAudit    `json:"audits"`

	Exposed os.FileMode `json:"-"` // for the text: the mode, when others may read plain hashes (exposed); else 0
}

// LedgerAudit is an audit entry as show prints it: its privacy statement in words.
type LedgerAudit struct {
	Line      int    `json:"line"`
	Time      string `json:"time"`
	AuditID   string `json:"audit_id"`
	By        string `json:"by"`
	Mechanism string `json:"mechanism"`
	Privacy   string `json:"privacy"`
	Private   bool   `json:"private"`
	User      string `json:"user"`
}

// LedgerRelease is a release entry as show prints it.
type LedgerRelease struct {
	Line            int      `json:"line"`
	Time            string   `json:"time"`
	ReleaseID       string   `json:"release_id"`
	Mechanism       string   `json:"mechanism"`
	MechanismSHA256 string   `json:"mechanism_sha256,omitempty"` // an older entry's; "" for one charged by an audit
	Audit           string   `json:"audit,omitempty"`            // the audit_id it was charged by
	Epsilon         float64  `json:"epsilon"`
	Delta           float64  `json:"delta"`
	Mu              float64  `json:"mu,omitempty"` // on a μ-GDP ledger
	Source          string   `json:"source"`
	Datasets        []string `json:"datasets"`
}

// LedgerRaise is a raise: the budget before and after it.
type LedgerRaise struct {
	Line   int          `json:"line"`
	Time   string       `json:"time"`
	User   string       `json:"user"`
	Reason string       `json:"reason"`
	From   ledger.Point `json:"from"`
	To     ledger.Point `json:"to"`
	FromMu float64      `json:"from_mu,omitempty"` // on a μ-GDP ledger
	ToMu   float64      `json:"to_mu,omitempty"`
}

// LedgerRepair is a repair entry.
type LedgerRepair struct {
	Line          int    `json:"line"`
	Time          string `json:"time"`
	User          string `json:"user"`
	Reason        string `json:"reason"`
	DroppedBytes  int64  `json:"dropped_bytes"`
	DroppedSHA256 string `json:"dropped_sha256"`
}

// ShowLedger reads and verifies the whole ledger at path and returns its view:
// every dataset, or (only) id's account and the releases that drew it.
func ShowLedger(path, id string, only bool) (*LedgerView, error) {
	l, err := ledger.Read(path)
	if err != nil {
		return nil, err
	}
	v := &LedgerView{File: l.File, LedgerID: l.Header.Ledger, Framework: l.Header.Framework, Created: l.Header.Time, CreatedBy: l.Header.User,
		Lines: l.Lines, Head: l.Head, Budget: ledger.Point{Epsilon: l.Budget.Epsilon, Delta: l.Budget.Delta}, BudgetMu: l.Budget.Mu,
		Datasets: []ledger.Account{}, Releases: []LedgerRelease{}, Raises: []LedgerRaise{}, Repairs: []LedgerRepair{}, Audits: []LedgerAudit{},
		Exposed: exposed(l)}
	if only {
		a, _ := l.Account(id)
		v.Datasets = append(v.Datasets, a)
	} else {
		v.Datasets = l.Accounts()
	}
	for _, r := range l.Releases {
		if only && !slices.Contains(r.Datasets, id) {
			continue
		}
		v.Releases = append(v.Releases, LedgerRelease{r.Line, r.Time, r.ReleaseID, r.Mechanism, r.MechanismSHA256, r.Audit, r.Epsilon, r.Delta, r.Mu, r.Source, r.Datasets})
	}
	from, fromMu := ledger.Point{Epsilon: l.Header.BudgetEpsilon, Delta: l.Header.BudgetDelta}, l.Header.BudgetMu
	for _, r := range l.Raises {
		to := ledger.Point{Epsilon: r.BudgetEpsilon, Delta: r.BudgetDelta}
		v.Raises = append(v.Raises, LedgerRaise{r.Line, r.Time, r.User, r.Reason, from, to, fromMu, r.BudgetMu})
		from, fromMu = to, r.BudgetMu
	}
	for _, r := range l.Repairs {
		v.Repairs = append(v.Repairs, LedgerRepair{r.Line, r.Time, r.User, r.Reason, r.DroppedBytes, r.DroppedSHA256})
	}
	for _, a := range l.Audits {
		priv := "privacy " + a.Privacy["graphdp.framework"]
		if p, err := pipeline.Charged(a, job.Stated{}); err == nil {
			priv = PrivacyWords(p)
		}
		v.Audits = append(v.Audits, LedgerAudit{a.Line, a.Time, a.AuditID, a.By, a.Mechanism, priv, a.Private, a.User})
	}
	return v, nil
}

// PrivacyWords is a privacy statement in words: ε and δ, or the framework's pair.
func PrivacyWords(p job.Privacy) string {
	if p.Framework == ledger.Framework {
		return fmt.Sprintf("ε = %s, δ = %s", words.Num(p.Epsilon), words.Num(p.Delta))
	}
	return p.Pair.String()
}
