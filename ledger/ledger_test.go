package ledger

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// newLedger creates a ledger with budget b and records the releases (each one
// dataset list at one (ε, δ)); it returns the path.
func newLedger(t *testing.T, b Budget, releases ...Release) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ledger.jsonl")
	if _, err := Init(path, b, t0); err != nil {
		t.Fatal(err)
	}
	for i, r := range releases {
		w, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if r.ReleaseID == "" {
			r.ReleaseID = strings.Repeat("0", 31) + string(rune('a'+i%6))
			if i >= 6 {
				r.ReleaseID = strings.Repeat("1", 30) + string(rune('a'+i/6)) + string(rune('a'+i%6))
			}
		}
		if r.MechanismSHA256 == "" {
			r.MechanismSHA256 = strings.Repeat("ab", 32)
		}
		if r.Source == "" {
			r.Source = SourceMetadata
		}
		if over, _ := w.Check(r.Datasets, Point{r.Epsilon, r.Delta}, 10); len(over) > 0 {
			t.Fatalf("release %d over budget: %+v", i, over)
		}
		if err := w.AppendRelease(r, t0.Add(time.Duration(i+1)*time.Second)); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	return path
}

func rel(eps, delta float64, ids ...string) Release {
	return Release{Mechanism: "m.parquet", Epsilon: eps, Delta: delta, Datasets: ids}
}

// lines splits a ledger file into its lines (without newlines).
func lines(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}

func join(ls [][]byte) []byte { return append(bytes.Join(ls, []byte("\n")), '\n') }

// brokenAt asserts that data fails to parse at line n with a message containing want.
func brokenAt(t *testing.T, name string, data []byte, n int, want string) {
	t.Helper()
	_, err := Parse("L", data)
	var le *Error
	if !errors.As(err, &le) || le.Line != n || !strings.Contains(le.Msg, want) {
		t.Errorf("%s: got %v, want line %d: …%s…", name, err, n, want)
	}
}

