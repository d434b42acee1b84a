package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The texts for people wrap at 100 columns (words.Columns): every command's text on
// stderr (run's summary with its warning, which names many datasets; ledger init's
// and hitting-set's lines), the text report with its box and verify's report, each
// line at most 100 runes, none of their words lost.
func TestTextWrapsAt100Columns(t *testing.T) {
	dir := t.TempDir()
	var vb strings.Builder
	vb.WriteString("id,answer\n")
	for i := range 40 {
		fmt.Fprintf(&vb, "dataset-%02d,%d\n", i, i%2)
	}
	v, e, h, m := filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv"), filepath.Join(dir, "h.csv"), filepath.Join(dir, "m.csv")
	write(t, v, vb.String())
	write(t, e, "src,dst\n")
	write(t, h, "id,p_true\ndataset-00,0.6\n")
	_, stderr := mustRun(t, 0, "run", "-vertices", v, "-edges", e, "-hitting-set", h, "-epsilon", "1", "-out", m, "-allow-non-private", "-log-level", "error")
	report, _ := mustRun(t, 0, "report", "-vertices", v, "-edges", e, "-mechanism", m, "-epsilon", "1")
	verify, _ := mustRun(t, 0, "verify", "-vertices", v, "-edges", e, "-mechanism", m, "-epsilon", "1")
	led := filepath.Join(dir, "ledger.jsonl")
	_, ledgerInit := mustRun(t, 0, "ledger", "init", led, "-budget-epsilon", "5")
	_, hittingSet := mustRun(t, 0, "hitting-set", "-vertices", v, "-edges", e, "-epsilon", "1", "-out", filepath.Join(dir, "hs.csv"))
	for name, c := range map[string]struct{ text, words string }{
		"run's summary": {stderr, "datasets: dataset-01 (no neighbours, NOT private), dataset-02 (no neighbours, NOT private), dataset-03"},
		"report":        {report, "answer-1 datasets: mean p_true"},
		"verify":        {verify, "DP audit: 0 edges checked (both directions, both outputs: 0 inequalities), 0 violations (edge, output)"},
		"ledger init":   {ledgerInit, "and its key " + led + ".key (mode 0600: keep it private): budget ε = 5"},
		"hitting-set":   {hittingSet, "a minimum boundary-hitting set of"},
	} {
		for _, l := range strings.Split(c.text, "\n") {
			if n := utf8.RuneCountInString(l); n > 100 {
				t.Errorf("%s: a line of %d columns: %q", name, n, l)
			}
		}
		if !hasWords(c.text, c.words) {
			t.Errorf("%s lacks %q:\n%s", name, c.words, c.text)
		}
	}
}
