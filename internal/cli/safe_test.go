package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/graphdp/graphdp/pipeline"
)

// detArgs runs the path example plus an isolated dataset 5 and a component 6 – 7
// without a hitting-set dataset: both answer deterministically (p_true = 1). 5 is not
// private, so the run is refused (TestRunRefusesNotPrivate) unless it is allowed, as
// here: these tests are about what a written run says.
func detArgs(out string, extra ...string) []string {
	return append([]string{"run", "-vertices", "testdata/det/vertices.csv", "-edges", "testdata/det/edges.csv",
		"-hitting-set", "testdata/det/hitting.csv", "-epsilon", ln2, "-out", out, "-allow-non-private"}, extra...)
}

// withoutTimes drops the lines of run's summary that hold timings and sizes (the
// time line and its wrapped continuation).
func withoutTimes(s string) string {
	var keep []string
	inTime := false
	for _, l := range strings.SplitAfter(s, "\n") {
		inTime = strings.HasPrefix(l, "  time ") || inTime && strings.HasPrefix(l, "    ")
		if !inTime {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

// run says loudly which datasets are answered deterministically, which of them are
// private and why: 5 has no neighbours (not private); 6 and 7 are a component
// without a hitting-set dataset, answered 0 on every draw (every DP inequality
// holds: private).
func TestRunWarnsDeterministic(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := graphdp(t, detArgs(filepath.Join(dir, "m.csv"), "-log-level", "error")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "run_deterministic", strings.ReplaceAll(withoutTimes(stderr), dir, "$DIR"))
	// The warning is a log line: -quiet silences it, -log-level warn beside it does not.
	_, _, stderr = graphdp(t, append(detArgs(filepath.Join(dir, "m.csv")), "-quiet", "-log-level", "warn")...)
	if !strings.Contains(stderr, "answered deterministically") || !strings.Contains(stderr, "count=3") {
		t.Errorf("-quiet -log-level warn hides the warning:\n%s", stderr)
	}
	// Without such datasets, no such warning. The paper's path values serve its
	// answer-1 datasets with p_true 0.4 and 0.2 (OPTIMIZE.md, "Per-answer figures and
	// warnings"): a per-answer figure, so report gives it, and run's stderr, shareable,
	// does not.
	path := []string{"-vertices", "testdata/path/vertices.csv", "-edges", "testdata/path/edges.csv", "-epsilon", ln2}
	_, _, stderr = graphdp(t, append([]string{"run", "-hitting-set", "testdata/path/hitting.csv", "-out", filepath.Join(dir, "p.csv")}, path...)...)
	if strings.Contains(stderr, "deterministic") || strings.Contains(stderr, "answer-1") {
		t.Errorf("a deterministic warning without deterministic datasets, or a per-answer figure on stderr:\n%s", stderr)
	}
	stdout, _ := mustRun(t, 0, append([]string{"report", "-mechanism", filepath.Join(dir, "p.csv")}, path...)...)
	if !strings.Contains(stdout, "WARNING: the 2 answer-1 datasets get mean p_true 0.3 < 0.5") {
		t.Errorf("report does not warn of the poorly served answer:\n%s", stdout)
	}
}

// report shows a warning box (text and HTML) that tells the private deterministic
// datasets (6 and 7: their component answers 0 on every draw, every DP inequality
// holds) from the one that is not (5: no neighbours), and the largest gain over
// randomized response is a randomized dataset, not one answered with p_true = 1.
func TestReportWarnsDeterministic(t *testing.T) {
	dir := t.TempDir()
	mech := filepath.Join(dir, "m.csv")
	if code, _, stderr := graphdp(t, detArgs(mech, "-quiet", "-log-level", "error")...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	html := filepath.Join(dir, "r.html")
	code, stdout, stderr := graphdp(t, "report", "-mechanism", mech, "-vertices", "testdata/det/vertices.csv",
		"-edges", "testdata/det/edges.csv", "-epsilon", ln2, "-html", html)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	golden(t, "report_deterministic", strings.ReplaceAll(stdout, dir, "$DIR"))
	if strings.Contains(stdout, "dataset 5)") || strings.Contains(stdout, "dataset 6)") || strings.Contains(stdout, "dataset 7)") {
		t.Errorf("a deterministic dataset is the largest gain:\n%s", stdout)
	}
	page, _ := os.ReadFile(html)
	for _, want := range []string{`class="warn"`, "answered with certainty", "<strong>Not private: 1</strong>; 1 with no neighbours", "Private: 2: every DP inequality",
		"<code>5</code>: no neighbours, <strong>not private</strong>", "<code>6</code>: no constraint in its component, private", "left out of the largest gain"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// release without a ledger refuses deterministic datasets (no audit says they
// are private), naming them (escaped) without saying what they would release;
// the ledger flags are checked before any work.
func TestReleaseSafetyGolden(t *testing.T) {
	const mech01 = "testdata/release/mechanism_01.csv"
	releaseGolden(t, []releaseCase{
		{"release_deterministic", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", mech01, "-id", "1", "-id", "2", "-out", "NEW", "-no-ledger"}, 3},
		{"release_budget_without_ledger", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-id", "1", "-budget-epsilon", "1", "-out", "NEW", "-no-ledger"}, 2},
		{"release_ledger_missing", []string{"-epsilon", "0.5", "-delta", "0", "-mechanism", relMech, "-id", "1", "-ledger", "NEW.ledger", "-out", "NEW"}, 2},
	})
}

// A release file carries nothing derived from the true answers: its metadata keys
// are exactly version, ε, δ, a random release id and the sampler, and no SHA-256 of
// the mechanism or any input appears anywhere in its bytes (a hash of a file with the
// answer column lets anyone test candidate answers against it).
func TestReleaseFileHoldsNoHashOfPrivateData(t *testing.T) {
	dir := t.TempDir()
	led := filepath.Join(dir, "led.jsonl")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "10", "--budget-delta", "1e-3")
	for _, ext := range []string{"parquet", "arrow"} {
		mech := filepath.Join(dir, "mechanism.parquet")
		if code, _, stderr := graphdp(t, "run", "-quiet", "-config", "../../configs/example.yaml", "-out", mech, "-summary", filepath.Join(dir, "s.json"), "-ledger", led); code != 0 {
			t.Fatalf("run: exit %d: %s", code, stderr)
		}
		var secrets []string
		for _, f := range []string{mech, "../../configs/example/vertices.parquet", "../../configs/example/edges.parquet", "../../configs/example/hitting.parquet"} {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(data)
			secrets = append(secrets, hex.EncodeToString(sum[:]))
		}
		ids := map[string]bool{}
		for i := range 2 {
			out := filepath.Join(dir, fmt.Sprintf("released%d.%s", i, ext))
			if code, _, stderr := graphdp(t, "release", "-quiet", "-config", "../../configs/example.yaml", "-mechanism", mech, "-id", "a", "-id", "p", "-out", out, "-ledger", led); code != 0 {
				t.Fatalf("release: exit %d: %s", code, stderr)
			}
			data, _ := os.ReadFile(out)
			for _, s := range secrets {
				if bytes.Contains(data, []byte(s)) {
					t.Errorf("%s holds the hash %s of an input", ext, s)
				}
			}
			meta := releaseMetadata(t, out, ext)
			var keys []string
			for k := range meta {
				keys = append(keys, k)
			}
			want := map[string]bool{"graphdp.version": true, "graphdp.go": true, "graphdp.revision": true, "graphdp.epsilon": true, "graphdp.delta": true, "graphdp.release.id": true, "graphdp.release.sampler": true}
			for _, k := range keys {
				if !want[k] && !strings.HasPrefix(k, "ARROW:") {
					t.Errorf("%s: unexpected metadata %s = %s", ext, k, meta[k])
				}
			}
			if meta["graphdp.epsilon"] != "0.5" || meta["graphdp.delta"] != "1e-06" {
				t.Errorf("%s: ε, δ metadata %q, %q", ext, meta["graphdp.epsilon"], meta["graphdp.delta"])
			}
			ids[meta["graphdp.release.id"]] = true
		}
		if len(ids) != 2 {
			t.Errorf("%s: the same release twice got the same release id: not random", ext)
		}
	}
}

func releaseMetadata(t *testing.T, path, ext string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	meta := map[string]string{}
	if ext == "parquet" {
		rd, err := file.NewParquetReader(f)
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		for _, kv := range rd.MetaData().KeyValueMetadata() {
			meta[kv.Key] = *kv.Value
		}
		return meta
	}
	rd, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	md := rd.Schema().Metadata()
	for i, k := range md.Keys() {
		meta[k] = md.Values()[i]
	}
	return meta
}

// gomaxprocsHandler records GOMAXPROCS at every log record of a run.
type gomaxprocsHandler struct {
	mu   *sync.Mutex
	seen *[]int
}

func (h gomaxprocsHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h gomaxprocsHandler) Handle(context.Context, slog.Record) error {
	h.mu.Lock()
	*h.seen = append(*h.seen, runtime.GOMAXPROCS(0))
	h.mu.Unlock()
	return nil
}
func (h gomaxprocsHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h gomaxprocsHandler) WithGroup(string) slog.Handler      { return h }

// The library does not set process-wide state: a run with -workers 1 (every
// engine) leaves GOMAXPROCS as the program set it, during the run too.
func TestRunWorkersLeaveGOMAXPROCS(t *testing.T) {
	want := runtime.GOMAXPROCS(0)
	for _, eng := range []string{"propagate", "per-source", "rounds"} {
		o, err := parseRun(append(pathArgs(filepath.Join(t.TempDir(), "m.csv"), "-engine", eng)[1:], "-workers", "1"), io.Discard, Graphdp)
		if err != nil {
			t.Fatal(err)
		}
		var seen []int
		log := slog.New(gomaxprocsHandler{new(sync.Mutex), &seen})
		if _, err := pipeline.Run(context.Background(), o.job, log); err != nil {
			t.Fatal(err)
		}
		if len(seen) == 0 {
			t.Fatal("no log records to observe")
		}
		for _, p := range seen {
			if p != want {
				t.Errorf("%s: GOMAXPROCS %d during the run, want %d", eng, p, want)
			}
		}
	}
}