// Init makes a 0600 file with one budget line, and never replaces a file.
func TestInit(t *testing.T) {
	path := newLedger(t, Budget{1, 1e-6, 0})
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	l, err := Read(path)
	if err != nil || l.Lines != 1 || l.Budget != (Budget{1, 1e-6, 0}) || l.Header.Framework != Framework || l.Header.User == "" {
		t.Fatalf("%+v, %v", l, err)
	}
	before, _ := os.ReadFile(path)
	_, err = Init(path, Budget{5, 0, 0}, t0)
	var le *Error
	if !errors.As(err, &le) || le.Kind != ErrExists {
		t.Errorf("init over a ledger: %v", err)
	}
	other := filepath.Join(t.TempDir(), "v.csv")
	os.WriteFile(other, []byte("id,answer\n1,0"), 0o644)
	if _, err := Init(other, Budget{1, 0, 0}, t0); !errors.As(err, &le) || le.Kind != ErrExists {
		t.Errorf("init over a CSV: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Errorf("init changed an existing ledger")
	}
	if got, _ := os.ReadFile(other); string(got) != "id,answer\n1,0" {
		t.Errorf("init changed a CSV: %q", got)
	}
	if _, err := Init(filepath.Join(t.TempDir(), "x"), Budget{-1, 0, 0}, t0); !errors.As(err, &le) || le.Kind != ErrUsage {
		t.Errorf("negative budget: %v", err)
	}
}

// Every kind of tampering is refused with the first broken line named: an edited
// entry, an edited hash, a deleted line, two lines swapped, a line copied, a
// forged line appended; a truncation at a line boundary is caught by a head noted
// before (HeadAt).
func TestTamperEvident(t *testing.T) {
	path := newLedger(t, Budget{2, 1e-5, 0}, rel(0.5, 0, "1", "2"), rel(0.5, 1e-6, "2"), rel(0.25, 0, "3"))
	ls := lines(t, path)
	if _, err := Parse("L", join(ls)); err != nil {
		t.Fatalf("the ledger itself: %v", err)
	}
	edit := func(i int, from, to string) [][]byte {
		c := append([][]byte(nil), ls...)
		c[i] = bytes.Replace(c[i], []byte(from), []byte(to), 1)
		if bytes.Equal(c[i], ls[i]) {
			t.Fatalf("edit %q of line %d changed nothing", from, i+1)
		}
		return c
	}
	brokenAt(t, "ε edited", join(edit(1, `"epsilon":0.5`, `"epsilon":0.1`)), 2, "does not match its sha256")
	brokenAt(t, "last line edited", join(edit(3, `"epsilon":0.25`, `"epsilon":0.2`)), 4, "does not match its sha256")
	brokenAt(t, "budget edited", join(edit(0, `"budget_epsilon":2`, `"budget_epsilon":9`)), 1, "does not match its sha256")
	brokenAt(t, "hash edited", join(edit(2, `"sha256":"`, `"sha256":"0`)), 3, "")
	del := append(append([][]byte(nil), ls[:1]...), ls[2:]...)
	brokenAt(t, "line deleted", join(del), 2, "prev does not match")
	swap := [][]byte{ls[0], ls[2], ls[1], ls[3]}
	brokenAt(t, "lines swapped", join(swap), 2, "prev does not match")
	dup := append(append([][]byte(nil), ls...), ls[3])
	brokenAt(t, "line copied", join(dup), 5, "prev does not match")
	forged := []byte(`{"entry":{"kind":"raise","prev":"` + strings.Repeat("0", 64) + `","time":"2026-01-01T00:00:00Z","framework":"epsilon-delta","budget_epsilon":50,"budget_delta":0.1,"user":"x","reason":"y"},"sha256":"` + strings.Repeat("1", 64) + `"}`)
	brokenAt(t, "forged line", join(append(append([][]byte(nil), ls...), forged)), 5, "does not match its sha256")
	// Truncated at a line boundary: the chain is intact, but a head noted before
	// is no longer in it.
	l, _ := Parse("L", join(ls))
	cut, err := Parse("L", join(ls[:3]))
	if err != nil || cut.HeadAt(l.Head) != 0 || l.HeadAt(l.Head) != 4 || cut.HeadAt(cut.Head) != 3 {
		t.Errorf("HeadAt after truncation: %v", err)
	}
}

// Lines that decode but are not entries graphdp writes are refused, each naming the
// line: negative ε, null, {}, unknown or missing fields,
// non-canonical bytes, a raise that lowers — even with a correct hash and chain.
func TestStrictEntries(t *testing.T) {
	path := newLedger(t, Budget{2, 1e-5, 0}, rel(0.5, 0, "1"))
	ls := lines(t, path)
	head := string(ls[1][bytes.LastIndex(ls[1], []byte(`"sha256":"`))+10:][:64])
	// chained frames body as line 3, with a correct hash and prev.
	chained := func(body string) []byte {
		body = strings.Replace(body, "PREV", head, 1)
		line := linePrefix + body + lineMiddle + sha256Hex([]byte(body)) + lineSuffix
		return join([][]byte{ls[0], ls[1], []byte(line)})
	}
	const relBody = `{"kind":"release","prev":"PREV","time":"2026-01-01T00:00:00Z","release_id":"0123456789abcdef0123456789abcdef","mechanism":"m","mechanism_sha256":"` +
		"abababababababababababababababababababababababababababababababab" + `","framework":"epsilon-delta","epsilon":EPS,"delta":0,"source":"metadata","datasets":["2"]}`
	if _, err := Parse("L", chained(strings.Replace(relBody, "EPS", "0.5", 1))); err != nil {
		t.Fatalf("a well-formed line: %v", err)
	}
	for _, c := range []struct{ name, body, want string }{
		{"negative ε", strings.Replace(relBody, "EPS", "-1", 1), "not a finite number ≥ 0"},
		{"ε null", strings.Replace(relBody, "EPS", "null", 1), `"epsilon" is null`},
		{"empty object", `{}`, "no known kind"},
		{"null", `null`, "not a JSON object"},
		{"unknown field", strings.TrimSuffix(strings.Replace(relBody, "EPS", "0.5", 1), "}") + `,"note":"x"}`, `unknown field "note"`},
		{"missing field", strings.Replace(strings.Replace(relBody, "EPS", "0.5", 1), `"source":"metadata",`, "", 1), `"source" is missing`},
		{"repeated key", strings.Replace(strings.Replace(relBody, "EPS", "0.5", 1), `"delta":0,`, `"delta":0,"delta":0,`, 1), "one form graphdp writes"},
		{"spaces", strings.Replace(strings.Replace(relBody, "EPS", "0.5", 1), `"delta":0`, `"delta": 0`, 1), "one form graphdp writes"},
		{"number form", strings.Replace(relBody, "EPS", "5e-1", 1), "one form graphdp writes"},
		{"over budget", strings.Replace(relBody, "EPS", "3", 1), "past the budget"},
		{"no datasets", strings.Replace(strings.Replace(relBody, "EPS", "0.5", 1), `["2"]`, `[]`, 1), "no datasets"},
		{"dataset twice", strings.Replace(strings.Replace(relBody, "EPS", "0.5", 1), `["2"]`, `["2","2"]`, 1), "listed twice"},
		{"other framework", strings.Replace(strings.Replace(relBody, "EPS", "0.5", 1), "epsilon-delta", "zcdp", 1), "privacy framework"},
		{"lowering raise", `{"kind":"raise","prev":"PREV","time":"2026-01-01T00:00:00Z","framework":"epsilon-delta","budget_epsilon":1,"budget_delta":0.00001,"user":"u","reason":"r"}`, "a raise only raises"},
		{"second budget", strings.Replace(string(ls[0][len(linePrefix):bytes.LastIndex(ls[0], []byte(lineMiddle))]), `"prev":""`, `"prev":"PREV"`, 1), "second budget"},
	} {
		brokenAt(t, c.name, chained(c.body), 3, c.want)
	}
}

// A file that is not a ledger is refused, untouched, whatever it holds:
// Parquet bytes, a CSV without its trailing newline, an empty file.
func TestNotALedgerUntouched(t *testing.T) {
	dir := t.TempDir()
	pq, err := os.ReadFile("../configs/example/vertices.parquet")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"vertices.parquet": pq, "v.csv": []byte("id,answer\n1,0\n2,1"), "empty.jsonl": nil} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		for _, op := range []func() error{
			func() error { w, err := Open(path); w.Close(); return err },
			func() error { _, err := Read(path); return err },
			func() error { _, err := RepairFile(path, "r", t0); return err },
		} {
			func() {
				defer func() { recover() }() // w is nil on error: Close panics, the error was what mattered
				err := op()
				var le *Error
				if !errors.As(err, &le) || (le.Kind != ErrNotLedger) {
					t.Errorf("%s: %v", name, err)
				}
			}()
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
			t.Errorf("%s was changed", name)
		}
	}
}

