package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/internal/words"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/sink"
	"github.com/graphdp/graphdp/toolkit"
)

// issue23Job writes the inputs of a mechanism charged by its audit (ids 1–4 with answers
// 1, 1, 0, 0 on the path 1–2–3–4; hitting set 2 and 3 at p_true 0.6), runs it at
// ε = 3 to a Parquet mechanism and returns the mechanism's path.
func issue23Job(t *testing.T, dir string) string {
	t.Helper()
	for name, body := range map[string]string{
		"v.csv": "id,answer\n1,1\n2,1\n3,0\n4,0\n",
		"e.csv": "src,dst\n1,2\n2,3\n3,4\n",
		"h.csv": "id,p_true\n2,0.6\n3,0.6\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mech := filepath.Join(dir, "m.parquet")
	mustRun(t, 0, "run", "-quiet", "-vertices", filepath.Join(dir, "v.csv"), "-edges", filepath.Join(dir, "e.csv"),
		"-hitting-set", filepath.Join(dir, "h.csv"), "-epsilon", "3", "-out", mech)
	return mech
}

// The ledger charges what the audit recorded (LEDGER.md): a mechanism built at ε = 3
// and recorded by its run is charged ε = 3, whatever is typed. A typed --epsilon
// 0.1 is refused (exit 2, both values shown), nothing recorded; without it the
// charge is 3, from the audit, and a budget of 0.2 refuses it (exit 3).
func TestIssue23Reproducer(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "0.2")
	mech := issue23Job(t, dir)
	auditIn(t, led, mech, filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"))
	out := filepath.Join(dir, "r.csv")
	before, _ := os.ReadFile(led)

	code, _, stderr := graphdp(t, "release", "--mechanism", mech, "--id", "1", "--id", "4", "--epsilon", "0.1", "--out", out, "--ledger", led)
	if code != 2 || !strings.Contains(stderr, "--epsilon: 0.1 was given") || !strings.Contains(stderr, "the ledger's audit of "+mech+" (line 2) says it was built with ε = 3 (graphdp.epsilon)") {
		t.Errorf("typed ε = 0.1 against the audit's 3: exit %d: %s", code, stderr)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Errorf("the refused release changed the ledger")
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused release wrote %s", out)
	}
	// Without --epsilon: ε = 3 from the audit, past the budget 0.2.
	code, _, stderr = graphdp(t, "release", "--mechanism", mech, "--id", "1", "--id", "4", "--out", out, "--ledger", led)
	if code != 3 || !strings.Contains(stderr, "this release (ε = 3, δ = 0 per dataset, from the ledger's audit of the mechanism) would take 2 of 2 requested datasets past the budget ε = 0.2") {
		t.Errorf("ε = 3 against a budget of 0.2: exit %d: %s", code, stderr)
	}
	// With room: the ledger charges 3 and names the audit.
	led2 := filepath.Join(dir, "led2.jsonl")
	mustRun(t, 0, "ledger", "init", led2, "--budget-epsilon", "10")
	auditIn(t, led2, mech, filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"))
	_, stderr = mustRun(t, 0, "release", "--mechanism", mech, "--id", "1", "--id", "4", "--out", out, "--ledger", led2)
	if !hasWords(stderr, "(ε = 3, δ = 0 each, as the ledger's audit recorded, line 2)") {
		t.Errorf("stderr: %s", stderr)
	}
	l, err := ledger.Read(led2)
	if err != nil {
		t.Fatal(err)
	}
	r := l.Releases[0]
	if len(l.Releases) != 1 || r.Epsilon != 3 || r.Delta != 0 || r.Source != ledger.SourceAudit || r.Framework != ledger.Framework ||
		strings.Join(r.Datasets, ",") != "1,4" || r.Audit != l.Audits[0].AuditID || r.MechanismSHA256 != "" {
		t.Errorf("ledger entry: %+v", r)
	}
	// A typed value that agrees is accepted.
	mustRun(t, 0, "release", "-quiet", "--mechanism", mech, "--id", "2", "--epsilon", "3", "--delta", "0", "--out", filepath.Join(dir, "r2.csv"), "--ledger", led2)
}

// auditIn records mech's exact audit on the graph (vertices, edges) in the ledger
// led (graphdp verify --ledger): what a release of mech is then charged.
func auditIn(t *testing.T, led, mech, vertices, edges string, extra ...string) {
	t.Helper()
	mustRun(t, 0, append([]string{"verify", "--mechanism", mech, "--vertices", vertices, "--edges", edges, "--ledger", led}, extra...)...)
}

// auditAlone records, in the ledger led, the audit of a mechanism table that has
// no graph of its own (a test's hand-made table): on the graph of its datasets
// with no edges, where every dataset whose p_one is neither 0 nor 1 is private.
// privacy is the verify flags that state its privacy (a CSV table has no
// metadata).
func auditAlone(t *testing.T, led, mech string, privacy ...string) {
	t.Helper()
	m, err := ingest.ReadMechanismTable(t.Context(), mech, ingest.DefaultMechanismTableColumns())
	if err != nil {
		t.Fatal(err)
	}
	idType := arrow.DataType(arrow.BinaryTypes.String)
	if m.IDs.Int != nil {
		idType = arrow.PrimitiveTypes.Int64
	}
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: idType}, {Name: "answer", Type: arrow.FixedWidthTypes.Boolean}}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	if m.IDs.Int != nil {
		b.Field(0).(*array.Int64Builder).AppendValues(m.IDs.Int, nil)
	} else {
		b.Field(0).(*array.StringBuilder).AppendValues(m.IDs.Str, nil)
	}
	answers := make([]bool, m.IDs.Len())
	copy(answers, m.Answer)
	b.Field(1).(*array.BooleanBuilder).AppendValues(answers, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	dir := t.TempDir()
	v, e := filepath.Join(dir, "v.parquet"), filepath.Join(dir, "e.csv")
	if err := sink.Write(t.Context(), v, rec, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e, []byte("src,dst\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	auditIn(t, led, mech, v, e, privacy...)
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// verify and report read ε and δ from the mechanism too: a typed value that
// differs is refused (exit 2, both shown), none is needed, and a CSV mechanism
// needs ε stated.
func TestMetadataMismatchVerifyReport(t *testing.T) {
	dir := t.TempDir()
	mech := issue23Job(t, dir)
	v, e := filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv")
	for _, cmd := range []string{"verify", "report"} {
		code, stdout, stderr := graphdp(t, cmd, "--mechanism", mech, "--vertices", v, "--edges", e, "--epsilon", "0.1")
		if code != 2 || !strings.Contains(stderr, "--epsilon: 0.1 was given") || !strings.Contains(stderr, "ε = 3") || stdout != "" {
			t.Errorf("%s with ε 0.1 against 3: exit %d: %s", cmd, code, stderr)
		}
		code, _, stderr = graphdp(t, cmd, "--mechanism", mech, "--vertices", v, "--edges", e, "--delta", "1e-9")
		if code != 2 || !strings.Contains(stderr, "--delta: 1e-09 was given") || !strings.Contains(stderr, "δ = 0") {
			t.Errorf("%s with δ 1e-9 against 0: exit %d: %s", cmd, code, stderr)
		}
		stdout, _ = mustRun(t, 0, cmd, "--mechanism", mech, "--vertices", v, "--edges", e)
		if cmd == "verify" && !hasWords(stdout, "for ε=3, δ=0 (from its metadata)") {
			t.Errorf("verify: %s", stdout)
		}
		if cmd == "report" && !strings.Contains(stdout, "ε = 3") {
			t.Errorf("report does not use ε = 3:\n%s", stdout)
		}
	}
	// A CSV mechanism: ε must be stated.
	csvMech := filepath.Join(dir, "m.csv")
	mustRun(t, 0, "run", "-quiet", "-vertices", v, "-edges", e, "-hitting-set", filepath.Join(dir, "h.csv"), "-epsilon", "3", "-out", csvMech)
	for _, cmd := range []string{"verify", "report"} {
		code, _, stderr := graphdp(t, cmd, "--mechanism", csvMech, "--vertices", v, "--edges", e)
		if code != 2 || !strings.Contains(stderr, "--epsilon: required:") || !strings.Contains(stderr, "a CSV file has none") {
			t.Errorf("%s of a CSV mechanism without ε: exit %d: %s", cmd, code, stderr)
		}
		mustRun(t, 0, cmd, "--mechanism", csvMech, "--vertices", v, "--edges", e, "--epsilon", "3")
	}
}

// A CSV mechanism has no metadata: with a ledger it is charged what its audit was
// stated and passed at (verify --epsilon … --ledger), never what release is told.
// Without an audit it is refused (exit 3); a value typed at release that differs
// from the audit's is refused (exit 2), a stated (0, 0) included; with
// --no-ledger, nothing is charged, and ε and δ must be stated for the file's
// metadata.
func TestReleaseCSVNeedsStatedValues(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	out := filepath.Join(dir, "r.csv")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "5", "--budget-delta", "1e-6")
	code, _, stderr := graphdp(t, "release", "--mechanism", relMech, "--id", "1", "--out", out, "--ledger", led, "--epsilon", "0.5", "--delta", "1e-7")
	if code != 3 || !strings.Contains(stderr, "holds no audit of "+relMech) || !strings.Contains(stderr, "graphdp verify --mechanism "+relMech) {
		t.Errorf("unaudited: exit %d: %s", code, stderr)
	}
	auditAlone(t, led, relMech, "--epsilon", "0.5", "--delta", "1e-7")
	for _, args := range [][]string{{"--epsilon", "0", "--delta", "0"}, {"--delta", "5e-324"}, {"--epsilon", "0.1"}} {
		code, _, stderr := graphdp(t, append([]string{"release", "--mechanism", relMech, "--id", "1", "--out", out, "--ledger", led}, args...)...)
		if code != 2 || !strings.Contains(stderr, "was given, but the ledger's audit of "+relMech) {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	if l, _ := ledger.Read(led); len(l.Releases) != 0 {
		t.Errorf("refused releases were recorded")
	}
	mustRun(t, 0, "release", "--mechanism", relMech, "--id", "1", "--out", out, "--ledger", led)
	l, err := ledger.Read(led)
	if err != nil || len(l.Releases) != 1 || l.Releases[0].Source != ledger.SourceAudit || l.Releases[0].Epsilon != 0.5 || l.Releases[0].Delta != 1e-7 {
		t.Fatalf("%v: %+v", err, l.Releases)
	}
	for _, args := range [][]string{{"--epsilon", "0.5"}, {"--delta", "0"}, {}} {
		code, _, stderr := graphdp(t, append([]string{"release", "--mechanism", relMech, "--id", "1", "--out", filepath.Join(dir, "n.csv"), "--no-ledger"}, args...)...)
		if code != 2 || !strings.Contains(stderr, "carries no privacy metadata (a CSV file has none)") {
			t.Errorf("--no-ledger %v: exit %d: %s", args, code, stderr)
		}
	}
}

// Metadata that is not a valid (ε, δ) is refused (exit 3): negative ε, NaN, δ
// outside [0, 1), one of the two keys alone, another privacy framework.
func TestReleaseBadMetadata(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		meta map[string]string
		want string
	}{
		{"negative ε", map[string]string{"graphdp.epsilon": "-1", "graphdp.delta": "0"}, `metadata graphdp.epsilon: "-1" is not a finite number ≥ 0`},
		{"NaN ε", map[string]string{"graphdp.epsilon": "NaN", "graphdp.delta": "0"}, "is not a finite number"},
		{"δ = 1", map[string]string{"graphdp.epsilon": "1", "graphdp.delta": "1"}, `"1" is not a number in [0, 1)`},
		{"ε alone", map[string]string{"graphdp.epsilon": "1"}, "graphdp.delta: missing"},
		{"zCDP", map[string]string{"graphdp.epsilon": "1", "graphdp.delta": "0", "graphdp.framework": "zcdp"}, `privacy framework "zcdp"`},
	} {
		mech := filepath.Join(dir, "m.parquet")
		writeMechanism(t, mech, []string{"a", "b"}, []float64{0.4, 0.6}, c.meta)
		code, _, stderr := graphdp(t, "release", "--mechanism", mech, "--id", "a", "--out", filepath.Join(dir, "r.csv"), "--no-ledger")
		if code != 3 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d: %s", c.name, code, stderr)
		}
	}
}

// writeMechanism writes a Parquet mechanism of string ids and p_one with meta.
func writeMechanism(t *testing.T, path string, ids []string, pone []float64, meta map[string]string) {
	t.Helper()
	sc := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}, {Name: "p_one", Type: arrow.PrimitiveTypes.Float64}}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues(ids, nil)
	b.Field(1).(*array.Float64Builder).AppendValues(pone, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := sink.Write(context.Background(), path, rec, meta); err != nil {
		t.Fatal(err)
	}
}

// The three-command workflow: ledger init → release → ledger show, with show's
// figures against a recount of the ledger's lines, raise recorded, budget flags
// that disagree with the ledger refused, init never replacing a file.
func TestLedgerWorkflow(t *testing.T) {
	dir := t.TempDir()
	mech := issue23Job(t, dir)
	led := filepath.Join(dir, "led.jsonl")
	_, stderr := mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "7", "--budget-delta", "1e-6")
	if !hasWords(stderr, "created "+led+" (mode 0600, epsilon-delta) and its key "+led+".key (mode 0600: keep it private): budget ε = 7, δ = 1e-06 per dataset") {
		t.Errorf("init: %s", stderr)
	}
	if fi, _ := os.Stat(led); fi.Mode().Perm() != 0o600 {
		t.Errorf("ledger mode %v", fi.Mode())
	}
	before, _ := os.ReadFile(led)
	if code, _, stderr := graphdp(t, "ledger", "init", led, "--budget-epsilon", "1"); code != 2 || !strings.Contains(stderr, "already exists") {
		t.Errorf("init over a ledger: exit %d: %s", code, stderr)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Errorf("init changed an existing ledger")
	}
	auditIn(t, led, mech, filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"))
	n := 0
	next := func() string { n++; return filepath.Join(dir, fmt.Sprintf("r%d.parquet", n)) }
	rel := func(ids ...string) {
		args := []string{"release", "-quiet", "--mechanism", mech, "--out", next(), "--ledger", led}
		for _, id := range ids {
			args = append(args, "--id", id)
		}
		mustRun(t, 0, args...)
	}
	rel("1", "2")
	rel("2")
	// Budget flags only assert the ledger's budget.
	code, _, stderr := graphdp(t, "release", "--mechanism", mech, "--out", next(), "--ledger", led, "--id", "3", "--budget-epsilon", "50")
	if code != 2 || !strings.Contains(stderr, "--budget-epsilon: 50 was given, but the ledger "+led+" has the budget ε = 7") {
		t.Errorf("budget flag against the ledger: exit %d: %s", code, stderr)
	}
	mustRun(t, 0, "release", "-quiet", "--mechanism", mech, "--out", next(), "--ledger", led, "--id", "3", "--budget-epsilon", "7", "--budget-delta", "1e-6")
	// 2 has spent 6 of 7: a third release is refused.
	code, _, stderr = graphdp(t, "release", "--mechanism", mech, "--out", next(), "--ledger", led, "--id", "2", "--id", "4")
	if code != 3 || !strings.Contains(stderr, "would take 1 of 2 requested datasets past the budget ε = 7, δ = 1e-06") ||
		!strings.Contains(stderr, "id 2: 2 releases so far spent ε = 6, δ = 0; with this release ε = 9, δ = 0 (basic composition: sums of ε and of δ)") {
		t.Errorf("over budget: exit %d: %s", code, stderr)
	}
	// raise: a reason is required, lowering is refused, the raise is recorded.
	if code, _, stderr := graphdp(t, "ledger", "raise", led, "--budget-epsilon", "10"); code != 2 || !strings.Contains(stderr, "--reason is required") {
		t.Errorf("raise without a reason: exit %d: %s", code, stderr)
	}
	if code, _, stderr := graphdp(t, "ledger", "raise", led, "--budget-epsilon", "5", "--reason", "x"); code != 2 || !strings.Contains(stderr, "cannot lower it") {
		t.Errorf("raise that lowers: exit %d: %s", code, stderr)
	}
	_, stderr = mustRun(t, 0, "ledger", "raise", led, "--budget-epsilon", "10", "--reason", "second quarter")
	if !hasWords(stderr, "budget raised from ε = 7, δ = 1e-06 to ε = 10, δ = 1e-06 per dataset, by "+words.Quote(ledger.User())) {
		t.Errorf("raise: %s", stderr)
	}
	rel("2", "4")

	// show --json against a recount of the file's own lines.
	stdout, _ := mustRun(t, 0, "ledger", "show", led, "--json")
	var v toolkit.LedgerView
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var lines []map[string]any
	data, _ := os.ReadFile(led)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var l struct {
			Entry map[string]any `json:"entry"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l.Entry)
		if l.Entry["kind"] == "release" {
			for _, d := range l.Entry["datasets"].([]any) {
				count[d.(string)]++
			}
		}
	}
	if v.Lines != len(lines) || v.Budget.Epsilon != 10 || v.Budget.Delta != 1e-6 || len(v.Releases) != 4 || len(v.Raises) != 1 {
		t.Fatalf("show: %+v", v)
	}
	if r := v.Raises[0]; r.Reason != "second quarter" || r.From.Epsilon != 7 || r.To.Epsilon != 10 || r.User != ledger.User() || r.Line != 6 {
		t.Errorf("raise shown: %+v", r)
	}
	if len(v.Datasets) != len(count) {
		t.Errorf("%d datasets shown, %d in the file", len(v.Datasets), len(count))
	}
	for i, a := range v.Datasets {
		if a.Releases != count[a.ID] || a.Basic.Epsilon != 3*float64(count[a.ID]) || a.Remaining.Epsilon != 10-a.Spent.Epsilon {
			t.Errorf("dataset %s: %+v, %d releases in the file", a.ID, a, count[a.ID])
		}
		if i > 0 && v.Datasets[i-1].Spent.Epsilon < a.Spent.Epsilon {
			t.Errorf("not most spent first")
		}
	}
	if v.Datasets[0].ID != "2" || v.Datasets[0].Spent.Epsilon != 9 {
		t.Errorf("most spent: %+v", v.Datasets[0])
	}
	if l, _ := ledger.Read(led); v.Head != l.Head {
		t.Errorf("head %s", v.Head)
	}
	// show --id: one dataset and its releases only.
	stdout, _ = mustRun(t, 0, "ledger", "show", led, "--json", "--id", "4")
	var one toolkit.LedgerView
	json.Unmarshal([]byte(stdout), &one)
	if len(one.Datasets) != 1 || one.Datasets[0].ID != "4" || one.Datasets[0].Releases != 1 || len(one.Releases) != 1 || one.Releases[0].Line != 7 {
		t.Errorf("show --id 4: %+v", one)
	}
	// The text form names the same figures.
	stdout, _ = mustRun(t, 0, "ledger", "show", led)
	for _, want := range []string{"head " + v.Head, "budget per dataset: ε = 10, δ = 1e-06 (1 raise)", "4 datasets, the most spent first:",
		"4 releases:", `ε 7 → 10, δ 1e-06 → 1e-06: "second quarter"`, "audit " + v.Releases[0].Audit, "1 audit:", "by graphdp verify  ε = 3, δ = 0: private"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _ = mustRun(t, 0, "ledger", "verify", led, "--head", v.Head)
	if !strings.Contains(stdout, "7 lines verified") || !strings.Contains(stdout, "the head given is line 7's") || !strings.Contains(stdout, "1 audit, 4 releases") {
		t.Errorf("verify:\n%s", stdout)
	}
}

// Each kind of tampering makes release and ledger verify refuse with the first
// broken line named (exit 3), the ledger untouched and nothing released: an edited
// entry, a deleted line, two lines reordered, a line cut short, a forged line
// appended; a truncation at a line boundary is caught by verify --head.
func TestLedgerTampering(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	out := filepath.Join(dir, "r.csv")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "5")
	auditAlone(t, led, relMech, "--epsilon", "0.5", "--delta", "0") // line 2
	release := []string{"release", "-quiet", "--mechanism", relMech, "--epsilon", "0.5", "--delta", "0", "--out", out, "--ledger", led}
	for _, id := range []string{"1", "2", "3"} {
		mustRun(t, 0, "release", "-quiet", "--mechanism", relMech, "--out", filepath.Join(dir, "r"+id+".csv"), "--ledger", led, "--id", id)
	}
	good, _ := os.ReadFile(led)
	ls := strings.SplitAfter(string(good), "\n")[:5]
	l, _ := ledger.Read(led)
	head := l.Head
	forged := strings.Replace(ls[4], `"datasets":["3"]`, `"datasets":["4"]`, 1)
	for _, c := range []struct {
		name, file string
		line       int
		want       string
	}{
		{"edited", strings.Replace(string(good), `"epsilon":0.5`, `"epsilon":0.1`, 1), 3, "does not match its sha256"},
		{"audit edited", strings.Replace(string(good), `"private":true`, `"private":false`, 1), 2, "does not match its sha256"},
		{"deleted", ls[0] + ls[1] + ls[3] + ls[4], 3, "prev does not match"},
		{"audit deleted", ls[0] + ls[2] + ls[3] + ls[4], 2, "prev does not match"},
		{"reordered", ls[0] + ls[1] + ls[2] + ls[4] + ls[3], 4, "prev does not match"},
		{"cut short", string(good[:len(good)-30]), 5, "is not a complete entry"},
		{"forged appended", string(good) + forged, 6, ""},
	} {
		if err := os.WriteFile(led, []byte(c.file), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Remove(out)
		code, _, stderr := graphdp(t, append(release, "--id", "4")...)
		if wantLine := "line " + strconv.Itoa(c.line) + ": "; code != 3 || !strings.Contains(stderr, wantLine) || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: release: exit %d: %s", c.name, code, stderr)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: released anyway", c.name)
		}
		code, _, stderr = graphdp(t, "ledger", "verify", led)
		if code != 3 || !strings.Contains(stderr, "line "+strconv.Itoa(c.line)+": ") {
			t.Errorf("%s: verify: exit %d: %s", c.name, code, stderr)
		}
		if got, _ := os.ReadFile(led); string(got) != c.file {
			t.Errorf("%s: the ledger was changed", c.name)
		}
	}
	// Truncated at a line boundary: the chain alone cannot tell; the noted head can.
	os.WriteFile(led, []byte(ls[0]+ls[1]+ls[2]+ls[3]), 0o600)
	code, stdout, stderr := graphdp(t, "ledger", "verify", led, "--head", head)
	if code != 3 || !strings.Contains(stdout, "FAILED") || !strings.Contains(stderr, "is not the hash of any line") {
		t.Errorf("truncated, with --head: exit %d: %s%s", code, stdout, stderr)
	}
	// The cut-short line, repaired: recorded, and releases go on.
	os.WriteFile(led, good[:len(good)-30], 0o600)
	if code, _, stderr := graphdp(t, "ledger", "repair", led); code != 2 || !strings.Contains(stderr, "--reason is required") {
		t.Errorf("repair without reason: exit %d: %s", code, stderr)
	}
	mustRun(t, 0, "ledger", "repair", led, "--reason", "crash on the 3rd")
	mustRun(t, 0, append(release, "--id", "4")...)
	if l, err := ledger.Read(led); err != nil || len(l.Repairs) != 1 || len(l.Releases) != 3 {
		t.Errorf("after repair: %v", err)
	}
}

// A file that is not a ledger is refused untouched: a Parquet
// file and a CSV without its trailing newline given as --ledger.
func TestReleaseLedgerNotALedger(t *testing.T) {
	dir := t.TempDir()
	pq, err := os.ReadFile("../../configs/example/vertices.parquet")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"vertices.parquet": pq, "v.csv": []byte("id,answer\n1,0\n2,1")} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		code, _, stderr := graphdp(t, "release", "--mechanism", relMech, "--epsilon", "0.5", "--delta", "0", "--id", "1",
			"--out", filepath.Join(dir, "r.csv"), "--ledger", path)
		if code != 3 || !strings.Contains(stderr, "line 1: ") || !strings.Contains(stderr, "is this a graphdp ledger?") {
			t.Errorf("%s: exit %d: %s", name, code, stderr)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
			t.Errorf("%s was changed: %d bytes, had %d", name, len(got), len(data))
		}
	}
}

// A final entry that lost its newline still counts: two releases of 0.5 against a
// budget of 1, the newline of the second removed, and a third is refused.
func TestLedgerUnterminatedEntryCharged(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "1")
	auditAlone(t, led, relMech, "--epsilon", "0.5", "--delta", "0")
	args := func(out string) []string {
		return []string{"release", "-quiet", "--mechanism", relMech, "--id", "1", "--out", filepath.Join(dir, out), "--ledger", led}
	}
	mustRun(t, 0, args("r1.csv")...)
	mustRun(t, 0, args("r2.csv")...)
	data, _ := os.ReadFile(led)
	os.WriteFile(led, bytes.TrimSuffix(data, []byte("\n")), 0o600)
	if code, _, stderr := graphdp(t, args("r3.csv")...); code != 3 || !strings.Contains(stderr, "past the budget") {
		t.Errorf("third release of 0.5 against 1: exit %d: %s", code, stderr)
	}
	mustRun(t, 0, "ledger", "verify", led)
}

// The ledger must be a file of its own: the same file as --out, --mechanism or
// --ids, by any path (a symlink), is refused before anything is written.
func TestLedgerSameFile(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "1")
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(led, link); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(led)
	for _, args := range [][]string{
		{"--out", led, "--id", "1"},
		{"--out", link, "--id", "1"},
		{"--out", filepath.Join(dir, "r.csv"), "--ids", link},
	} {
		code, _, stderr := graphdp(t, append([]string{"release", "--mechanism", relMech, "--epsilon", "0.5", "--delta", "0", "--ledger", led}, args...)...)
		if code != 2 || !(strings.Contains(stderr, "one file") || strings.Contains(stderr, "both name")) {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
		if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
			t.Fatalf("%v: the ledger changed", args)
		}
	}
}

// A release whose write fails before its rename leaves the ledger as it was (the
// line is rolled back), and one whose write fails after it keeps the line: the
// rename itself fails here (sink's fault seam), then the folder's fsync.
func TestReleaseRollbackWhenNotPublished(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "1")
	auditAlone(t, led, relMech, "--epsilon", "0.5", "--delta", "0")
	before, _ := os.ReadFile(led)
	out := filepath.Join(dir, "r.csv")
	release := func() (int, string) {
		code, _, stderr := graphdp(t, "release", "--mechanism", relMech, "--epsilon", "0.5", "--delta", "0", "--id", "1", "--out", out, "--ledger", led)
		return code, stderr
	}
	injected := errors.New("injected rename failure")
	restore := sink.FailStepForTest("rename", injected)
	code, stderr := release()
	restore()
	if code != 1 || !strings.Contains(stderr, injected.Error()) {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Errorf("a release that was not published is still in the ledger:\n%s", after)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the release file was published although its rename failed")
	}
	restore = sink.FailStepForTest("syncdir", errors.New("injected fsync failure"))
	code, stderr = release()
	restore()
	if code != 1 {
		t.Errorf("folder fsync failed: exit %d: %s", code, stderr)
	}
	l, err := ledger.Read(led)
	if err != nil || len(l.Releases) != 1 {
		t.Fatalf("a release published before its folder's fsync failed is not charged: %v", err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the release file is not in place: %v", err)
	}
}

// The same on a real full disk: here the output's folder is a real full disk (a tmpfs in a
// mount namespace of its own: TestOutputsOnFullDisk's helper; skipped where that
// cannot be made).
func TestReleaseRollbackOnFullDisk(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "1")
	auditAlone(t, led, relMech, "--epsilon", "0.5", "--delta", "0")
	before, _ := os.ReadFile(led)
	full := filepath.Join(dir, "full")
	if err := os.Mkdir(full, 0o755); err != nil {
		t.Fatal(err)
	}
	status, rest := onFullDisk(t, full, "release", "--mechanism", relMech, "--epsilon", "0.5", "--delta", "0", "--id", "1", "--out", filepath.Join(full, "r.csv"), "--ledger", led)
	if status != "exit 1" || !strings.Contains(rest, "no space left on device") || strings.Contains(rest, "charged") {
		t.Errorf("%s: %s", status, rest)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Errorf("a release that was not published is still in the ledger:\n%s", after)
	}
}

// Any line the ledger writes it reads back: a dataset id of
// 2 MiB, released twice through the CLI; show finds it.
func TestLedgerLongID(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("d", 2<<20)
	mech := filepath.Join(dir, "m.parquet")
	writeMechanism(t, mech, []string{"a", long}, []float64{0.4, 0.6}, map[string]string{"graphdp.epsilon": "0.25", "graphdp.delta": "0"})
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "1")
	auditAlone(t, led, mech)
	for i := range 2 {
		mustRun(t, 0, "release", "-quiet", "--mechanism", mech, "--id", long, "--out", filepath.Join(dir, fmt.Sprintf("r%d.csv", i)), "--ledger", led)
	}
	stdout, _ := mustRun(t, 0, "ledger", "show", led, "--json", "--id", long)
	var v toolkit.LedgerView
	if err := json.Unmarshal([]byte(stdout), &v); err != nil || len(v.Datasets) != 1 || v.Datasets[0].Releases != 2 || v.Datasets[0].Basic.Epsilon != 0.5 {
		t.Errorf("%v: %d datasets", err, len(v.Datasets))
	}
}

// The deterministic refusal names the ids escaped and never the value it refuses
// to release.
func TestReleaseDeterministicMessageHidesValues(t *testing.T) {
	dir := t.TempDir()
	mech := filepath.Join(dir, "m.parquet")
	writeMechanism(t, mech, []string{"x\x1b[31m", "y"}, []float64{1, 0}, map[string]string{"graphdp.epsilon": "1", "graphdp.delta": "0"})
	code, _, stderr := graphdp(t, "release", "--mechanism", mech, "--id", "x\x1b[31m", "--id", "y", "--out", filepath.Join(dir, "r.csv"), "--no-ledger")
	if code != 3 || !strings.Contains(stderr, `id "x\x1b[31m": answered deterministically`) || !strings.Contains(stderr, "id y: answered deterministically") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "\x1b") || strings.Contains(stderr, "= 1 ") || strings.Contains(stderr, "= 0 ") || strings.Contains(stderr, "M(") {
		t.Errorf("the message gives a value or a raw control character away: %q", stderr)
	}
}

// The identity check runs again under the ledger's lock, in toolkit.Release
// itself: an output that is the ledger by another path is refused (exit 2) and the
// ledger is untouched.
func TestReleaseSameFileUnderLock(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "1")
	link := filepath.Join(dir, "out.csv")
	os.Symlink(led, link)
	before, _ := os.ReadFile(led)
	eps, delta := 0.5, 0.0
	j := toolkit.ReleaseJob{Mechanism: relMech, IDs: []string{"1"}, Out: link, Columns: ingest.DefaultMechanismTableColumns(),
		Stated: job.Stated{Epsilon: &eps, Delta: &delta}, Ledger: led}
	_, err := toolkit.Release(context.Background(), j, nil)
	var ce *job.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "is the same file as the out") {
		t.Errorf("%v", err)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Errorf("the ledger changed")
	}
}

// ledger show lists the 20 most spent datasets by default in text, saying how many
// more there are and how to see them; --list 0 lists all, --json all.
func TestLedgerShowListsTheMostSpent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	led := filepath.Join(dir, "L")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "100")
	ids := make([]string, 25)
	var b strings.Builder
	b.WriteString("id,p_one\n")
	for i := range ids {
		ids[i] = fmt.Sprintf("d%02d", i)
		fmt.Fprintf(&b, "%s,0.5\n", ids[i])
	}
	mech := filepath.Join(dir, "m.csv")
	write(t, mech, b.String())
	auditAlone(t, led, mech, "--epsilon", "1", "--delta", "0")
	args := []string{"release", "-quiet", "--mechanism", mech, "--out", filepath.Join(dir, "r.csv"), "--ledger", led}
	for _, id := range ids {
		args = append(args, "--id", id)
	}
	mustRun(t, 0, args...)
	stdout, _ := mustRun(t, 0, "ledger", "show", led)
	if got := strings.Count(stdout, "\n  \"d") + strings.Count(stdout, "\n  d"); got != 20 || !strings.Contains(stdout, "… and 5 more (--list 0 lists all, --id X one)") {
		t.Errorf("default show lists %d datasets:\n%s", got, stdout)
	}
	stdout, _ = mustRun(t, 0, "ledger", "show", led, "--list", "0")
	if got := strings.Count(stdout, "\n  d"); got != 25 || strings.Contains(stdout, "more (--list") {
		t.Errorf("--list 0 lists %d datasets", got)
	}
	stdout, _ = mustRun(t, 0, "ledger", "show", led, "--json")
	var v toolkit.LedgerView
	if err := json.Unmarshal([]byte(stdout), &v); err != nil || len(v.Datasets) != 25 {
		t.Errorf("--json: %v, %d datasets", err, len(v.Datasets))
	}
}

// A δ the ledger computed is shown short and never below what it holds (not
// spent δ = 3.999994000004001e-06): four releases at δ = 1e-6
// compose optimally to 1 − (1 − 10⁻⁶)⁴ = 4·10⁻⁶ − 6·10⁻¹² + …, shown rounded up to
// 6 significant digits, 4e-06; their sum (4.000000000000001e-06 as the ledger rounds
// it up) 4.00001e-06; what is left of the budget 4.5e-06, rounded down, 5.00005e-07;
// a line says so, and --json keeps the figures exact. The refused fifth release
// says the same figures. One release at δ = 1e-6 rounds nothing and says nothing.
func TestLedgerShowRoundsComputedDelta(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	led := filepath.Join(dir, "L")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "10", "--budget-delta", "4.5e-6")
	mech := filepath.Join(dir, "m.csv")
	write(t, mech, "id,p_one\na,0.5\nb,0.5\n")
	auditAlone(t, led, mech, "--epsilon", "0.5", "--delta", "1e-6")
	release := []string{"release", "-quiet", "--mechanism", mech, "--id", "a", "--out", "", "--ledger", led}
	const note = "rounded to 6 significant digits: spent up, left down; --json has them exact"
	for i := range 4 {
		release[7] = filepath.Join(dir, fmt.Sprintf("r%d.csv", i))
		mustRun(t, 0, release...)
		if i == 0 {
			if stdout, _ := mustRun(t, 0, "ledger", "show", led); strings.Contains(stdout, note) || !strings.Contains(stdout, "1e-06") {
				t.Errorf("one release: nothing to round:\n%s", stdout)
			}
		}
	}
	stdout, _ := mustRun(t, 0, "ledger", "show", led)
	row := regexp.MustCompile(`(?m)^  a +4 +2 +4e-06 +8 +5\.00005e-07 +optimal +2 +4\.00001e-06$`)
	if !row.MatchString(stdout) || !strings.Contains(stdout, note) || strings.Contains(stdout, "3.99999") {
		t.Errorf("ledger show:\n%s", stdout)
	}
	stdout, _ = mustRun(t, 0, "ledger", "show", led, "--json")
	var v toolkit.LedgerView
	if err := json.Unmarshal([]byte(stdout), &v); err != nil || len(v.Datasets) != 1 || v.Datasets[0].Spent.Delta != 3.999994000004001e-06 {
		t.Errorf("--json: %v, %+v", err, v.Datasets)
	}
	release[7] = filepath.Join(dir, "r5.csv")
	_, stderr := mustRun(t, 3, release...)
	if !strings.Contains(stderr, "so far spent ε = 2, δ = 4e-06; with this release ε = 2.5, δ = 5e-06") {
		t.Errorf("the refused release:\n%s", stderr)
	}
}
