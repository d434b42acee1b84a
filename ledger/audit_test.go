package ledger

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// audit appends an audit entry of fingerprint fp with the verdict private to the
// ledger at path and returns it as written.
func audit(t *testing.T, path, fp string, private bool) *Audit {
	t.Helper()
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	k, err := MakeKey(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.AppendAudit(Audit{By: ByVerify, Mechanism: "m.parquet", MechanismHMAC: k.Sum("mechanism", fp), GraphHMAC: k.Sum("graph", "g"),
		Privacy: map[string]string{"graphdp.framework": "epsilon-delta", "graphdp.epsilon": "1", "graphdp.delta": "0"}, Private: private}, t0)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// chargeBy appends a release charged by the audit id (the form this version writes).
func chargeBy(t *testing.T, path, audit, releaseID string) error {
	t.Helper()
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	return w.AppendRelease(Release{ReleaseID: releaseID, Mechanism: "m.parquet", Audit: audit, Epsilon: 1, Source: SourceAudit, Datasets: []string{"x"}}, t0)
}

// Audit entries: written and read back strictly; found by their keyed
// fingerprint only with the ledger's key (another key, or the plain fingerprint,
// finds nothing); the key file is 0600 and made by Init; a release names its audit
// and is charged by it.
func TestAuditEntries(t *testing.T) {
	path := newLedger(t, Budget{Epsilon: 5})
	fi, err := os.Stat(KeyFile(path))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", fi, err)
	}
	a := audit(t, path, "fp1", true)
	audit(t, path, "fp2", false)
	if err := chargeBy(t, path, a.AuditID, strings.Repeat("c", 32)); err != nil {
		t.Fatal(err)
	}
	l, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ReadKey(path)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := l.Find(k.Sum("mechanism", "fp1"))
	if !ok || got.AuditID != a.AuditID || got.Line != 2 || !got.Private || got.Privacy["graphdp.epsilon"] != "1" {
		t.Errorf("Find: %+v %v", got, ok)
	}
	if _, ok := l.Find(k.Sum("mechanism", "fp3")); ok {
		t.Error("an unaudited fingerprint was found")
	}
	other := Key{k: bytes.Repeat([]byte{7}, keyLen)}
	if _, ok := l.Find(other.Sum("mechanism", "fp1")); ok {
		t.Error("another key's fingerprint was found")
	}
	if k.Sum("mechanism", "fp1") == k.Sum("graph", "fp1") {
		t.Error("the kinds of fingerprint collide")
	}
	data, _ := os.ReadFile(path)
	if bytes.Contains(data, []byte("fp1")) {
		t.Error("the ledger holds a fingerprint in the clear")
	}
	if r := l.Releases[0]; r.Audit != a.AuditID || r.Source != SourceAudit || r.MechanismSHA256 != "" || l.Releases[0].Line != 4 {
		t.Errorf("release: %+v", r)
	}
}

// A release may name only an audit recorded before it whose verdict is private;
// the ledger's reader refuses any other, naming the line, and the strict field
// sets hold for both forms of a release entry.
func TestAuditedReleaseChecked(t *testing.T) {
	path := newLedger(t, Budget{Epsilon: 5})
	bad := audit(t, path, "fp", false)
	good := audit(t, path, "fp2", true)
	l, _ := Read(path)
	line := func(r Release) []byte {
		r.Kind, r.Prev, r.Time, r.Framework = KindRelease, l.Head, stamp(t0), Framework
		b, _, err := encodeLine(&r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	data, _ := os.ReadFile(path)
	base := Release{ReleaseID: strings.Repeat("d", 32), Mechanism: "m", Epsilon: 1, Source: SourceAudit, Datasets: []string{"x"}}
	for _, c := range []struct {
		name string
		r    Release
		want string
	}{
		{"unknown audit", func() Release { r := base; r.Audit = strings.Repeat("e", 32); return r }(), "is not recorded before it"},
		{"not private", func() Release { r := base; r.Audit = bad.AuditID; return r }(), "found the mechanism not private"},
		{"both forms", func() Release {
			r := base
			r.Audit, r.MechanismSHA256 = good.AuditID, strings.Repeat("ab", 32)
			return r
		}(), `unknown field "mechanism_sha256"`},
		{"stated source", func() Release { r := base; r.Audit, r.Source = good.AuditID, SourceStated; return r }(), "is charged what the audit proved"},
	} {
		_, err := Parse(path, append(append(append([]byte(nil), data...), line(c.r)...), '\n'))
		if err == nil || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	ok := base
	ok.Audit = good.AuditID
	if _, err := Parse(path, append(append(append([]byte(nil), data...), line(ok)...), '\n')); err != nil {
		t.Errorf("a release naming a private audit: %v", err)
	}
}

// A missing key is ErrMissing naming what to do, a damaged one is refused, and
// MakeKey never replaces an existing key.
func TestKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "L")
	if _, err := ReadKey(path); err == nil || !strings.Contains(err.Error(), "record an audit") {
		t.Errorf("missing key: %v", err)
	}
	k, err := MakeKey(path)
	if err != nil {
		t.Fatal(err)
	}
	again, err := MakeKey(path)
	if err != nil || again.Sum("mechanism", "x") != k.Sum("mechanism", "x") {
		t.Errorf("MakeKey replaced the key: %v", err)
	}
	os.WriteFile(KeyFile(path), []byte("zz\n"), 0o600)
	if _, err := ReadKey(path); err == nil || !strings.Contains(err.Error(), "not 64 hex digits") {
		t.Errorf("damaged key: %v", err)
	}
}

// nextMu is the largest μ a further release may have: releasing it fits the
// budget as CheckGDP decides, and it is within a few ulps of √(M² − Σ μᵢ²).
func TestNextMu(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := Budget{Mu: 0.01 + 10*r.Float64()}
		var s spend
		for range r.IntN(5) {
			if mu := b.Mu * r.Float64() * 0.6; s.withMu(mu).fits(b) {
				s = s.withMu(mu)
			}
		}
		x := s.nextMu(b)
		if x > 0 && !s.withMu(x).fits(b) {
			t.Fatalf("budget %v, Σμ² = %v: next μ %v does not fit", b.Mu, s.sumSq, x)
		}
		if exact := math.Sqrt(max(b.Mu*b.Mu-s.sumSq, 0)); exact-x > 1e-12*b.Mu {
			t.Fatalf("budget %v, Σμ² = %v: next μ %v, √(M² − Σμ²) = %v", b.Mu, s.sumSq, x, exact)
		}
	}
}