// The last line without its newline: a complete entry counts (it is charged, and
// the next append completes the line); an incomplete one is
// refused naming it, until repair removes it and records that it did.
func TestUnterminatedLastLine(t *testing.T) {
	path := newLedger(t, Budget{1, 0, 0}, rel(0.5, 0, "1"), rel(0.5, 0, "1"))
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.TrimSuffix(data, []byte("\n")), 0o600)
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if over, _ := w.Check([]string{"1"}, Point{0.5, 0}, 1); len(over) != 1 {
		t.Errorf("the unterminated entry was not charged: 3 × 0.5 fits a budget of 1")
	}
	r2 := rel(0.25, 0, "2")
	r2.ReleaseID, r2.MechanismSHA256, r2.Source = strings.Repeat("9", 32), strings.Repeat("9", 64), SourceStated
	if err := w.AppendRelease(r2, t0); err != nil {
		t.Fatal(err)
	}
	w.Close()
	l, err := Read(path)
	if err != nil || l.Lines != 4 {
		t.Fatalf("after append: %v, %+v", err, l)
	}

	// A cut-short line: refused, naming it; repair drops it, recorded.
	data, _ = os.ReadFile(path)
	cut := append(append([]byte(nil), data...), []byte(`{"entry":{"kind":"release","prev":"`)...)
	os.WriteFile(path, cut, 0o600)
	_, err = Open(path)
	var le *Error
	if !errors.As(err, &le) || le.Kind != ErrIncomplete || le.Line != 5 || !strings.Contains(le.Msg, "graphdp ledger repair") {
		t.Fatalf("cut-short line: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, cut) {
		t.Errorf("reading changed the file")
	}
	r, err := RepairFile(path, "crash during release", t0)
	if err != nil || r.DroppedBytes != int64(len(cut)-len(data)) || r.DroppedSHA256 != sha256Hex(cut[len(data):]) {
		t.Fatalf("repair: %+v, %v", r, err)
	}
	l, err = Read(path)
	if err != nil || l.Lines != 5 || len(l.Repairs) != 1 || l.Repairs[0].Reason != "crash during release" {
		t.Fatalf("after repair: %v", err)
	}
	if _, err := RepairFile(path, "again", t0); !errors.As(err, &le) || le.Kind != ErrUsage {
		t.Errorf("repair of a sound ledger: %v", err)
	}
	// Repair refuses anything but an incomplete last line.
	ls := lines(t, path)
	bad := join(append([][]byte{ls[0], ls[2], ls[1]}, ls[3:]...))
	os.WriteFile(path, append(bad, "{"...), 0o600)
	if _, err := RepairFile(path, "r", t0); !errors.As(err, &le) || le.Kind != ErrBroken || le.Line != 2 {
		t.Errorf("repair of a reordered ledger: %v", err)
	}
}

