package ledger

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/graphdp/graphdp/internal/files"
)

// This file is what makes a release's charge something the ledger proved rather
// than something it was told (docs/LEDGER.md, "What a release is charged"). An
// audit entry records that one mechanism — identified by every byte a release
// reads — passed graphdp's exact audit under one privacy statement; a release is
// charged that statement, and only a mechanism with such an entry is released.
//
// The identity is keyed. A mechanism holds every true answer, so a plain hash of
// it would let whoever has the public graph test candidate answers against the
// ledger. The ledger's key (32 random bytes in the file KeyFile names, mode 0600,
// never in the ledger itself) turns each fingerprint into an HMAC-SHA256 that says
// nothing without it: the ledger itself can be shared.

// Audit is one exact audit of a mechanism, recorded by `graphdp run --ledger`
// (after its audit) or `graphdp verify --ledger`.
type Audit struct {
	Kind    string `json:"kind"`
	Prev    string `json:"prev"`
	Time    string `json:"time"`
	AuditID string `json:"audit_id"` // 128 random bits in hex; releases name it
	By      string `json:"by"`       // the command that audited: run or verify
	// Mechanism is the mechanism's path as given (a guide for people: MechanismHMAC
	// is what identifies it).
	Mechanism string `json:"mechanism"`
	// MechanismHMAC is Key.Sum of the mechanism table's fingerprint (the SHA-256
	// of its file, or of its parts' SHA-256s); GraphHMAC of the graph's (its
	// vertices' and edges' fingerprints, a newline after each).
	MechanismHMAC string `json:"mechanism_hmac"`
	GraphHMAC     string `json:"graph_hmac"`
	Framework     string `json:"framework"` // the ledger's
	// Privacy is the statement the audit checked, as the mechanism's metadata
	// writes it (graphdp.framework and its parameters' keys).
	Privacy map[string]string `json:"privacy"`
	// Private is the audit's verdict: every dataset's every inequality held.
	Private bool   `json:"private"`
	User    string `json:"user"`
}

// AuditAt is an audit entry with its line number.
type AuditAt struct {
	Line int
	Audit
}

// Who records audits.
const (
	ByRun    = "run"
	ByVerify = "verify"
)

func (a *Audit) check() error {
	if !isHex(a.AuditID, 32) {
		return badLine("audit entry: audit id %q is not 32 hex digits", a.AuditID)
	}
	if a.By != ByRun && a.By != ByVerify {
		return badLine("audit entry: by %q is not %q or %q", a.By, ByRun, ByVerify)
	}
	if !isHex(a.MechanismHMAC, 64) || !isHex(a.GraphHMAC, 64) {
		return badLine("audit entry: mechanism_hmac and graph_hmac must be 64 hex digits")
	}
	if a.Framework != Framework && a.Framework != FrameworkGDP {
		return badFramework(KindAudit, a.Framework)
	}
	if len(a.Privacy) == 0 || a.Privacy["graphdp.framework"] == "" {
		return badLine("audit entry: privacy states no graphdp.framework")
	}
	for k := range a.Privacy {
		if !strings.HasPrefix(k, "graphdp.") {
			return badLine("audit entry: privacy key %q is not a graphdp.* key", k)
		}
	}
	return nil
}

// applyAudit adds a verified audit entry at line n.
func (l *Ledger) applyAudit(n int, a *Audit) error {
	if a.Framework != l.Header.Framework {
		return badLine("audit entry: framework %q in a %q ledger", a.Framework, l.Header.Framework)
	}
	if at, dup := l.auditID[a.AuditID]; dup {
		return badLine("audit entry: audit id %s was already recorded at line %d", a.AuditID, l.Audits[at].Line)
	}
	l.auditID[a.AuditID] = len(l.Audits)
	l.Audits = append(l.Audits, AuditAt{n, *a})
	return nil
}

// auditOf is the audit a release entry names: recorded before it, with the
// verdict private (graphdp never charges a release by any other).
func (l *Ledger) auditOf(r *Release) error {
	i, ok := l.auditID[r.Audit]
	if !ok {
		return badLine("release entry: audit %s is not recorded before it", r.Audit)
	}
	if !l.Audits[i].Private {
		return badLine("release entry: audit %s (line %d) found the mechanism not private; graphdp never releases such a mechanism", r.Audit, l.Audits[i].Line)
	}
	return nil
}

