package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The shareable channels (docs/FORMATS.md, "Private and shareable outputs") are a
// function of the public graph, the parameters and the audit's verdict only. Every
// answer vector of a few small graphs goes through the real commands, with the
// hitting set hitting-set computes for it and with a fixed user-given one; the JSON
// log lines and the stderr text must be the same for every vector once the fields
// named in maskedFields are masked and the verdict (exit status, verdictMessages)
// is set aside. Had a line said how many datasets answer 1, or how many boundary
// edges there are, two vectors of the same graph would differ.
func TestShareableOutputsIgnoreAnswers(t *testing.T) {
	t.Parallel()
	for _, g := range shareableGraphs {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			n := len(g.ids)
			seen := map[string]map[int]shareableSeen{} // command → exit status → first output
			failed := map[string]bool{}                // one difference a command is enough
			for vec := 0; vec < 1<<n; vec++ {
				answers := make([]int, n)
				for i := range answers {
					answers[i] = vec >> i & 1
				}
				for _, c := range shareableCommands(t, g, answers) {
					byExit := seen[c.label]
					if byExit == nil {
						byExit = map[int]shareableSeen{}
						seen[c.label] = byExit
					}
					first, ok := byExit[c.exit]
					if !ok {
						byExit[c.exit] = shareableSeen{answers, c.out}
						continue
					}
					if first.out != c.out && !failed[c.label] {
						failed[c.label] = true
						t.Errorf("%s: %s gives different shareable output for answers %v and %v:\n--- %v\n%s\n--- %v\n%s",
							g.name, c.label, first.answers, answers, first.answers, first.out, answers, c.out)
					}
				}
			}
		})
	}
}

type shareableSeen struct {
	answers []int
	out     string
}

// shareableGraph is a public graph and a vertex cover of it (a boundary-hitting set
// whatever the answers: the fixed, user-given hitting set).
type shareableGraph struct {
	name  string
	ids   []string
	edges [][2]string
	cover []string
}

