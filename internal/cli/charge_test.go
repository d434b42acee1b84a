package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/ledger"

	"github.com/graphdp/graphdp/internal/objstore"
)

// pathGraph writes a path of len(answers) datasets named prefix+"a", prefix+"b", …
// with those answers, and the hitting set of every boundary dataset at p_true 0.52 (feasible from ε = 0.1),
// into dir under the names v.csv, e.csv and h.csv.
func pathGraph(t *testing.T, dir, prefix string, answers ...int) (v, e, h string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	v, e, h = filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"), filepath.Join(dir, "h.csv")
	id := func(i int) string { return prefix + string(rune('a'+i)) }
	vs, es, hs := "id,answer\n", "src,dst\n", "id,p_true\n"
	for i, a := range answers {
		vs += id(i) + "," + string(rune('0'+a)) + "\n"
		if i > 0 {
			es += id(i-1) + "," + id(i) + "\n"
		}
		left, right := i > 0 && answers[i-1] != a, i+1 < len(answers) && answers[i+1] != a
		if left || right {
			hs += id(i) + ",0.52\n"
		}
	}
	write(t, v, vs)
	write(t, e, es)
	write(t, h, hs)
	return v, e, h
}

// The first reproducer of "fail closed": a mechanism given as a folder whose parts
// were built at ε = 0.1 and ε = 5 was charged its first part's ε. The one mechanism
// reader refuses such a table (its parts disagree on graphdp.* keys), naming both
// files, for release and verify alike, the ledger unchanged. A folder whose parts
// agree (CSV parts: no footers), audited as the table it is, is charged its true ε
// each release: with a budget of 12, two releases at ε = 5 fit, the third is refused.
func TestFolderMechanismChargedItsAudit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	led := filepath.Join(dir, "L")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "12")
	va, ea, ha := pathGraph(t, filepath.Join(dir, "A"), "A", 1, 1, 0, 0)
	vb, eb, hb := pathGraph(t, filepath.Join(dir, "B"), "B", 0, 1, 1)
	mech := filepath.Join(dir, "mech")
	os.Mkdir(mech, 0o755)
	p0, p1 := filepath.Join(mech, "part-0.parquet"), filepath.Join(mech, "part-1.parquet")
	mustRun(t, 0, "run", "-quiet", "-vertices", va, "-edges", ea, "-hitting-set", ha, "-epsilon", "0.1", "-out", p0, "-ledger", led)
	mustRun(t, 0, "run", "-quiet", "-vertices", vb, "-edges", eb, "-hitting-set", hb, "-epsilon", "5", "-out", p1, "-ledger", led)
	before, _ := os.ReadFile(led)
	for range 3 {
		code, _, stderr := graphdp(t, "release", "--mechanism", mech+"/", "--id", "Ba", "--out", filepath.Join(dir, "r.csv"), "--ledger", led)
		if code != 3 || !strings.Contains(stderr, p1) || !strings.Contains(stderr, p0) || !strings.Contains(stderr, `its metadata key "graphdp.`) {
			t.Fatalf("a folder whose parts disagree: exit %d: %s", code, stderr)
		}
	}
	code, _, stderr := graphdp(t, "verify", "--mechanism", mech, "--vertices", va, "--vertices", vb, "--edges", ea, "--edges", eb)
	if code != 3 || !strings.Contains(stderr, p1) || !strings.Contains(stderr, `its metadata key "graphdp.`) {
		t.Errorf("verify of the same folder: exit %d: %s", code, stderr)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Error("a refused release changed the ledger")
	}
	if _, err := os.Stat(filepath.Join(dir, "r.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a refused release wrote its file")
	}

	// CSV parts, both at ε = 5: each part's run audit names a part, not the table,
	// so the folder is refused until it is audited as one table.
	mech = filepath.Join(dir, "mechcsv")
	os.Mkdir(mech, 0o755)
	mustRun(t, 0, "run", "-quiet", "-vertices", va, "-edges", ea, "-hitting-set", ha, "-epsilon", "5", "-out", filepath.Join(mech, "part-0.csv"), "-ledger", led)
	mustRun(t, 0, "run", "-quiet", "-vertices", vb, "-edges", eb, "-hitting-set", hb, "-epsilon", "5", "-out", filepath.Join(mech, "part-1.csv"), "-ledger", led)
	code, _, stderr = graphdp(t, "release", "--mechanism", mech, "--id", "Ba", "--out", filepath.Join(dir, "r0.csv"), "--ledger", led)
	if code != 3 || !strings.Contains(stderr, "holds no audit of "+mech) {
		t.Fatalf("a folder audited only part by part: exit %d: %s", code, stderr)
	}
	auditIn(t, led, mech, ingest.JoinSources(va, vb), ingest.JoinSources(ea, eb), "--epsilon", "5")
	l, err := ledger.Read(led)
	if err != nil {
		t.Fatal(err)
	}
	if a := l.Audits[len(l.Audits)-1]; !a.Private || a.Privacy["graphdp.epsilon"] != "5" || a.By != ledger.ByVerify {
		t.Fatalf("the folder's audit: %+v", a)
	}
	for i, want := range []int{0, 0, 3} {
		out := filepath.Join(dir, "r"+string(rune('1'+i))+".csv")
		code, _, stderr := graphdp(t, "release", "--mechanism", mech, "--id", "Ba", "--id", "Aa", "--out", out, "--ledger", led)
		if code != want {
			t.Fatalf("release %d at ε = 5 against a budget of 12: exit %d, want %d: %s", i+1, code, want, stderr)
		}
	}
	l, _ = ledger.Read(led)
	if a, _ := l.Account("Ba"); a.Releases != 2 || a.Spent.Epsilon != 10 {
		t.Errorf("Ba's account: %+v; want 2 releases, ε = 10 spent", a)
	}
}

