package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// gdpRel is a μ-GDP release of ids.
func gdpRel(mu float64, ids ...string) Release {
	return Release{Mechanism: "m.parquet", Mu: mu, Datasets: ids}
}

// trueMu is √(Σ μᵢ²) to 200 bits: the real number ComposeMu bounds from above.
func trueMu(mus ...float64) *big.Float {
	s := new(big.Float).SetPrec(400)
	for _, m := range mus {
		x := new(big.Float).SetPrec(400).SetFloat64(m)
		s.Add(s, x.Mul(x, x)) // exact: a float64 square fits in 106 bits
	}
	return new(big.Float).SetPrec(200).Sqrt(s)
}

// ComposeMu is √(Σ μᵢ²) (Dong, Roth & Su 2022, Corollary 3.3), never below the
// real value and at most a few ulps above it; expected values are the formula's.
func TestComposeMu(t *testing.T) {
	for _, c := range []struct {
		mus  []float64
		want float64 // the real √(Σ μᵢ²), when it is a float64 or its nearest
	}{
		{[]float64{1, 1, 1}, math.Sqrt(3)}, // three releases at μ = 1: √3
		{[]float64{3, 4}, 5},               // exact: √25
		{[]float64{2}, 2},                  // one release: its own μ
		{[]float64{1, 1, 1, 1}, 2},         // √4
		{[]float64{0.5, 0.5, 0.5, 0.5}, 1}, // √(4 · 0.25)
	} {
		got := ComposeMu(c.mus...)
		if got < c.want || got > math.Nextafter(math.Nextafter(c.want, 3e300), 3e300) {
			t.Errorf("ComposeMu(%v) = %v, want %v (or at most 2 ulps above)", c.mus, got, c.want)
		}
		if new(big.Float).SetFloat64(got).Cmp(trueMu(c.mus...)) < 0 {
			t.Errorf("ComposeMu(%v) = %v is below the true value %v", c.mus, got, trueMu(c.mus...))
		}
	}
	if got := ComposeMu(3, 4); got != 5 {
		t.Errorf("ComposeMu(3, 4) = %v; exact squares and root round to 5 itself", got)
	}
	// Upward on random inputs: never below the real √(Σ μᵢ²).
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		mus := make([]float64, 1+r.IntN(20))
		for i := range mus {
			mus[i] = r.Float64() * math.Pow(10, float64(r.IntN(6)-3))
		}
		got := ComposeMu(mus...)
		tr := trueMu(mus...)
		if new(big.Float).SetFloat64(got).Cmp(tr) < 0 {
			t.Fatalf("ComposeMu(%v) = %v below the true %v", mus, got, tr)
		}
		if f, _ := tr.Float64(); got > f*(1+1e-14) {
			t.Fatalf("ComposeMu(%v) = %v, far above the true %v", mus, got, f)
		}
	}
}

// A μ-GDP ledger charges each dataset √(Σ μᵢ²) over its releases: three releases
// at μ = 1 spend √3, a dataset in one of them 1; a raise raises μ.
func TestGDPLedgerComposes(t *testing.T) {
	path := newLedger(t, Budget{Mu: 2}, gdpRel(1, "a", "b"), gdpRel(1, "a"), gdpRel(1, "a"))
	l, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !l.GDP() || l.Header.Framework != FrameworkGDP || l.Budget != (Budget{Mu: 2}) || l.Header.BudgetMu != 2 {
		t.Fatalf("header %+v, budget %+v", l.Header, l.Budget)
	}
	a, _ := l.Account("a")
	if a.Releases != 3 || a.Spent.Method != MethodGDP || a.Spent.Mu != ComposeMu(1, 1, 1) || a.Spent.Mu < math.Sqrt(3) {
		t.Errorf("a: %+v, want spent μ = √3 = %v", a, math.Sqrt(3))
	}
	if want := 2 - math.Sqrt(3); math.Abs(a.RemainingMu-want) > 1e-15 || a.RemainingMu > want {
		t.Errorf("a: remaining μ %v, want 2 − √3 = %v rounded down", a.RemainingMu, want)
	}
	if b, _ := l.Account("b"); b.Spent.Mu != 1 || b.Releases != 1 {
		t.Errorf("b: %+v, want spent μ = 1", b)
	}
	for _, r := range l.Releases {
		if r.Framework != FrameworkGDP || r.Mu != 1 || r.Epsilon != 0 || r.Delta != 0 {
			t.Errorf("release entry %+v", r.Release)
		}
	}
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Raise(Budget{Epsilon: 1, Delta: 1e-6}, "x", t0); err == nil {
		t.Error("an (ε, δ) raise of a μ-GDP ledger was accepted")
	}
	if err := w.Raise(Budget{Mu: 1.5}, "x", t0); err == nil {
		t.Error("a raise lowering μ was accepted")
	}
	if err := w.Raise(Budget{Mu: 3}, "quarterly review", t0); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if l, err = Read(path); err != nil || l.Budget != (Budget{Mu: 3}) || len(l.Raises) != 1 || l.Raises[0].BudgetMu != 3 {
		t.Fatalf("after the raise: %v, %+v", err, l)
	}
}