var shareableGraphs = []shareableGraph{
	{"path3", []string{"a", "b", "c"}, [][2]string{{"a", "b"}, {"b", "c"}}, []string{"b"}},
	{"triangle", []string{"a", "b", "c"}, [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}}, []string{"a", "b"}},
	// Three hitting-set datasets in conflict: which pairs conflict depends on the
	// answers (1,1,0: {a,c} and {b,c}; 1,0,1: {a,b} and {b,c}).
	{"triangle, all in the hitting set", []string{"a", "b", "c"}, [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}}, []string{"a", "b", "c"}},
	{"cycle4", []string{"a", "b", "c", "d"}, [][2]string{{"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "a"}}, []string{"a", "c"}},
	{"star4", []string{"a", "b", "c", "d", "e"}, [][2]string{{"a", "b"}, {"a", "c"}, {"a", "d"}, {"a", "e"}}, []string{"a"}},
}

// fixedPTrue is the fixed hitting set's value: above the balanced α at ε = 1
// (0.731), so that two cover vertices with different answers conflict and the
// triangle and the 4-cycle reach the infeasible rejection for some vectors (a
// verdict), while a single cover vertex is always feasible.
const fixedPTrue = "0.9"

// shareableRun is one command's masked shareable output for one answer vector.
type shareableRun struct {
	label string
	exit  int
	out   string
}

// shareableCommands runs every command on the graph with these answers and returns
// their masked stderr.
func shareableCommands(t *testing.T, g shareableGraph, answers []int) []shareableRun {
	t.Helper()
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	var v, e, h strings.Builder
	v.WriteString("id,answer\n")
	for i, id := range g.ids {
		fmt.Fprintf(&v, "%s,%d\n", id, answers[i])
	}
	e.WriteString("src,dst\n")
	for _, ed := range g.edges {
		fmt.Fprintf(&e, "%s,%s\n", ed[0], ed[1])
	}
	h.WriteString("id,p_true\n")
	for _, id := range g.cover {
		fmt.Fprintf(&h, "%s,%s\n", id, fixedPTrue)
	}
	for name, text := range map[string]string{"v.csv": v.String(), "e.csv": e.String(), "fixed.csv": h.String()} {
		if err := os.WriteFile(p(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := []string{"--vertices", p("v.csv"), "--edges", p("e.csv"), "--epsilon", "1"}
	jsonLog := []string{"--log-format", "json", "--log-level", "debug"}
	release := []string{"release", "--mechanism", p("ml.csv"), "--out", p("rel.csv"), "--ledger", p("L")}
	for _, id := range g.ids {
		release = append(release, "--id", id)
	}
	cmds := []struct {
		label string
		args  []string
		after string // run only when this command succeeded (its output is the input)
		bare  bool   // takes no graph (ledger init, release)
	}{
		{"hitting-set", []string{"hitting-set", "--out", p("h.csv")}, "", false},
		{"hitting-set --alpha", []string{"hitting-set", "--alpha", fixedPTrue, "--out", p("h9.csv")}, "", false},
		{"run", []string{"run", "--hitting-set", p("h.csv"), "--out", p("m.csv"), "--summary", p("s.json")}, "hitting-set", false},
		{"run (text)", []string{"run", "--hitting-set", p("h.csv"), "--out", p("m2.csv")}, "hitting-set", false},
		{"run (fixed hitting set)", []string{"run", "--hitting-set", p("fixed.csv"), "--out", p("mf.csv")}, "", false},
		{"verify", []string{"verify", "--mechanism", p("m.csv"), "--hitting-set", p("h.csv")}, "run", false},
		{"verify (fixed hitting set)", []string{"verify", "--mechanism", p("mf.csv"), "--hitting-set", p("fixed.csv")}, "run (fixed hitting set)", false},
		{"report", []string{"report", "--mechanism", p("m.csv"), "--html", p("r.html")}, "run", false},
		{"query", []string{"query", "--hitting-set", p("h.csv"), "--id", g.ids[0]}, "hitting-set", false},
		{"optimize", []string{"optimize", "--out", p("o.csv"), "--workers", "1"}, "", false},
		{"optimize (text)", []string{"optimize", "--out", p("o2.csv"), "--workers", "1"}, "", false},
		{"ledger init", []string{"ledger", "init", p("L"), "--budget-epsilon", "100"}, "", true},
		{"run (ledger)", []string{"run", "--hitting-set", p("h.csv"), "--out", p("ml.csv"), "--ledger", p("L")}, "ledger init", false},
		{"release", release, "run (ledger)", true},
	}
	var runs []shareableRun
	exits := map[string]int{}
	for _, c := range cmds {
		if code, ok := exits[c.after]; c.after != "" && (!ok || code != 0) {
			continue
		}
		args := append([]string{}, c.args...)
		if !c.bare {
			args = append(args, in...)
		}
		text := strings.HasSuffix(c.label, " (text)") || c.label == "ledger init"
		if !text {
			args = append(args, jsonLog...)
		}
		code, _, stderr := graphdp(t, args...)
		out := strings.ReplaceAll(stderr, dir, "DIR")
		if text {
			out = maskText(out)
		} else {
			out = maskRecords(t, c.label, out)
		}
		exits[c.label] = code
		runs = append(runs, shareableRun{c.label, code, out})
	}
	// The ledger's lines and the released file are shareable too: once the random
	// and keyed values are masked (maskLedger), the same for every vector; the
	// released answers themselves are the private draw, masked.
	if exits["release"] == 0 {
		data, err := os.ReadFile(p("L"))
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, shareableRun{"the ledger", 0, maskLedger(t, strings.ReplaceAll(string(data), dir, "DIR"))})
		rel, err := os.ReadFile(p("rel.csv"))
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, shareableRun{"the released file", 0, drawnText.ReplaceAllString(string(rel), ",drawn\n")})
	}
	return runs
}

// ledgerRandom are the fields of a ledger entry that are random or keyed by the
// ledger's random key (docs/LEDGER.md, "The key"), or chain hashes over them, or
// times: masked before ledgers are compared.
var ledgerRandom = map[string]bool{"time": true, "prev": true, "ledger": true, "audit_id": true, "release_id": true, "audit": true,
	"mechanism_hmac": true, "graph_hmac": true, "sha256": true}

// maskLedger masks a ledger's random and keyed fields, line by line.
func maskLedger(t *testing.T, text string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a ledger line is not JSON: %s", line)
		}
		var maskIn func(v any)
		maskIn = func(v any) {
			if m, ok := v.(map[string]any); ok {
				for k, x := range m {
					if ledgerRandom[k] {
						m[k] = "masked"
					} else {
						maskIn(x)
					}
				}
			}
		}
		maskIn(rec)
		enc, _ := json.Marshal(rec)
		b.Write(enc)
		b.WriteByte('\n')
	}
	return b.String()
}

// drawnText is a released answer at the end of a line of the released file.
var drawnText = regexp.MustCompile(`,(0|1|true|false)\n`)

// maskedFields are the fields of a JSON record that may differ between answer
// vectors: timings and durations, memory figures (the process's and the memory
// model's, which counts the hitting set's arrays), the verdict (the deterministic
// datasets the audit found). Nothing else: a new answer-dependent field fails.
var maskedFields = map[string]bool{
	"time": true, "seconds": true, "wall_seconds": true, "phases": true,
	"peak_rss_bytes": true, "model_build_bytes": true, "model_engine_bytes": true, "budget_bytes": true,
	"memory_model":  true,
	"deterministic": true, // the verdict (check.Deterministic)
}

// verdictMessages are records that carry the audit's verdict: whether they appear
// may depend on the answers (a component whose datasets all answer alike gets an
// empty computed hitting set, and then every dataset in it is answered with
// certainty), so they are left out of the comparison.
var verdictMessages = []string{"datasets answered deterministically"}

// maskRecords parses every stderr line as a JSON record and returns them, masked,
// one a line.
func maskRecords(t *testing.T, label, stderr string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%s: a stderr line is not a JSON record (%v): %s", label, err, line)
		}
		msg, _ := rec["msg"].(string)
		if verdictRecord(msg) || msg != "" && maskText(msg) == "" {
			continue // the verdict's record, or the deterministic warning's line
		}
		rec["msg"] = maskText(msg)
		mask(rec)
		enc, err := json.Marshal(rec) // keys sorted
		if err != nil {
			t.Fatal(err)
		}
		b.Write(enc)
		b.WriteByte('\n')
	}
	return b.String()
}

