package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// jsonRecordsOf parses every line of stderr as one JSON object, failing on any
// line that is not.
func jsonRecordsOf(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("a stderr line is not JSON (%v): %q\nall of stderr:\n%s", err, line, stderr)
		}
		recs = append(recs, r)
	}
	return recs
}

// With --log-format json every stderr line is a JSON record: log lines, the run
// summary (one record holding it all), the deterministic warning, errors with their
// exit status and hint (bad flags included), other commands' human lines.
func TestLogFormatJSON(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.csv")

	code, _, stderr := graphdp(t, detArgs(out, "--log-format", "json", "--log-level", "info")...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	var summaries, warnings int
	for _, r := range jsonRecordsOf(t, stderr) {
		switch r["msg"] {
		case "run summary":
			summaries++
			s := r["summary"].(map[string]any)
			if s["vertices"].(float64) < 1 || s["out"] != out || s["deterministic"].(map[string]any)["count"].(float64) < 1 {
				t.Errorf("summary record %v", s)
			}
		}
		if r["level"] == "WARN" {
			warnings++
		}
	}
	if summaries != 1 || warnings < 1 {
		t.Errorf("%d summary records (want 1), %d warnings (want ≥ 1):\n%s", summaries, warnings, stderr)
	}

	// The summary is data: it comes with --quiet too, and nothing else does at warn.
	code, _, stderr = graphdp(t, append(pathArgs(out), "--log-format", "json")...)
	if recs := jsonRecordsOf(t, stderr); code != 0 || len(recs) != 1 || recs[0]["msg"] != "run summary" {
		t.Errorf("quiet run: exit %d, stderr:\n%s", code, stderr)
	}

	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"run", "--log-format", "json", "--hiting-set", "h.csv"}, 2, "did you mean --hitting-set?"},
		{append(pathArgs(out, "-hitting-set", "testdata/bad/hit_infeasible.csv"), "-log-format=json"), 3, "hitting-set datasets conflict (tolerance 1e-09); nothing written\n  two hitting-set datasets whose p_true are both in"},
		{[]string{"release", "--log-format", "json", "--mechanism", out, "--epsilon", "1", "--delta", "0", "--id", "1", "--out", filepath.Join(dir, "r.csv"), "--no-ledger"}, 0, "graphdp release: 1 answer drawn"},
	} {
		code, _, stderr := graphdp(t, c.args...)
		recs := jsonRecordsOf(t, stderr)
		if code != c.code || len(recs) == 0 || !strings.Contains(recs[0]["msg"].(string), c.msg) {
			t.Errorf("%v: exit %d (want %d), stderr:\n%s", c.args, code, c.code, stderr)
			continue
		}
		if c.code != 0 && (recs[0]["level"] != "ERROR" || recs[0]["exit"].(float64) != float64(c.code)) {
			t.Errorf("%v: error record %v", c.args, recs[0])
		}
	}
}

func TestWantsJSON(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--log-format", "json"}, true}, {[]string{"-log-format=json"}, true}, {[]string{"--log-format=text"}, false},
		{[]string{"--out", "log-format"}, false}, {nil, false}, {[]string{"--log-format"}, false},
	} {
		if got := wantsJSON(c.args); got != c.want {
			t.Errorf("wantsJSON(%q) = %v", c.args, got)
		}
	}
}