// At the edge: releases that reach the budget exactly fit (1.2² + 1.6² = 2²), one
// more that takes √(Σ μᵢ²) past it is refused, a smaller one that fits is not.
func TestGDPLedgerEdge(t *testing.T) {
	path := newLedger(t, Budget{Mu: 2}, gdpRel(1.2, "a"), gdpRel(1.6, "a"), gdpRel(1.9, "b"))
	l, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if over, total := l.CheckGDP([]string{"a"}, 0.001, 10); total != 1 || len(over) != 1 || over[0].After.Mu <= 2 || over[0].Releases != 2 {
		t.Errorf("a at μ = 2 plus 0.001 (√(4 + 1e-6) > 2): over %+v, total %d", over, total)
	}
	// b spent 1.9: room for √(4 − 3.61) = √0.39 ≈ 0.6245.
	if _, total := l.CheckGDP([]string{"b"}, 0.62, 10); total != 0 {
		t.Error("b: μ = 0.62 fits (√(3.61 + 0.3844) < 2) but was refused")
	}
	if over, total := l.CheckGDP([]string{"b", "c"}, 0.63, 10); total != 1 || over[0].ID != "b" {
		t.Errorf("b: μ = 0.63 (√(3.61 + 0.3969) > 2) should be refused, c not: %+v", over)
	}
	if c := l.AfterGDP("b", 0.62); c.Mu != ComposeMu(1.9, 0.62) {
		t.Errorf("AfterGDP = %+v, want μ %v", c, ComposeMu(1.9, 0.62))
	}
	// Three releases at μ = 1 against a budget of √3 (as float64): the spend,
	// √3 rounded up, is an ulp above the budget and fits within Slack.
	if _, err := Read(newLedger(t, Budget{Mu: math.Sqrt(3)}, gdpRel(1, "a"), gdpRel(1, "a"), gdpRel(1, "a"))); err != nil {
		t.Errorf("3 × μ = 1 within a budget of √3: %v", err)
	}
	// A line recording a release past the budget does not verify, hash or not.
	ls := lines(t, path)
	body := bytes.Replace(entryOf(ls[3]), []byte(`"mu":1.9`), []byte(`"mu":2.1`), 1)
	brokenAt(t, "release past the μ budget", join(append(ls[:3:3], seal(body))), 4, "past the budget then in force (μ = 2)")
}

// entryOf is a line's entry bytes.
func entryOf(line []byte) []byte {
	return line[len(linePrefix) : len(line)-len(lineSuffix)-64-len(lineMiddle)]
}

// seal frames body as a line with its true sha256.
func seal(body []byte) []byte {
	s := sha256.Sum256(body)
	return []byte(linePrefix + string(body) + lineMiddle + hex.EncodeToString(s[:]) + lineSuffix)
}