func verdictRecord(msg string) bool {
	for _, v := range verdictMessages {
		if strings.Contains(msg, v) {
			return true
		}
	}
	return false
}

// mask replaces the maskedFields of a record, at any depth, by "masked".
func mask(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if maskedFields[k] {
				v[k] = "masked"
				continue
			}
			mask(x)
		}
	case []any:
		for _, x := range v {
			mask(x)
		}
	}
}

var (
	randomID     = regexp.MustCompile(`\b([0-9a-f]{64}|[0-9a-f]{32})\b`) // a release id (128 random bits), a ledger head (a hash over random ids)
	durationText = regexp.MustCompile(`[0-9]+\.[0-9]+s\b`)
	mibText      = regexp.MustCompile(`[0-9]+\.[0-9]+ MiB`)
)

// maskText masks the durations and memory figures of human text (run's "time"
// line), and leaves out the deterministic datasets' line (the verdict: a warning
// when some are not private, a plain count when all are) and the lines indented
// below it.
func maskText(s string) string {
	var keep []string
	verdictIndent := -1
	for _, line := range strings.Split(s, "\n") {
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if verdictIndent >= 0 && indent > verdictIndent {
			continue
		}
		verdictIndent = -1
		if verdictRecord(line) || strings.Contains(line, "answered with certainty") {
			verdictIndent = indent
			continue
		}
		line = durationText.ReplaceAllString(line, "Ds")
		line = randomID.ReplaceAllString(line, "ID")
		keep = append(keep, mibText.ReplaceAllString(line, "M MiB"))
	}
	return strings.Join(keep, "\n")
}
