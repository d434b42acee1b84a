package sink

import "testing"

// The problem a job and the commands report for an output path: none for the four
// formats (any case), else the key, the path, the extension and what is accepted.
func TestFormatProblem(t *testing.T) {
	for _, p := range []string{"m.parquet", "m.ARROW", "m.feather", "dir/m.csv"} {
		if got := FormatProblem("out", p); got != "" {
			t.Errorf("FormatProblem(out, %s) = %q, want none", p, got)
		}
	}
	want := `mechanism-out: m.json: unknown format ".json" (use .parquet, .arrow, .feather or .csv)`
	if got := FormatProblem("mechanism-out", "m.json"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := FormatProblem("out", "m"); got != `out: m: unknown format "" (use .parquet, .arrow, .feather or .csv)` {
		t.Errorf("no extension: %q", got)
	}
}