// Rollback removes exactly the last append (and the newline it added).
func TestRollback(t *testing.T) {
	path := newLedger(t, Budget{1, 0, 0}, rel(0.5, 0, "1"))
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.TrimSuffix(data, []byte("\n")), 0o600)
	before, _ := os.ReadFile(path)
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AppendRelease(rel(0.5, 0, "2"), t0); err != nil {
		t.Fatal(err)
	}
	if err := w.Rollback(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Errorf("rollback left:\n%s", after)
	}
}

// Raise only raises, needs a reason, and is recorded with its user.
func TestRaise(t *testing.T) {
	path := newLedger(t, Budget{1, 1e-6, 0}, rel(1, 0, "1"))
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var le *Error
	for _, c := range []struct {
		b      Budget
		reason string
	}{{Budget{0.5, 1e-6, 0}, "lower"}, {Budget{2, 0, 0}, "lower δ"}, {Budget{1, 1e-6, 0}, "same"}, {Budget{2, 1e-6, 0}, " "}} {
		if err := w.Raise(c.b, c.reason, t0); !errors.As(err, &le) || le.Kind != ErrUsage {
			t.Errorf("raise to %v (%q): %v", c.b, c.reason, err)
		}
	}
	if over, _ := w.Check([]string{"1"}, Point{0.5, 0}, 1); len(over) != 1 {
		t.Errorf("dataset 1 has room before the raise")
	}
	if err := w.Raise(Budget{2, 1e-6, 0}, "quarterly review", t0); err != nil {
		t.Fatal(err)
	}
	w.Close()
	l, err := Read(path)
	if err != nil || l.Budget != (Budget{2, 1e-6, 0}) || len(l.Raises) != 1 || l.Raises[0].Reason != "quarterly review" || l.Raises[0].User != User() || l.Raises[0].Line != 3 {
		t.Fatalf("%v %+v", err, l)
	}
	if over, _ := l.Check([]string{"1"}, Point{0.5, 0}, 1); len(over) != 0 {
		t.Errorf("no room after the raise")
	}
}