// The footer is not trusted: a mechanism's footer rewritten to ε = δ = 0 is other
// bytes than the audited file, so the ledger holds no audit of it and release
// refuses it (exit 3). Audited as it now claims (verify --ledger at ε = 0), it fails
// and is recorded not private, and release refuses it again.
func TestForgedFooterNotCharged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	led := filepath.Join(dir, "L")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "10")
	v, e, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	mech := filepath.Join(dir, "m.parquet")
	mustRun(t, 0, "run", "-quiet", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-out", mech, "-ledger", led)
	m, err := ingest.ReadMechanismTable(t.Context(), mech, ingest.DefaultMechanismTableColumns())
	if err != nil {
		t.Fatal(err)
	}
	forged := filepath.Join(dir, "forged.parquet")
	writeMechanism(t, forged, m.IDs.Str, m.POne, map[string]string{"graphdp.epsilon": "0", "graphdp.delta": "0"})
	before, _ := os.ReadFile(led)
	for _, extra := range [][]string{nil, {"--epsilon", "0", "--delta", "0"}, {"--delta", "5e-324"}} {
		code, _, stderr := graphdp(t, append([]string{"release", "--mechanism", forged, "--id", "a", "--out", filepath.Join(dir, "r.csv"), "--ledger", led}, extra...)...)
		if code != 3 || !strings.Contains(stderr, "holds no audit of "+forged) {
			t.Errorf("forged footer %v: exit %d: %s", extra, code, stderr)
		}
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Error("a refused release changed the ledger")
	}
	code, stdout, _ := graphdp(t, "verify", "--mechanism", forged, "--vertices", v, "--edges", e, "--ledger", led)
	if code != 3 || !strings.Contains(stdout, "not private") {
		t.Errorf("verify of the forged footer: exit %d: %s", code, stdout)
	}
	code, _, stderr := graphdp(t, "release", "--mechanism", forged, "--id", "a", "--out", filepath.Join(dir, "r.csv"), "--ledger", led)
	if code != 3 || !strings.Contains(stderr, "found it not private") {
		t.Errorf("release of a mechanism audited not private: exit %d: %s", code, stderr)
	}
	// The genuine file is still charged what its run's audit recorded.
	mustRun(t, 0, "release", "-quiet", "--mechanism", mech, "--id", "a", "--out", filepath.Join(dir, "r.csv"), "--ledger", led)
	l, _ := ledger.Read(led)
	if r := l.Releases[0]; r.Epsilon != 1 || r.Source != ledger.SourceAudit || r.Audit != l.Audits[0].AuditID {
		t.Errorf("the genuine release: %+v", r)
	}
}

