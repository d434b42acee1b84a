package report

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/graphdp/graphdp/internal/words"
)

// The warning box is at most words.Columns wide however long its lines: a line of
// 630 columns (a warning that names many ids) is wrapped inside it.
func TestBoxWrapsAtTheTextWidth(t *testing.T) {
	long := "  NOT private: " + strings.Repeat("dataset-id ", 55)
	b := box([]string{"WARNING: 55 datasets are answered with certainty", long})
	lines := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	if len(lines) < 8 {
		t.Fatalf("the long line was not wrapped:\n%s", b)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > words.Columns || n != utf8.RuneCountInString(lines[0]) {
			t.Errorf("a line of %d columns (the box is %d):\n%s", n, utf8.RuneCountInString(lines[0]), b)
		}
	}
	if got := strings.Count(b, "dataset-id"); got != 55 {
		t.Errorf("%d ids in the box, want 55", got)
	}
}
