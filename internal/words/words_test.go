package words

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
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

// Up and Down keep short figures exact and round long ones to 6 significant digits
// in their direction: 3.999994000004001e-06 is four releases' δ of 1e-06 under the
// optimal composition (1 − (1 − 1e-06)^4, which ledger show printed), and
// 4.000000000000001e-06 their sum rounded up (the ledger's certified Σδ); the
// expected strings are worked out by hand from the shortest decimals.
func TestUpDown(t *testing.T) {
	for _, c := range []struct {
		x        float64
		up, down string
	}{
		{0, "0", "0"}, {1e-6, "1e-06", "1e-06"}, {0.5, "0.5", "0.5"}, {2, "2", "2"}, {123456, "123456", "123456"},
		{3.999994000004001e-06, "4e-06", "3.99999e-06"},
		{4.000000000000001e-06, "4.00001e-06", "4e-06"},
		{9.6000005999996e-05, "9.60001e-05", "9.6e-05"},
		{0.7071067811865476, "0.707107", "0.707106"},
		{1234567, "1.23457e+06", "1.23456e+06"},
		{999999.5, "1e+06", "999999"},
		{-3.999994000004001e-06, "-3.99999e-06", "-4e-06"},
		{math.Inf(1), "+Inf", "+Inf"},
	} {
		if got := Up(c.x); got != c.up {
			t.Errorf("Up(%v) = %q, want %q", c.x, got, c.up)
		}
		if got := Down(c.x); got != c.down {
			t.Errorf("Down(%v) = %q, want %q", c.x, got, c.down)
		}
		if Exact(c.x) != (c.up == Num(c.x)) {
			t.Errorf("Exact(%v) = %v, but Up gives %q and Num %q", c.x, Exact(c.x), c.up, Num(c.x))
		}
	}
}

// Up is never below x, Down never above, each has at most 6 significant digits, and
// neither moves a figure that Num already writes in 6: compared as exact rationals,
// over floats of every magnitude a privacy figure has.
func TestUpDownBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		x := r.Float64() * math.Pow(10, float64(r.IntN(30)-20))
		if r.IntN(2) == 0 {
			x = -x
		}
		exact := new(big.Rat).SetFloat64(x)
		for _, c := range []struct {
			name string
			s    string
			sign int // the side of x the figure must be on
		}{{"Up", Up(x), 1}, {"Down", Down(x), -1}} {
			got, ok := new(big.Rat).SetString(c.s)
			if !ok {
				t.Fatalf("%s(%v) = %q: not a number", c.name, x, c.s)
			}
			if cmp := got.Cmp(exact); cmp == -c.sign {
				t.Fatalf("%s(%v) = %q lies on the wrong side of it", c.name, x, c.s)
			}
			mant, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(strconv.FormatFloat(mustFloat(t, c.s), 'e', -1, 64), "-"), "+"), "e")
			if n := len(mant) - strings.Count(mant, "."); n > Digits {
				t.Fatalf("%s(%v) = %q has %d significant digits", c.name, x, c.s, n)
			}
			if Exact(x) && c.s != Num(x) {
				t.Fatalf("%s(%v) = %q, but Num writes it in %d digits: %q", c.name, x, c.s, Digits, Num(x))
			}
		}
	}
}

func mustFloat(t *testing.T, s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOr(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"epsilon/delta", "gdp_mu", "tradeoff"}, "epsilon/delta, gdp_mu or tradeoff"}} {
		if got := Or(c.in); got != c.want {
			t.Errorf("Or(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Wrapped breaks each whole line at Columns as Wrap does, whatever the writes'
// boundaries, and keeps short lines and an open last line as they are.
func TestWrapped(t *testing.T) {
	long := "  datasets: " + strings.Repeat("a (no neighbours, NOT private), ", 10)
	in := "short\n" + long + "\nlast, open"
	var want strings.Builder
	want.WriteString("short\n")
	for _, l := range Wrap(long, Columns) {
		want.WriteString(l + "\n")
	}
	want.WriteString("last, open")
	for _, step := range []int{1, 7, len(in)} {
		var b strings.Builder
		w := NewWrapped(&b)
		for i := 0; i < len(in); i += step {
			w.Write([]byte(in[i:min(i+step, len(in))]))
		}
		if err := w.Flush(); err != nil || b.String() != want.String() {
			t.Errorf("writes of %d bytes: %q (%v), want %q", step, b.String(), err, want.String())
		}
	}
	for _, l := range strings.Split(want.String(), "\n") {
		if utf8.RuneCountInString(l) > Columns {
			t.Errorf("a line of %d runes: %q", utf8.RuneCountInString(l), l)
		}
	}
}