// The same on object storage: run writes the mechanism to an S3 object and records
// its audit; release reads it there and is charged what the audit recorded; a
// second object with the same rows and a forged footer is refused (exit 3).
func TestObjectMechanismChargedItsAudit(t *testing.T) {
	s3Env(t)
	dir := t.TempDir()
	led := filepath.Join(dir, "L")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "10")
	v, e, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	const mech = "s3://warehouse/out/m.parquet"
	mustRun(t, 0, "run", "-quiet", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "2", "-out", mech, "-ledger", led)
	mustRun(t, 0, "release", "-quiet", "--mechanism", mech, "--id", "a", "--out", filepath.Join(dir, "r.csv"), "--ledger", led)
	m, err := ingest.ReadMechanismTable(t.Context(), mech, ingest.DefaultMechanismTableColumns())
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(dir, "forged.parquet")
	writeMechanism(t, local, m.IDs.Str, m.POne, map[string]string{"graphdp.epsilon": "0", "graphdp.delta": "0"})
	data, _ := os.ReadFile(local)
	putObject(t, "s3://warehouse/out/forged.parquet", string(data))
	code, _, stderr := graphdp(t, "release", "--mechanism", "s3://warehouse/out/forged.parquet", "--id", "a", "--out", filepath.Join(dir, "r2.csv"), "--ledger", led)
	if code != 3 || !strings.Contains(stderr, "holds no audit of s3://warehouse/out/forged.parquet") {
		t.Errorf("forged object: exit %d: %s", code, stderr)
	}
	// A release to an object: once; the second to the same object is refused
	// (exit 2), the ledger unchanged; and without a ledger only with --no-ledger.
	const out = "s3://warehouse/released/r.csv"
	mustRun(t, 0, "release", "-quiet", "--mechanism", mech, "--id", "b", "--out", out, "--ledger", led)
	first, err := getObject(t, out)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(led)
	code, _, stderr = graphdp(t, "release", "--mechanism", mech, "--id", "c", "--out", out, "--ledger", led)
	if code != 2 || !strings.Contains(stderr, out+" exists; a release never replaces a file") {
		t.Errorf("a second release to the same object: exit %d: %s", code, stderr)
	}
	if got, _ := getObject(t, out); got != first {
		t.Errorf("the released object was replaced")
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Error("a refused release changed the ledger")
	}
	code, _, stderr = graphdp(t, "release", "--mechanism", mech, "--id", "c", "--out", "s3://warehouse/released/r2.csv")
	if code != 2 || !strings.Contains(stderr, "--no-ledger") {
		t.Errorf("a release to an object without a ledger: exit %d: %s", code, stderr)
	}
	l, _ := ledger.Read(led)
	if len(l.Releases) != 2 || l.Releases[0].Epsilon != 2 || l.Audits[0].Mechanism != mech {
		t.Errorf("ledger: %+v %+v", l.Releases, l.Audits)
	}
}

