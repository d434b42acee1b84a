package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/graphdp/graphdp/ingest"
	"github.com/graphdp/graphdp/job"
	"github.com/graphdp/graphdp/ledger"
	"github.com/graphdp/graphdp/pipeline"

	"github.com/graphdp/graphdp/internal/objstore"
)

// exitCase is one command failing one way: its exit status, a text its message
// must hold (the file or flag it names, so that the status cannot come from
// another problem), and an output that must not be there afterwards.
type exitCase struct {
	name  string
	args  []string
	code  int
	names string
	out   string // "": none
}

// runExitCases runs each case in-process and checks status, message and output.
func runExitCases(t *testing.T, cases []exitCase) {
	t.Helper()
	for _, c := range cases {
		code, _, stderr := graphdp(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.names) {
			t.Errorf("%s: graphdp %s: exit %d, want %d with a message naming %q:\n%s", c.name, strings.Join(c.args, " "), code, c.code, c.names, stderr)
		}
		if _, err := os.Stat(c.out); c.out != "" && err == nil {
			t.Errorf("%s: %s was written", c.name, c.out)
		}
	}
}

// One exit-code rule across the commands (docs/TOOLKIT.md, "Exit codes"; exitCode):
// whatever can be told before any work is 2 — a bad flag, a named input that does
// not exist (a file, a glob matching nothing, a folder missing or holding no table
// file), a missing ledger, an output's missing folder; what the inputs hold is 3 (a
// bad row names file and row); a refusal by policy is 3 (a release past the budget,
// a mechanism the ledger holds no audit of, datasets that are not private). Every
// kind of failure is tried on several commands.
func TestExitCodeRule(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	v, e, h := pathGraph(t, dir, "", 1, 1, 0, 0) // a b c d; b and c the hitting set
	led := p("L")
	mustRun(t, 0, "ledger", "init", led, "--budget-epsilon", "1.5")
	mech, unaudited := p("m.parquet"), p("unaudited.parquet")
	mustRun(t, 0, "run", "-quiet", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-out", mech, "-ledger", led)
	// Another ε: other bytes, so that the ledger's audit is not this mechanism's too;
	// a release at 0.4 would fit the budget left.
	mustRun(t, 0, "run", "-quiet", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "0.4", "-out", unaudited)
	mustRun(t, 0, "release", "-quiet", "-mechanism", mech, "-id", "a", "-out", p("first.csv"), "-ledger", led) // ε 1 of 1.5 spent
	write(t, p("e-bad.csv"), "src,dst\na,b\nb,zz\n")
	write(t, p("v-bad.csv"), "id,answer\na,1\nb,2\n")
	write(t, p("h-bad.csv"), "id,p_true\nb,1.5\n")
	write(t, p("m-bad.csv"), "id,p_one\na,0.5\nb,-1\nc,0.5\nd,0.5\n")
	write(t, p("ids-bad.csv"), "id\na\nzz\n")
	write(t, p("w-bad.csv"), "id,weight\na,x\n")
	write(t, p("v-isolated.csv"), "id,answer\na,1\nb,1\nc,0\nd,0\ne,1\n")
	write(t, p("not-a-ledger"), "garbage\n")
	os.Mkdir(p("empty"), 0o755)
	write(t, p("empty/_SUCCESS"), "")
	nope, glob, noFolder, noDir := p("nope.csv"), p("nope-*.csv"), p("nodir")+"/", p("nodir/out.csv")
	graphOf := func(cmd, v string, more ...string) []string {
		return append([]string{cmd, "-vertices", v, "-edges", e, "-epsilon", "1"}, more...)
	}
	graph := func(cmd string, more ...string) []string { return graphOf(cmd, v, more...) }
	mechArgs := func(cmd string, more ...string) []string {
		return append([]string{cmd, "-vertices", v, "-edges", e, "-mechanism", mech}, more...)
	}
	release := func(more ...string) []string {
		return append([]string{"release", "-quiet", "-mechanism", mech, "-no-ledger", "-out", p("r.csv")}, more...)
	}
	run := func(over ...string) []string {
		args := map[string]string{"-vertices": v, "-edges": e, "-hitting-set": h, "-out": p("run.csv")}
		for i := 0; i+1 < len(over); i += 2 {
			args[over[i]] = over[i+1]
		}
		out := []string{"run", "-quiet", "-epsilon", "1"}
		for _, k := range []string{"-vertices", "-edges", "-hitting-set", "-out"} {
			out = append(out, k, args[k])
		}
		return out
	}
	t.Run("missing input file", func(t *testing.T) {
		runExitCases(t, []exitCase{
			{"run", run("-edges", nope), 2, "--edges: " + nope + ": no such file", p("run.csv")},
			{"hitting-set", graph("hitting-set", "-vertices", nope, "-out", p("hs.csv")), 2, "--vertices: " + nope, p("hs.csv")},
			{"verify", mechArgs("verify", "-hitting-set", nope), 2, "--hitting-set: " + nope, ""},
			{"report", []string{"report", "-vertices", v, "-edges", e, "-mechanism", nope}, 2, "--mechanism: " + nope, ""},
			{"query", graph("query", "-hitting-set", nope, "-id", "a"), 2, "--hitting-set: " + nope, ""},
			{"optimize", graph("optimize", "-weights", nope, "-out", p("o.csv")), 2, "--weights: " + nope, p("o.csv")},
			{"release", release("-ids", nope), 2, "--ids: " + nope, p("r.csv")},
			{"release, the mechanism", []string{"release", "-mechanism", nope, "-no-ledger", "-id", "a", "-out", p("r.csv")}, 2, "--mechanism: " + nope, p("r.csv")},
			{"two at once", run("-edges", nope, "-vertices", p("nope-v.csv")), 2, "--vertices: " + p("nope-v.csv"), p("run.csv")},
			// Checked before any is read: the bad vertices file is never reached.
			{"before reading any", run("-vertices", p("v-bad.csv"), "-edges", nope), 2, "--edges: " + nope, p("run.csv")},
		})
	})
	t.Run("missing input in a glob or folder", func(t *testing.T) {
		runExitCases(t, []exitCase{
			{"run, a glob", run("-edges", glob), 2, "--edges: " + glob + ": no file matches this glob", p("run.csv")},
			{"run, an empty folder", run("-hitting-set", p("empty")), 2, "--hitting-set: " + p("empty") + ": folder holds no", p("run.csv")},
			{"hitting-set, a missing folder", graph("hitting-set", "-edges", noFolder, "-out", p("hs.csv")), 2, "--edges: " + noFolder + ": no such file or folder", p("hs.csv")},
			{"verify, a glob", []string{"verify", "-vertices", v, "-edges", e, "-mechanism", glob}, 2, "--mechanism: " + glob, ""},
			{"report, an empty folder", []string{"report", "-vertices", v, "-edges", e, "-mechanism", p("empty")}, 2, "--mechanism: " + p("empty"), ""},
			{"query, a glob", graph("query", "-hitting-set", h, "-ids", glob), 2, "--ids: " + glob, ""},
			{"optimize, an empty folder", graph("optimize", "-edges", p("empty"), "-out", p("o.csv")), 2, "--edges: " + p("empty"), p("o.csv")},
			{"release, a glob", release("-ids", glob), 2, "--ids: " + glob, p("r.csv")},
		})
	})
	t.Run("not a table's path", func(t *testing.T) {
		write(t, p("e.txt"), "src,dst\na,b\n")
		os.Mkdir(p("parts"), 0o755)
		write(t, p("parts/e0.csv"), "src,dst\na,b\n")
		writeTable(t, p("parts/e1.parquet"), arrow.BinaryTypes.String, []string{"src", "dst"}, []any{"b"}, []any{"c"})
		runExitCases(t, []exitCase{
			{"run, an extension", run("-edges", p("e.txt"), "-vertices", p("v-bad.csv")), 2, "--edges: " + p("e.txt") + ": unsupported file extension", p("run.csv")},
			{"verify, formats mixed", []string{"verify", "-vertices", p("v-bad.csv"), "-edges", p("parts"), "-mechanism", mech}, 2, "--edges: " + p("parts/e1.parquet") + ": its format differs", ""},
			{"query, a file named twice", graphOf("query", p("v-bad.csv"), "-hitting-set", h, "-hitting-set", p("*.csv"), "-id", "a"), 2, "named twice", ""},
		})
	})
	t.Run("bad content", func(t *testing.T) {
		runExitCases(t, []exitCase{
			{"run", run("-edges", p("e-bad.csv")), 3, p("e-bad.csv") + `: row 2, column "dst"`, p("run.csv")},
			{"hitting-set", graph("hitting-set", "-vertices", p("v-bad.csv"), "-out", p("hs.csv")), 3, p("v-bad.csv") + `: row 2, column "answer"`, p("hs.csv")},
			{"verify", []string{"verify", "-vertices", v, "-edges", e, "-mechanism", p("m-bad.csv"), "-epsilon", "1"}, 3, p("m-bad.csv") + `: row 2, column "p_one"`, ""},
			{"report", []string{"report", "-vertices", v, "-edges", e, "-mechanism", p("m-bad.csv"), "-epsilon", "1"}, 3, p("m-bad.csv") + `: row 2, column "p_one"`, ""},
			{"query", graph("query", "-hitting-set", p("h-bad.csv"), "-id", "a"), 3, p("h-bad.csv") + `: row 1, column "p_true"`, ""},
			{"optimize", graph("optimize", "-weights", p("w-bad.csv"), "-out", p("o.csv")), 3, p("w-bad.csv") + `: row 1, column "weight"`, p("o.csv")},
			{"release", release("-ids", p("ids-bad.csv")), 3, p("ids-bad.csv") + `: row 2, column "id"`, p("r.csv")},
			{"ledger verify", []string{"ledger", "verify", p("not-a-ledger")}, 3, p("not-a-ledger") + ": line 1", ""},
		})
	})
	t.Run("missing ledger", func(t *testing.T) {
		runExitCases(t, []exitCase{
			{"run", append(run(), "-ledger", p("nope.jsonl")), 2, p("nope.jsonl") + " does not exist", p("run.csv")},
			{"verify", mechArgs("verify", "-ledger", p("nope.jsonl")), 2, p("nope.jsonl") + " does not exist", ""},
			{"release", []string{"release", "-mechanism", mech, "-id", "a", "-out", p("r.csv"), "-ledger", p("nope.jsonl")}, 2, p("nope.jsonl") + " does not exist", p("r.csv")},
			{"ledger show", []string{"ledger", "show", p("nope.jsonl")}, 2, p("nope.jsonl") + ": no such ledger", ""},
			{"ledger verify", []string{"ledger", "verify", p("nope.jsonl")}, 2, p("nope.jsonl") + ": no such ledger", ""},
			{"ledger raise", []string{"ledger", "raise", p("nope.jsonl"), "-budget-epsilon", "3", "-reason", "more"}, 2, p("nope.jsonl") + ": no such ledger", ""},
		})
	})
	t.Run("missing output folder", func(t *testing.T) {
		runExitCases(t, []exitCase{
			{"run", run("-out", noDir), 2, "--out: " + noDir + ": the folder " + p("nodir") + " does not exist", ""},
			{"run, the summary", append(run(), "-summary", noDir), 2, "--summary: " + noDir, p("run.csv")},
			{"hitting-set", graph("hitting-set", "-out", noDir), 2, "--out: " + noDir, ""},
			{"optimize", graph("optimize", "-out", noDir), 2, "--out: " + noDir, ""},
			{"query", graph("query", "-hitting-set", h, "-id", "a", "-out", noDir), 2, "--out: " + noDir, ""},
			{"report", mechArgs("report", "-html", noDir), 2, "--html: " + noDir, ""},
			{"release", []string{"release", "-mechanism", mech, "-no-ledger", "-id", "a", "-out", noDir}, 2, "--out: " + noDir, ""},
			{"ledger init", []string{"ledger", "init", noDir, "-budget-epsilon", "1"}, 2, noDir + ": the folder " + p("nodir") + " does not exist", ""},
		})
	})
	t.Run("bad flag", func(t *testing.T) {
		var cases []exitCase
		for _, cmd := range [][]string{{"run"}, {"hitting-set"}, {"verify"}, {"report"}, {"optimize"}, {"release"}, {"query"}, {"ledger", "show", led}} {
			cases = append(cases, exitCase{strings.Join(cmd, " "), append(cmd, "--bogus"), 2, "unknown flag --bogus", ""})
		}
		runExitCases(t, cases)
	})
	t.Run("refused by policy", func(t *testing.T) {
		before, _ := os.ReadFile(led)
		runExitCases(t, []exitCase{
			{"release past the budget", []string{"release", "-mechanism", mech, "-id", "a", "-out", p("r.csv"), "-ledger", led}, 3, "past the budget", p("r.csv")},
			{"release of a mechanism with no audit", []string{"release", "-mechanism", unaudited, "-id", "a", "-out", p("r.csv"), "-ledger", led}, 3, "no audit", p("r.csv")},
			{"run with datasets not private", run("-vertices", p("v-isolated.csv")), 3, "not private", p("run.csv")},
			{"optimize with datasets not private", graphOf("optimize", p("v-isolated.csv"), "-out", p("o.csv")), 3, "not private", p("o.csv")},
		})
		if after, _ := os.ReadFile(led); string(after) != string(before) {
			t.Error("a refused release changed the ledger")
		}
	})
}

// The rule on object storage (an in-process S3 server): a missing input object, a
// prefix holding no table file, a missing input bucket and a missing output bucket
// are 2, found before any work; a bad row in an object is 3; no credentials at
// all is 2, for an input as for an output.
func TestExitCodeRuleObjects(t *testing.T) {
	s3Env(t)
	dir := t.TempDir()
	v, e, h := pathGraph(t, dir, "", 1, 1, 0, 0)
	putObject(t, "s3://warehouse/in/e.csv", "src,dst\na,b\nb,c\nc,d\n")
	putObject(t, "s3://warehouse/in/e-bad.csv", "src,dst\na,b\nb,zz\n")
	out := filepath.Join(dir, "m.csv")
	run := func(edges, out string) []string {
		return []string{"run", "-quiet", "-vertices", v, "-edges", edges, "-hitting-set", h, "-epsilon", "1", "-out", out}
	}
	mustRun(t, 0, run("s3://warehouse/in/e.csv", out)...)
	os.Remove(out)
	runExitCases(t, []exitCase{
		{"missing input object", run("s3://warehouse/in/nope.csv", out), 2, "--edges: s3://warehouse/in/nope.csv", out},
		{"prefix of no table file", run("s3://warehouse/nothing/", out), 2, "--edges: s3://warehouse/nothing/", out},
		{"missing input bucket", run("s3://no-such-bucket/e.csv", out), 2, "--edges: s3://no-such-bucket/e.csv", out},
		{"missing input object, verify", []string{"verify", "-vertices", v, "-edges", e, "-mechanism", "s3://warehouse/in/m.parquet"}, 2, "--mechanism: s3://warehouse/in/m.parquet", ""},
		{"missing output bucket", run(e, "s3://no-such-bucket/m.csv"), 2, "s3://no-such-bucket/m.csv: its bucket no-such-bucket does not exist", ""},
		{"bad row in an object", run("s3://warehouse/in/e-bad.csv", out), 3, `s3://warehouse/in/e-bad.csv: row 2, column "dst"`, out},
	})
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	objstore.ResetClients()
	runExitCases(t, []exitCase{
		{"no credentials, an input", run("s3://warehouse/in/e.csv", out), 2, "--edges: s3://warehouse/in/e.csv", out},
		{"no credentials, an output", run(e, "s3://warehouse/out/m.csv"), 2, "no credentials found", ""},
	})
}

// exitCode routes by type and kind, wrapped or not, never by wording: a reader that
// meets a missing, forbidden or unnamable input (a file gone after the check before
// any work, a Beam worker's error) gives 2 like that check does; every other input
// error 3; a ledger's request 2 and its content 3; anything else 1.
func TestExitCodeRouting(t *testing.T) {
	in := func(kind error) error {
		return &ingest.InputError{File: "e.csv", Row: -1, Err: kind, Msg: "no such file or folder"}
	}
	for _, c := range []struct {
		name string
		err  error
		code int
	}{
		{"nil", nil, 0},
		{"missing input", in(ingest.ErrMissing), 2},
		{"missing input, wrapped", fmt.Errorf("reading: %w", in(ingest.ErrMissing)), 2},
		{"input not allowed", in(ingest.ErrAccess), 2},
		{"not a table's path", in(ingest.ErrPath), 2},
		{"unreadable input", in(ingest.ErrUnreadable), 3},
		{"a bad value", in(ingest.ErrRange), 3},
		{"an unknown id, wrapped", fmt.Errorf("x: %w", in(ingest.ErrUnknownID)), 3},
		{"config", &job.ConfigError{Problems: []string{"edges: required"}}, 2},
		{"usage", &usageError{"unknown flag --bogus"}, 2},
		{"object storage not linked", fmt.Errorf("s3://b/k: %w", objstore.ErrNotLinked), 2},
		{"no such ledger", &ledger.Error{File: "L", Kind: ledger.ErrMissing}, 2},
		{"init over a ledger", &ledger.Error{File: "L", Kind: ledger.ErrExists}, 2},
		{"a broken ledger", &ledger.Error{File: "L", Line: 4, Kind: ledger.ErrBroken}, 3},
		{"over budget", &pipeline.RejectError{Kind: "over-budget", Head: "past the budget"}, 3},
		{"not private", &pipeline.RejectError{Kind: "not-private", Head: "not private"}, 3},
		{"a failed check", &rejected{"audit failed"}, 3},
		{"a write failure", errors.New("write m.csv: no space left on device"), 1},
	} {
		if got := exitCode(c.err); got != c.code {
			t.Errorf("%s: exitCode(%v) = %d, want %d", c.name, c.err, got, c.code)
		}
	}
}