// GDP entries are as tamper-evident as (ε, δ) ones, and the frameworks do not mix:
// a μ-GDP entry in an (ε, δ) ledger, or the reverse, does not verify.
func TestGDPLedgerTamperAndMixing(t *testing.T) {
	path := newLedger(t, Budget{Mu: 2}, gdpRel(1, "a"), gdpRel(0.5, "a"))
	ls := lines(t, path)
	if _, err := Parse("L", join(ls)); err != nil {
		t.Fatal(err)
	}
	edit := func(i int, from, to string) []byte {
		c := append([][]byte(nil), ls...)
		c[i] = bytes.Replace(c[i], []byte(from), []byte(to), 1)
		if bytes.Equal(c[i], ls[i]) {
			t.Fatalf("edit %q of line %d changed nothing", from, i+1)
		}
		return join(c)
	}
	brokenAt(t, "μ edited", edit(2, `"mu":0.5`, `"mu":0.1`), 3, "does not match its sha256")
	brokenAt(t, "budget μ edited", edit(0, `"budget_mu":2`, `"budget_mu":9`), 1, "does not match its sha256")
	// Resealed, still refused: a μ-GDP release without its mu; with an ε.
	noMu := bytes.Replace(entryOf(ls[2]), []byte(`,"mu":0.5`), nil, 1)
	brokenAt(t, "gdp release without mu", join(append(ls[:2:2], seal(noMu))), 3, `field "mu" is missing`)
	withEps := bytes.Replace(entryOf(ls[2]), []byte(`"epsilon":0`), []byte(`"epsilon":1`), 1)
	brokenAt(t, "gdp release with ε", join(append(ls[:2:2], seal(withEps))), 3, "ε = 0 and δ = 0")
	// An (ε, δ) release entry in a μ-GDP ledger.
	ed := newLedger(t, Budget{1, 0, 0}, rel(0.5, 0, "a"))
	edLine := lines(t, ed)[1]
	body := bytes.Replace(entryOf(edLine), []byte(`"prev":"`+string(entryPrev(edLine))), []byte(`"prev":"`+hashOf(ls[1])), 1)
	brokenAt(t, "(ε, δ) release in a μ-GDP ledger", join(append(ls[:2:2], seal(body))), 3, `framework "epsilon-delta" in a "gdp" ledger`)
	// AppendRelease refuses a μ-GDP ledger's release without μ.
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var le *Error
	if err := w.AppendRelease(Release{ReleaseID: strings.Repeat("9", 32), Mechanism: "m", MechanismSHA256: strings.Repeat("ab", 32), Source: SourceMetadata, Datasets: []string{"a"}, Epsilon: 1}, t0); !errors.As(err, &le) || le.Kind != ErrUsage {
		t.Errorf("a release without μ on a μ-GDP ledger: %v", err)
	}
	// Init refuses a budget that is both, or a μ that is not > 0.
	for _, b := range []Budget{{Epsilon: 1, Mu: 1}, {Mu: -1}, {Mu: math.Inf(1)}, {Mu: math.NaN()}} {
		if _, err := Init(t.TempDir()+"/x", b, t0); !errors.As(err, &le) || le.Kind != ErrUsage {
			t.Errorf("Init(%+v): %v", b, err)
		}
	}
}

func hashOf(line []byte) string {
	return string(line[len(line)-len(lineSuffix)-64 : len(line)-len(lineSuffix)])
}

func entryPrev(line []byte) []byte {
	_, after, _ := bytes.Cut(line, []byte(`"prev":"`))
	return after[:64]
}

// A ledger written by graphdp before μ-GDP budgets existed (testdata, written by
// the previous commit's binary: init, two releases, a raise) verifies unchanged.
func TestOldLedgerVerifies(t *testing.T) {
	data, err := os.ReadFile("testdata/epsilon_delta_v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse("old", data)
	if err != nil {
		t.Fatal(err)
	}
	if l.Lines != 4 || l.GDP() || l.Budget != (Budget{3, 1e-5, 0}) || len(l.Releases) != 2 || len(l.Raises) != 1 ||
		l.Head != "419cb77ae6effdf1d8d631f4b4ca08ef4465abfd3ddca4b1e98923195c88f917" {
		t.Errorf("old ledger: %d lines, budget %+v, head %s", l.Lines, l.Budget, l.Head)
	}
	if a, _ := l.Account("2"); a.Releases != 2 || a.Spent.Epsilon != 1 || a.Spent.Mu != 0 {
		t.Errorf("dataset 2: %+v", a)
	}
	// Re-encoding every entry gives back the same bytes.
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var e any = &l.Header
		if i > 0 && i < 3 {
			e = &l.Releases[i-1].Release
		} else if i == 3 {
			e = &l.Raises[0].Raise
		}
		if got, _, _ := encodeLine(e); !bytes.Equal(got, line) {
			t.Errorf("line %d re-encodes to\n%s\nnot\n%s", i+1, got, line)
		}
	}
}