// A run told --allow-non-private writes its mechanism and records its audit as
// not private; release then refuses it (exit 3), whatever is typed.
func TestNonPrivateRunRecordedNotPrivate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	led := filepath.Join(dir, "L")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "10")
	v, _, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	e := filepath.Join(dir, "header-only.csv")
	write(t, e, "src,dst\n")
	mech := filepath.Join(dir, "m.parquet")
	code, _, stderr := graphdp(t, "run", "-quiet", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-out", mech, "-ledger", led)
	if code != 3 {
		t.Fatalf("a non-private run: exit %d: %s", code, stderr)
	}
	if l, _ := ledger.Read(led); len(l.Audits) != 0 {
		t.Fatal("a refused run recorded an audit")
	}
	mustRun(t, 0, "run", "-quiet", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-out", mech, "-ledger", led, "-allow-non-private")
	l, _ := ledger.Read(led)
	if len(l.Audits) != 1 || l.Audits[0].Private {
		t.Fatalf("audits: %+v", l.Audits)
	}
	for _, extra := range [][]string{nil, {"--epsilon", "1", "--delta", "0"}} {
		code, _, stderr = graphdp(t, append([]string{"release", "--mechanism", mech, "--id", "a", "--out", filepath.Join(dir, "r.csv"), "--ledger", led}, extra...)...)
		if code != 3 || !strings.Contains(stderr, "found it not private") {
			t.Errorf("release of a non-private mechanism %v: exit %d: %s", extra, code, stderr)
		}
	}
}

// --quiet means nothing on stderr but errors: a run that warns (a mechanism written
// with --allow-non-private) prints no WARN line with it, unless --log-level asks.
func TestQuietSilencesWarnings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	v, _, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	e := filepath.Join(dir, "header-only.csv")
	write(t, e, "src,dst\n")
	args := []string{"run", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-allow-non-private"}
	_, stderr := mustRun(t, 0, append(args, "-out", filepath.Join(dir, "m1.csv"))...)
	if !strings.Contains(stderr, "WARN") {
		t.Fatalf("the run does not warn, so the test proves nothing:\n%s", stderr)
	}
	if _, stderr := mustRun(t, 0, append(args, "-out", filepath.Join(dir, "m2.csv"), "-quiet")...); stderr != "" {
		t.Errorf("--quiet printed:\n%s", stderr)
	}
	if _, stderr := mustRun(t, 0, append(args, "-out", filepath.Join(dir, "m3.csv"), "-quiet", "-log-level", "warn")...); !strings.Contains(stderr, "WARN") {
		t.Errorf("--quiet --log-level warn printed no warning:\n%s", stderr)
	}
}

// report --html says on stderr that it wrote the page, and that the page is private.
func TestReportSaysItWroteThePage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	v, e, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	mech := filepath.Join(dir, "m.parquet")
	mustRun(t, 0, "run", "-quiet", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-out", mech)
	page := filepath.Join(dir, "r.html")
	_, stderr := mustRun(t, 0, "report", "--mechanism", mech, "--vertices", v, "--edges", e, "--html", page)
	if want := "graphdp report: wrote " + page + " (private: it draws every dataset's answer; mode 0600)\n"; !sameWords(stderr, want) {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// An output to a bucket that does not exist is refused before any work (exit 2,
// naming the key, the object and the bucket), as an output to a missing local
// folder is; an existing bucket is fine.
func TestMissingOutputBucketBeforeWork(t *testing.T) {
	s3Env(t)
	dir := t.TempDir()
	v, e, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	run := func(out string) (int, string) {
		code, _, stderr := graphdp(t, "run", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-out", out, "--log-level", "info")
		return code, stderr
	}
	code, stderr := run("s3://no-such-bucket/m.csv")
	if code != 2 || !strings.Contains(stderr, "s3://no-such-bucket/m.csv: its bucket no-such-bucket does not exist") || strings.Contains(stderr, "reading inputs") {
		t.Errorf("a missing output bucket: exit %d:\n%s", code, stderr)
	}
	if code, stderr := run("s3://warehouse/out/m.csv"); code != 0 {
		t.Errorf("an existing bucket: exit %d:\n%s", code, stderr)
	}
}

// No credentials at all: one line saying where the SDK looked, exit 2 before any
// work, not the chain of every credential provider's failure.
func TestNoCredentialsOneLine(t *testing.T) {
	s3Env(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	objstore.ResetClients()
	dir := t.TempDir()
	v, e, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	code, _, stderr := graphdp(t, "run", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-out", "s3://warehouse/out/m.csv")
	first, _, _ := strings.Cut(stderr, "\n")
	if code != 2 || !strings.Contains(first, "no credentials found (AWS: looked at AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE") ||
		strings.Contains(stderr, "ec2imds") || len(first) > 300 {
		t.Errorf("no credentials: exit %d:\n%s", code, stderr)
	}
}

// The folder and broken-export reproducers on object storage: a mechanism folder
// of two runs' parts under one S3 prefix is refused by release naming both objects,
// the ledger unchanged; a header-only edges object makes run exit 3 with nothing
// written to the bucket.
func TestObjectFolderAndBrokenExport(t *testing.T) {
	s3Env(t)
	dir := t.TempDir()
	led := filepath.Join(dir, "L")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "10")
	va, ea, ha := pathGraph(t, filepath.Join(dir, "A"), "A", 1, 1, 0, 0)
	vb, eb, hb := pathGraph(t, filepath.Join(dir, "B"), "B", 0, 1, 1)
	mustRun(t, 0, "run", "-quiet", "-vertices", va, "-edges", ea, "-hitting-set", ha, "-epsilon", "0.1", "-out", "s3://warehouse/mech/part-0.parquet", "-ledger", led)
	mustRun(t, 0, "run", "-quiet", "-vertices", vb, "-edges", eb, "-hitting-set", hb, "-epsilon", "5", "-out", "s3://warehouse/mech/part-1.parquet", "-ledger", led)
	before, _ := os.ReadFile(led)
	code, _, stderr := graphdp(t, "release", "--mechanism", "s3://warehouse/mech/", "--id", "Ba", "--out", filepath.Join(dir, "r.csv"), "--ledger", led)
	if code != 3 || !strings.Contains(stderr, "s3://warehouse/mech/part-0.parquet") || !strings.Contains(stderr, "s3://warehouse/mech/part-1.parquet") {
		t.Errorf("an S3 folder of two runs' parts: exit %d: %s", code, stderr)
	}
	if after, _ := os.ReadFile(led); !bytes.Equal(after, before) {
		t.Error("a refused release changed the ledger")
	}
	putObject(t, "s3://warehouse/broken/edges.csv", "src,dst\n")
	code, _, stderr = graphdp(t, "run", "-vertices", va, "-edges", "s3://warehouse/broken/edges.csv", "-hitting-set", ha, "-epsilon", "1",
		"-out", "s3://warehouse/broken/m.parquet", "-summary", "s3://warehouse/broken/s.json")
	if code != 3 || !strings.Contains(stderr, "datasets are not private") {
		t.Errorf("a header-only edges object: exit %d: %s", code, stderr)
	}
	for _, u := range []string{"s3://warehouse/broken/m.parquet", "s3://warehouse/broken/s.json"} {
		if _, err := getObject(t, u); !errors.Is(err, objstore.ErrNotFound) {
			t.Errorf("a refused run wrote %s (%v)", u, err)
		}
	}
}

// On a terminal, a log line clears the progress status line before it is written.
func TestLogLineClearsTheStatusLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("\rread 40% (4.0M of 10M rows)")
	w := clearingLine{&b}
	if n, err := w.Write([]byte("time=… level=WARN msg=…\n")); err != nil || n != len("time=… level=WARN msg=…\n") {
		t.Fatalf("%d %v", n, err)
	}
	if got := b.String(); got != "\rread 40% (4.0M of 10M rows)\r\033[Ktime=… level=WARN msg=…\n" {
		t.Errorf("%q", got)
	}
}

// A run whose parameters protect little says so (stderr, the log, the summary's
// weak_privacy), and runs: ε = 50, δ = 0.05.
func TestWeakPrivacySaid(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	v, e, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	_, stderr := mustRun(t, 0, "run", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "50", "-delta", "0.05",
		"-out", filepath.Join(dir, "m.csv"), "-summary", filepath.Join(dir, "s.json"))
	if !strings.Contains(stderr, "WARNING: weak privacy: ε = 50 lets a release be e^ε ≈ 5.2e+21 times likelier") ||
		!strings.Contains(stderr, "δ = 0.05 lets that bound fail with probability 0.05 for each person") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if s, _ := os.ReadFile(filepath.Join(dir, "s.json")); !strings.Contains(string(s), `"weak_privacy": "weak privacy: ε = 50`) {
		t.Errorf("summary: %s", s)
	}
	_, stderr = mustRun(t, 0, "run", "-quiet", "-log-format", "json", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "50",
		"-out", filepath.Join(dir, "mj.csv"))
	if !strings.Contains(stderr, `"weak_privacy":"weak privacy: ε = 50`) {
		t.Errorf("the JSON run summary record lacks weak_privacy:\n%s", stderr)
	}
	_, stderr = mustRun(t, 0, "run", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-out", filepath.Join(dir, "m1.csv"))
	if strings.Contains(stderr, "weak privacy") {
		t.Errorf("ε = 1 called weak:\n%s", stderr)
	}
}

// A command's own outputs on object storage (optimize --summary) get the object
// check, not a local folder's: an existing bucket is written, a missing one is
// refused before any work naming the bucket.
func TestOwnObjectOutputsChecked(t *testing.T) {
	s3Env(t)
	dir := t.TempDir()
	v, e, _ := pathGraph(t, dir, "", 1, 1, 0, 0)
	args := []string{"optimize", "-quiet", "-vertices", v, "-edges", e, "-epsilon", "1", "-out", filepath.Join(dir, "h.csv")}
	mustRun(t, 0, append(args, "-summary", "s3://warehouse/out/s.json")...)
	if _, err := getObject(t, "s3://warehouse/out/s.json"); err != nil {
		t.Errorf("the summary object: %v", err)
	}
	code, _, stderr := graphdp(t, append(args, "-summary", "s3://no-such-bucket/s.json")...)
	if code != 2 || !strings.Contains(stderr, "its bucket no-such-bucket does not exist") {
		t.Errorf("a missing bucket for --summary: exit %d: %s", code, stderr)
	}
}
