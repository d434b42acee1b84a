package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/graphdp/graphdp/internal/words"
)

// Framework is the privacy framework of every entry this version writes: approximate
// differential privacy with parameters (ε, δ). It is recorded in each entry so that
// a ledger stays readable when other frameworks (zCDP, Rényi DP) are added: an
// entry of another framework is refused by this version, never misread.
const Framework = "epsilon-delta"

// FrameworkGDP is the framework of a ledger whose budget is a μ of Gaussian
// differential privacy (`ledger init --gdp-mu`): its budget, raise and release
// entries carry one more field (budget_mu, mu), their ε and δ fields are 0, and a
// dataset's spent μ is √(Σ μᵢ²) over its releases (gdp.go).
const FrameworkGDP = "gdp"

// Version is the format version written in the header.
const Version = 1

// Entry kinds.
const (
	KindBudget  = "budget"  // line 1: the budget set by ledger init
	KindRaise   = "raise"   // the budget raised by ledger raise
	KindRelease = "release" // one release: the datasets it drew and what each spent
	KindRepair  = "repair"  // an incomplete last line dropped by ledger repair
	KindAudit   = "audit"   // a mechanism audited exactly (run or verify): what its releases are charged
)

// Sources of a release's (ε, δ).
const (
	SourceMetadata = "metadata" // read from the mechanism file's metadata
	SourceStated   = "stated"   // given by the operator (a CSV mechanism has no metadata)
	// SourceAudit is every release this version records: charged what the audit
	// entry it names proved (audit.go).
	SourceAudit = "audit"
)

// Header is line 1, written by Init: the ledger's identity and its first budget.
type Header struct {
	Kind          string  `json:"kind"`
	Prev          string  `json:"prev"` // "" (nothing before it)
	Time          string  `json:"time"` // RFC 3339, UTC
	Version       int     `json:"version"`
	Ledger        string  `json:"ledger"` // 128 random bits in hex: tells two ledgers apart
	Framework     string  `json:"framework"`
	BudgetEpsilon float64 `json:"budget_epsilon"`      // the total ε each dataset may spend
	BudgetDelta   float64 `json:"budget_delta"`        // the total δ each dataset may spend
	BudgetMu      float64 `json:"budget_mu,omitempty"` // FrameworkGDP only: the total μ
	User          string  `json:"user"`
}

// Raise is a budget raised by `graphdp ledger raise`: the new totals, who and why.
type Raise struct {
	Kind          string  `json:"kind"`
	Prev          string  `json:"prev"`
	Time          string  `json:"time"`
	Framework     string  `json:"framework"`
	BudgetEpsilon float64 `json:"budget_epsilon"`
	BudgetDelta   float64 `json:"budget_delta"`
	BudgetMu      float64 `json:"budget_mu,omitempty"` // FrameworkGDP only
	User          string  `json:"user"`
	Reason        string  `json:"reason"`
}

// Release is one `graphdp release`: every dataset it drew spent (Epsilon, Delta).
// A release this version writes names the audit entry that proved what it is
// charged (Audit, Source SourceAudit). Ledgers written before audit entries
// existed hold releases with MechanismSHA256 instead (the plain SHA-256 of the
// mechanism's bytes, Source metadata or stated); they still verify and count.
type Release struct {
	Kind            string   `json:"kind"`
	Prev            string   `json:"prev"`
	Time            string   `json:"time"`
	ReleaseID       string   `json:"release_id"` // 128 random bits in hex, also in the release file's metadata
	Mechanism       string   `json:"mechanism"`  // the mechanism file's path, as given
	MechanismSHA256 string   `json:"mechanism_sha256,omitempty"`
	Audit           string   `json:"audit,omitempty"` // the audit_id of the audit entry it was charged by
	Framework       string   `json:"framework"`
	Epsilon         float64  `json:"epsilon"`
	Delta           float64  `json:"delta"`
	Mu              float64  `json:"mu,omitempty"` // FrameworkGDP only: the release's μ
	Source          string   `json:"source"`       // SourceMetadata or SourceStated
	Datasets        []string `json:"datasets"`
}

// Repair is an incomplete last line dropped by `graphdp ledger repair`: how many
// bytes, their SHA-256, who and why.
type Repair struct {
	Kind          string `json:"kind"`
	Prev          string `json:"prev"`
	Time          string `json:"time"`
	DroppedBytes  int64  `json:"dropped_bytes"`
	DroppedSHA256 string `json:"dropped_sha256"`
	User          string `json:"user"`
	Reason        string `json:"reason"`
}

// fields are the keys of each kind's entry, in the order they are written.
var fields = map[string][]string{
	KindBudget:  {"kind", "prev", "time", "version", "ledger", "framework", "budget_epsilon", "budget_delta", "user"},
	KindRaise:   {"kind", "prev", "time", "framework", "budget_epsilon", "budget_delta", "user", "reason"},
	KindRelease: {"kind", "prev", "time", "release_id", "mechanism", "mechanism_sha256", "framework", "epsilon", "delta", "source", "datasets"},
	KindRepair:  {"kind", "prev", "time", "dropped_bytes", "dropped_sha256", "user", "reason"},
	KindAudit:   {"kind", "prev", "time", "audit_id", "by", "mechanism", "mechanism_hmac", "graph_hmac", "framework", "privacy", "private", "user"},
}