// Any line the ledger writes it reads back: a 2 MiB dataset id.
func TestLongLine(t *testing.T) {
	id := strings.Repeat("x", 2<<20)
	path := newLedger(t, Budget{1, 0, 0}, rel(0.5, 0, id), rel(0.5, 0, id))
	l, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := l.Account(id); !ok || a.Releases != 2 || a.Spent.Epsilon != 1 {
		t.Errorf("%+v", a)
	}
}

// Accounts against a recount of the file: releases per dataset, basic sums, and
// the most spent first.
func TestAccountsRecount(t *testing.T) {
	rs := []Release{rel(0.5, 1e-7, "a", "b"), rel(1, 0, "b", "c"), rel(0.25, 0, "a"), rel(0.5, 1e-7, "d"), rel(0.5, 1e-7, "d")}
	for range 10 {
		rs = append(rs, rel(0.1, 0, "e"))
	}
	path := newLedger(t, Budget{3, 1e-3, 0}, rs...)
	l, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// Recount from the lines themselves.
	type sum struct {
		n          int
		eps, delta float64
	}
	want := map[string]sum{}
	for _, r := range l.Releases {
		for _, d := range r.Datasets {
			s := want[d]
			want[d] = sum{s.n + 1, s.eps + r.Epsilon, s.delta + r.Delta}
		}
	}
	acc := l.Accounts()
	if len(acc) != len(want) {
		t.Fatalf("%d accounts, want %d", len(acc), len(want))
	}
	for i, a := range acc {
		w := want[a.ID]
		if a.Releases != w.n || math.Abs(a.Basic.Epsilon-w.eps) > 1e-15 || a.Basic.Epsilon < w.eps || a.Basic.Delta < w.delta {
			t.Errorf("%s: %+v, recount %+v", a.ID, a, w)
		}
		// Never above basic composition's ε; a δ above basic's only within the budget.
		if a.Spent.Epsilon > a.Basic.Epsilon || (a.Spent.Delta > a.Basic.Delta && a.Spent.Delta > 1e-3) {
			t.Errorf("%s: charged %+v, basic %+v", a.ID, a.Spent, a.Basic)
		}
		if i > 0 && acc[i-1].Spent.Epsilon < a.Spent.Epsilon {
			t.Errorf("not most spent first: %s after %s", a.ID, acc[i-1].ID)
		}
		if a.Remaining.Epsilon != subDown(3, a.Spent.Epsilon) || a.Remaining.Delta != subDown(1e-3, a.Spent.Delta) {
			t.Errorf("%s: remaining %v", a.ID, a.Remaining)
		}
	}
	if acc[0].ID != "b" || acc[0].Spent.Epsilon != 1.5 || acc[0].Spent.Method != MethodBasic {
		t.Errorf("first: %+v", acc[0])
	}
	// e: ten releases at ε = 0.1, δ = 0. The budget's δ = 1e-3 admits the KOV
	// point i = 1, (0.8, 2.88e-4): g_1 = (e^1 − e^0.8)/(1 + e^0.1)^10 by hand; i = 2
	// needs δ ≈ 3.1e-3.
	e, _ := l.Account("e")
	if e.Spent.Method != MethodOptimal || e.Spent.Epsilon != mulUp(8, 0.1) || math.Abs(e.Spent.Delta-2.88e-4) > 1e-6 || len(e.ReleaseLines) != 10 {
		t.Errorf("e: %+v", e)
	}
	// d: two equal releases with δ; i = 1 needs δ ≈ 0.245, so ε stays 1, at the
	// smaller δ of point 0, 1 − (1 − 1e-7)², below basic's 2e-7.
	d, _ := l.Account("d")
	if d.Spent.Epsilon != 1 || d.Spent.Delta >= 2e-7 || d.Spent.Delta < 1.99e-7 {
		t.Errorf("d: %+v", d)
	}
	if _, ok := l.Account("zz"); ok {
		t.Errorf("an id never released has an account")
	}
}