// Find is the latest audit whose mechanism_hmac is mac, ok false if none.
func (l *Ledger) Find(mac string) (AuditAt, bool) {
	for i := len(l.Audits) - 1; i >= 0; i-- {
		if hmac.Equal([]byte(l.Audits[i].MechanismHMAC), []byte(mac)) {
			return l.Audits[i], true
		}
	}
	return AuditAt{}, false
}

// AppendAudit records a (its Kind, Prev, Time, AuditID, Framework and User are set
// here) in one write followed by fsync, and returns the entry as written.
func (w *Writer) AppendAudit(a Audit, now time.Time) (*Audit, error) {
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, fmt.Errorf("ledger %s: audit id: %w", w.File, err)
	}
	a.Kind, a.Prev, a.Time, a.AuditID, a.Framework, a.User = KindAudit, w.Head, stamp(now), hex.EncodeToString(id[:]), w.Header.Framework, User()
	if err := a.check(); err != nil {
		return nil, &Error{File: w.File, Kind: ErrUsage, Msg: err.Error()}
	}
	if err := w.append(&a); err != nil {
		return nil, err
	}
	return &a, nil
}

// Key is a ledger's secret: the HMAC key of its audit entries' fingerprints.
type Key struct {
	k    []byte
	File string
}

// KeyFile is the file holding the key of the ledger at path: path + ".key".
func KeyFile(path string) string { return path + ".key" }

// keyLen is the key's length in bytes; its file holds it in hex and a newline.
const keyLen = 32

// Sum is the keyed fingerprint of a fingerprint (a table's SHA-256 in hex) of the
// kind what ("mechanism", "graph"): HMAC-SHA256 over what, a newline and fp.
func (k Key) Sum(what, fp string) string {
	m := hmac.New(sha256.New, k.k)
	m.Write([]byte(what + "\n" + fp))
	return hex.EncodeToString(m.Sum(nil))
}

// ReadKey reads the key of the ledger at path. A missing key file is ErrMissing,
// naming what to do: audits recorded with a key that is lost identify nothing, so
// its mechanisms must be audited again.
func ReadKey(path string) (Key, error) {
	f := KeyFile(path)
	data, err := os.ReadFile(f)
	if errors.Is(err, fs.ErrNotExist) {
		return Key{}, &Error{File: path, Kind: ErrMissing, Msg: "its key file " + f + " does not exist: record an audit (graphdp verify --ledger " + path + " …, or graphdp run --ledger " + path + " …) and it is made"}
	}
	if err != nil {
		return Key{}, fmt.Errorf("ledger %s: key: %w", path, err)
	}
	k, err := hex.DecodeString(string(bytes.TrimSuffix(data, []byte("\n"))))
	if err != nil || len(k) != keyLen {
		return Key{}, &Error{File: path, Kind: ErrBroken, Msg: "its key file " + f + " is not 64 hex digits and a newline"}
	}
	return Key{k: k, File: f}, nil
}

// MakeKey reads the ledger's key, creating its file (32 bytes from crypto/rand,
// mode 0600, never replacing a file) when there is none.
func MakeKey(path string) (Key, error) {
	k, err := ReadKey(path)
	var le *Error
	if err == nil || !errors.As(err, &le) || le.Kind != ErrMissing {
		return k, err
	}
	b := make([]byte, keyLen)
	if _, err := rand.Read(b); err != nil {
		return Key{}, fmt.Errorf("ledger %s: key: %w", path, err)
	}
	f := KeyFile(path)
	out, err := os.OpenFile(f, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return ReadKey(path) // made meanwhile by another writer
	}
	if err != nil {
		return Key{}, fmt.Errorf("ledger %s: create key %s: %w", path, f, err)
	}
	_, err = out.WriteString(hex.EncodeToString(b) + "\n")
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = files.SyncDir(filepath.Dir(f))
	}
	if err != nil {
		os.Remove(f)
		return Key{}, fmt.Errorf("ledger %s: write key %s: %w", path, f, err)
	}
	return Key{k: b, File: f}, nil
}
