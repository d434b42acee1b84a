package words

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 vertices"}, {1, "1 vertex"}, {2, "2 vertices"}, {-1, "-1 vertex"}} {
		if got := Count(c.n, "vertex", "vertices"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestHumane(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{0, "0"}, {7, "7"}, {584, "584"}, {999, "999"}, {999.7, "1k"}, {1000, "1k"}, {58412, "58.4k"}, {584312.5, "584k"},
		{5.843e6, "5.84M"}, {2.5e9, "2.5G"}, {1.5, "1.5"}, {3e15, "3000T"}, {0.25, "0.25"}} {
		if got := Humane(c.x); got != c.want {
			t.Errorf("Humane(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

// Quote leaves plain values alone and quotes any that could mislead a reader or
// drive a terminal; the result never holds a control character (doc.go, invariant 3).
func TestQuote(t *testing.T) {
	long := strings.Repeat("é", 50) // 100 bytes: cut on a rune boundary at 80
	for _, c := range []struct{ in, want string }{
		{"a", "a"}, {"007", "007"}, {"é-ü", "é-ü"},
		{"", `""`}, {"a b", `"a b"`}, {`a"b`, `"a\"b"`},
		{"\x1b[31mred", `"\x1b[31mred"`}, {"x\rOK", `"x\rOK"`}, {"a\nb", `"a\nb"`}, {"\xff", `"\xff"`},
		{"a\u200bb", `"a\u200bb"`}, // zero-width space: not graphic
		{long, strings.Repeat("é", 40) + "..."},
	} {
		got := Quote(c.in)
		if got != c.want {
			t.Errorf("Quote(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f {
				t.Errorf("Quote(%q) holds control character %q", c.in, r)
			}
		}
	}
}

func TestBit(t *testing.T) {
	if Bit(true) != 1 || Bit(false) != 0 {
		t.Errorf("Bit(true), Bit(false) = %d, %d; want 1, 0", Bit(true), Bit(false))
	}
}

// Wrap keeps every line within the width (but a word longer than it), breaks only
// at spaces, indents continuations by two more spaces, and loses no word.
func TestWrap(t *testing.T) {
	s := "  WARNING: 3 datasets are answered with certainty (p_one = 0 or 1): a release gives the same answer on every draw, " + strings.Repeat("x", 30)
	lines := Wrap(s, 40)
	if len(lines) < 3 || lines[0] != "  WARNING: 3 datasets are answered with" || !strings.HasPrefix(lines[1], "    certainty") {
		t.Fatalf("%q", lines)
	}
	var got []string
	for _, l := range lines {
		if utf8.RuneCountInString(l) > 40 && strings.Contains(strings.TrimSpace(l), " ") {
			t.Errorf("line over the width: %q", l)
		}
		got = append(got, strings.Fields(l)...)
	}
	if strings.Join(got, " ") != strings.Join(strings.Fields(s), " ") {
		t.Errorf("words lost or changed: %q", got)
	}
	if l := Wrap("short", 40); len(l) != 1 || l[0] != "short" {
		t.Errorf("%q", l)
	}
	if l := Wrap(strings.Repeat("y", 50)+" z", 40); len(l) != 2 || l[1] != "  z" {
		t.Errorf("a long word: %q", l)
	}
}