// auditedRelease is the keys of a release entry that names its audit (what this
// version writes): fields[KindRelease] with audit in place of mechanism_sha256.
var auditedRelease = []string{"kind", "prev", "time", "release_id", "mechanism", "audit", "framework", "epsilon", "delta", "source", "datasets"}

// Line framing: every line is exactly linePrefix + entry + lineMiddle + hex + lineSuffix.
const (
	linePrefix = `{"entry":`
	lineMiddle = `,"sha256":"`
	lineSuffix = `"}`
)

// encodeLine is the line (without its newline) of entry e and the entry's hash.
func encodeLine(e any) (line []byte, hash string, err error) {
	body, err := canonical(e)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(body)
	hash = hex.EncodeToString(sum[:])
	line = make([]byte, 0, len(linePrefix)+len(body)+len(lineMiddle)+len(hash)+len(lineSuffix))
	line = append(line, linePrefix...)
	line = append(line, body...)
	line = append(line, lineMiddle...)
	line = append(line, hash...)
	line = append(line, lineSuffix...)
	return line, hash, nil
}

// canonical is the one encoding of an entry: encoding/json of its struct (fields in
// declaration order, shortest round-trip numbers, HTML characters escaped), with no
// trailing newline. A line whose entry is not byte-for-byte this encoding of what it
// decodes to is refused, so that no two byte strings mean the same entry.
func canonical(e any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// lineError is a problem with one line (its number set by the reader).
type lineError struct{ msg string }

func (e *lineError) Error() string { return e.msg }

func badLine(format string, a ...any) error { return &lineError{fmt.Sprintf(format, a...)} }

// decoded is one verified line: its hash and its entry (one of the kind structs).
type decoded struct {
	hash  string
	kind  string
	entry any // *Header, *Raise, *Release or *Repair
}

// decodeLine checks a line's framing, hash and entry, and decodes it; prev is the
// hash the entry must name (the previous line's, "" for line 1).
func decodeLine(line []byte, prev string) (*decoded, error) {
	if !bytes.HasPrefix(line, []byte(linePrefix)) || !bytes.HasSuffix(line, []byte(lineSuffix)) ||
		len(line) < len(linePrefix)+len(lineMiddle)+64+len(lineSuffix) {
		return nil, badLine("not a ledger line (each line of a graphdp ledger is {\"entry\":{…},\"sha256\":\"…\"})")
	}
	tail := line[len(line)-len(lineSuffix)-64-len(lineMiddle):]
	if !bytes.HasPrefix(tail, []byte(lineMiddle)) {
		return nil, badLine("not a ledger line (each line of a graphdp ledger is {\"entry\":{…},\"sha256\":\"…\"})")
	}
	hash := string(tail[len(lineMiddle) : len(lineMiddle)+64])
	if !isHex(hash, 64) {
		return nil, badLine("its sha256 is not 64 lowercase hex digits")
	}
	body := line[len(linePrefix) : len(line)-len(tail)]
	sum := sha256.Sum256(body)
	if hex.EncodeToString(sum[:]) != hash {
		return nil, badLine("its entry does not match its sha256: the line was changed after it was written")
	}
	// The keys: exactly the kind's, none null.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil || raw == nil {
		return nil, badLine("its entry is not a JSON object")
	}
	var kind string
	if k, ok := raw["kind"]; !ok || json.Unmarshal(k, &kind) != nil || fields[kind] == nil {
		return nil, badLine("its entry has no known kind (budget, raise, release, repair or audit)")
	}
	want := wantFields(kind, raw)
	for _, f := range want {
		v, ok := raw[f]
		switch {
		case !ok:
			return nil, badLine("%s entry: field %q is missing", kind, f)
		case string(v) == "null":
			return nil, badLine("%s entry: field %q is null", kind, f)
		}
	}
	for f := range raw {
		if !slices.Contains(want, f) {
			return nil, badLine("%s entry: unknown field %q", kind, f)
		}
	}
	var e any
	switch kind {
	case KindBudget:
		e = new(Header)
	case KindRaise:
		e = new(Raise)
	case KindRelease:
		e = new(Release)
	case KindRepair:
		e = new(Repair)
	case KindAudit:
		e = new(Audit)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(e); err != nil {
		return nil, badLine("%s entry: %v", kind, err)
	}
	if err := validate(e, prev); err != nil {
		return nil, err
	}
	again, err := canonical(e)
	if err != nil || !bytes.Equal(again, body) {
		return nil, badLine("%s entry: not in the one form graphdp writes (fields in order, no spaces, shortest numbers, no repeated keys)", kind)
	}
	return &decoded{hash: hash, kind: kind, entry: e}, nil
}

// validate checks an entry's values and that it names prev.
func validate(e any, prev string) error {
	var (
		kind, gotPrev, when string
	)
	switch x := e.(type) {
	case *Header:
		kind, gotPrev, when = x.Kind, x.Prev, x.Time
		if x.Version != Version {
			return badLine("budget entry: format version %d; this graphdp reads version %d", x.Version, Version)
		}
		if !isHex(x.Ledger, 32) {
			return badLine("budget entry: ledger id %q is not 32 hex digits", x.Ledger)
		}
		if err := checkBudgetEntry(kind, x.Framework, x.BudgetEpsilon, x.BudgetDelta, x.BudgetMu); err != nil {
			return err
		}
	case *Raise:
		kind, gotPrev, when = x.Kind, x.Prev, x.Time
		if err := checkBudgetEntry(kind, x.Framework, x.BudgetEpsilon, x.BudgetDelta, x.BudgetMu); err != nil {
			return err
		}
		if strings.TrimSpace(x.Reason) == "" {
			return badLine("raise entry: no reason")
		}
	case *Release:
		kind, gotPrev, when = x.Kind, x.Prev, x.Time
		if !isHex(x.ReleaseID, 32) {
			return badLine("release entry: release id %q is not 32 hex digits", x.ReleaseID)
		}
		if x.Audit != "" {
			if !isHex(x.Audit, 32) {
				return badLine("release entry: audit %q is not 32 hex digits", x.Audit)
			}
			if x.Source != SourceAudit {
				return badLine("release entry: source %q; a release that names its audit is charged what the audit proved (source %q)", x.Source, SourceAudit)
			}
		} else {
			if !isHex(x.MechanismSHA256, 64) {
				return badLine("release entry: mechanism_sha256 is not 64 hex digits")
			}
			if x.Source != SourceMetadata && x.Source != SourceStated {
				return badLine("release entry: source %q is not %q or %q", x.Source, SourceMetadata, SourceStated)
			}
		}
		if err := checkReleaseCharge(x); err != nil {
			return err
		}
		if len(x.Datasets) == 0 {
			return badLine("release entry: no datasets")
		}
		seen := make(map[string]struct{}, len(x.Datasets))
		for _, d := range x.Datasets {
			if _, dup := seen[d]; dup {
				return badLine("release entry: dataset %s listed twice", words.Quote(d))
			}
			seen[d] = struct{}{}
		}
	case *Audit:
		kind, gotPrev, when = x.Kind, x.Prev, x.Time
		if err := x.check(); err != nil {
			return err
		}
	case *Repair:
		kind, gotPrev, when = x.Kind, x.Prev, x.Time
		if x.DroppedBytes <= 0 || !isHex(x.DroppedSHA256, 64) {
			return badLine("repair entry: dropped_bytes must be > 0 and dropped_sha256 64 hex digits")
		}
		if strings.TrimSpace(x.Reason) == "" {
			return badLine("repair entry: no reason")
		}
	}
	if gotPrev != prev {
		if prev == "" {
			return badLine("%s entry: prev is %q; the first line names no previous line", kind, gotPrev)
		}
		return badLine("%s entry: prev does not match the sha256 of the line before it (%s…): a line was removed, inserted or moved", kind, prev[:12])
	}
	if _, err := time.Parse(time.RFC3339Nano, when); err != nil || !strings.HasSuffix(when, "Z") {
		return badLine("%s entry: time %q is not an RFC 3339 UTC time", kind, when)
	}
	return nil
}

// CheckCharge rejects what no release may spend: ε that is negative, NaN or
// infinite, δ outside [0, 1).
func CheckCharge(epsilon, delta float64) error {
	if math.IsNaN(epsilon) || math.IsInf(epsilon, 0) || epsilon < 0 {
		return fmt.Errorf("ε = %v is not a finite number ≥ 0", epsilon)
	}
	if math.IsNaN(delta) || delta < 0 || delta >= 1 {
		return fmt.Errorf("δ = %v is not in [0, 1)", delta)
	}
	return nil
}

// CheckBudget rejects a budget that is not ε finite ≥ 0 and δ in [0, 1].
func CheckBudget(epsilon, delta float64) error {
	if math.IsNaN(epsilon) || math.IsInf(epsilon, 0) || epsilon < 0 {
		return fmt.Errorf("budget ε = %v is not a finite number ≥ 0", epsilon)
	}
	if math.IsNaN(delta) || delta < 0 || delta > 1 {
		return fmt.Errorf("budget δ = %v is not in [0, 1]", delta)
	}
	return nil
}

func checkBudget(kind string, epsilon, delta float64) error {
	if err := CheckBudget(epsilon, delta); err != nil {
		return badLine("%s entry: %v", kind, err)
	}
	return nil
}

// isHex reports whether s is n lowercase hex digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// ValidID reports whether a dataset id can be recorded exactly: JSON text holds
// valid UTF-8 only (an invalid byte would be written as U+FFFD, and the ledger would
// then charge a different id than the one released).
func ValidID(id string) bool { return utf8.ValidString(id) }
