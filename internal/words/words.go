package words

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Count is n followed by the singular or the plural noun.
func Count(n int64, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.FormatInt(n, 10) + " " + one
	}
	return strconv.FormatInt(n, 10) + " " + many
}

// Num writes x as the shortest decimal that reads back to the same float64 (a
// probability, ε or δ in a message exactly as graphdp holds it).
func Num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Digits is how many significant digits Up and Down keep.
const Digits = 6

// Up writes x for people: as Num when that takes at most Digits significant
// digits, else rounded up to Digits of them, never below x. A privacy loss spent or
// charged is shown so: 3.999994000004001e-06 reads 4e-06, and no figure shown is
// less than the one graphdp holds.
func Up(x float64) string { return rounded(x, true) }

// Down is Up rounding down, never above x: for what is left of a budget.
func Down(x float64) string { return rounded(x, false) }

// Exact reports whether Up and Down write x as Num does (at most Digits
// significant digits), so that a text rounds only where it says so.
func Exact(x float64) bool {
	_, ok := shortest(x)
	return ok
}

// shortest is x's shortest decimal in the form d.ddde±XX, and whether it has at
// most Digits significant digits (also for 0, NaN and ±Inf).
func shortest(x float64) (string, bool) {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return "", true
	}
	s := strconv.FormatFloat(x, 'e', -1, 64)
	mant, _, _ := strings.Cut(strings.TrimPrefix(s, "-"), "e")
	return s, len(mant)-strings.Count(mant, ".") <= Digits
}

// rounded is x with Digits significant digits, rounded up or down. It cuts x's
// shortest decimal after Digits digits and, rounding away from zero, adds one to
// the last: the result lies beyond the shortest decimal, hence beyond x itself (a
// decimal of Digits digits between the two would read back to x, and be shorter).
func rounded(x float64, up bool) string {
	s, ok := shortest(x)
	if ok {
		return Num(x)
	}
	neg := strings.HasPrefix(s, "-")
	mant, exp, _ := strings.Cut(strings.TrimPrefix(s, "-"), "e")
	head, _ := strconv.ParseInt(strings.Replace(mant, ".", "", 1)[:Digits], 10, 64)
	if up != neg { // the rest is not zero: a shortest decimal ends in a non-zero digit
		head++
	}
	e, _ := strconv.Atoi(exp)
	d := strconv.FormatInt(head, 10) + "e" + strconv.Itoa(e-(Digits-1))
	if neg {
		d = "-" + d
	}
	v, _ := strconv.ParseFloat(d, 64)
	return Num(v)
}

// Humane writes a non-negative quantity with an SI suffix and 3 significant digits:
// 584, 58.4k, 584k, 5.84M.
func Humane(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "?"
	}
	suffix := ""
	for _, s := range []string{"k", "M", "G", "T"} {
		if math.Abs(x) < 999.5 {
			break
		}
		x /= 1000
		suffix = s
	}
	if suffix == "" && x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	decimals := 2
	switch a := math.Abs(x); {
	case a >= 99.95:
		decimals = 0
	case a >= 9.995:
		decimals = 1
	}
	out := strconv.FormatFloat(x, 'f', decimals, 64)
	if strings.Contains(out, ".") {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out + suffix
}

// maxQuoted caps how much of a value Quote prints.
const maxQuoted = 80

// Quote prints a value that comes from data (an id, a CSV field, a column name) in
// a message: verbatim when that is unambiguous, Go-quoted when it is not valid
// UTF-8 or holds spaces, quotes or anything not graphic — so no byte of the data
// reaches a terminal as a control sequence (ESC, CR, a newline that would forge a
// line) — and cut after 80 bytes with "...".
func Quote(v string) string {
	cut := false
	if len(v) > maxQuoted {
		n := maxQuoted
		for n > 0 && !utf8.RuneStart(v[n]) {
			n--
		}
		v, cut = v[:n], true
	}
	plain := v != "" && utf8.ValidString(v)
	for _, r := range v {
		if !plain || !unicode.IsGraphic(r) || unicode.IsSpace(r) || r == '"' {
			plain = false
			break
		}
	}
	if !plain {
		v = strconv.Quote(v)
	}
	if cut {
		v += "..."
	}
	return v
}

// Bit is 1 for true and 0 for false: an answer or an output as a number.
func Bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Columns is the width text output wraps at.
const Columns = 100

// Wrap breaks s into lines of at most width runes at spaces, each continuation
// line indented as s is plus two spaces; a word longer than a line stands alone on
// its line (never cut: it may be a path or an id).
func Wrap(s string, width int) []string {
	if utf8.RuneCountInString(s) <= width {
		return []string{s}
	}
	indent := len(s) - len(strings.TrimLeft(s, " "))
	pad := strings.Repeat(" ", indent+2)
	var lines []string
	line, n, empty := s[:indent], indent, true
	for _, w := range strings.Fields(s[indent:]) {
		wn := utf8.RuneCountInString(w)
		switch {
		case empty:
			line, n, empty = line+w, n+wn, false
		case n+1+wn <= width:
			line, n = line+" "+w, n+1+wn
		default:
			lines = append(lines, line)
			line, n = pad+w, len(pad)+wn
		}
	}
	return append(lines, line)
}

// Or joins ws as alternatives: "a, b or c" ("a" alone, "" for none).
func Or(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}
